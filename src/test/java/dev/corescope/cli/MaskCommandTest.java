package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.report.Json;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code mask} end to end: text against approved files, JSON fields, defaults and every bad input. */
class MaskCommandTest {

    @ParameterizedTest(name = "[{index}] mask {0} matches approved/cli/{1}")
    @CsvSource(delimiter = '|', textBlock = """
            --nbits 32 0-3,8                        | mask-list.txt
            --nbits 64 --input hex ff,ffffffff      | mask-hex.txt
            --nbits 128 0-127:2/32                  | mask-groups.txt
            --nbits 16 ,                            | mask-empty.txt
            --nbits 65 N                            | mask-65-bits.txt
            """)
    void textOutputMatchesTheApprovedFile(String args, String approved) {
        CliRun r = CliRun.run(("mask " + args).split(" ")).succeeded();
        CliRun.assertApproved("cli/" + approved, r.out(), Map.of());
    }

    @Test
    void jsonHasTheContractFieldsAndNothingElse() throws Exception {
        CliRun r = CliRun.run("mask", "--nbits", "32", "--format", "json", "0-3,8").succeeded();
        JsonNode json = Json.MAPPER.readTree(r.out());
        assertEquals(List.of("list", "hex", "weight", "nbits"), fieldNames(json));
        assertEquals("0-3,8", json.get("list").asText());
        assertEquals("0000010f", json.get("hex").asText());
        assertEquals(5, json.get("weight").asInt());
        assertEquals(32, json.get("nbits").asInt());
    }

    @Test
    void theEmptySetIsAnEmptyStringInJson() throws Exception {
        JsonNode json = Json.MAPPER.readTree(CliRun.run("mask", "--nbits", "8", "--format", "json", "0-7:0/4").succeeded().out());
        assertEquals("", json.get("list").asText());
        assertEquals("00", json.get("hex").asText());
        assertEquals(0, json.get("weight").asInt());
    }

    @Test
    void defaultWidthIsTheSmallestMultipleOf32HoldingNrCpuIdsAndTheNamedCpus() throws Exception {
        int base = Math.max(32, (Affinity.nrCpuIds() + 31) / 32 * 32);
        assertEquals(base, nbitsOf("mask", "--format", "json", "0-3,8"));
        assertEquals(Math.max(base, 64), nbitsOf("mask", "--format", "json", "40"));
        assertEquals(Math.max(base, 4096), nbitsOf("mask", "--format", "json", "0,4095"));
        assertEquals(Math.max(base, 96), nbitsOf("mask", "--format", "json", "--input", "hex", "1,0,0"));
        JsonNode last = Json.MAPPER.readTree(CliRun.run("mask", "--format", "json", "N").succeeded().out());
        assertEquals(String.valueOf(last.get("nbits").asInt() - 1), last.get("list").asText());
    }

    /**
     * Issue 28: a list naming CPUs far beyond this machine's count was parsed again each time
     * the width grew by 32 bits (3,125 parses for 100,000 CPUs, 24.9 s); the default width is
     * now found in one pass and the list parsed once. Counts parses, not time.
     */
    @Test
    void aLongListBeyondTheMachineIsParsedOnceWithoutNbits() {
        StringBuilder list = new StringBuilder();
        for (int cpu = 0; cpu < 100_000; cpu += 32) list.append(cpu).append(',');
        list.append("99999");
        int[] parses = {0};
        var mask = MaskCommand.parseListAtDefaultWidth(list.toString(), 2, (text, bits) -> {
            parses[0]++;
            return dev.corescope.cpumask.CpuMask.parseList(text, bits);
        });
        assertEquals(1, parses[0]);
        assertEquals(100_000, mask.nbits());
        assertEquals(3126, mask.weight());
    }

    @ParameterizedTest(name = "[{index}] mask {0} is {1} bits wide on a 2-CPU machine")
    @CsvSource(delimiter = '|', textBlock = """
            0-3,8               | 32
            40                  | 64
            0-100:1/4           | 128
            0-N,70              | 96
            N                   | 32
            all:1/2             | 32
            7-40,2              | 64
            '0\n99999'          | 32
            '0-3:1/2\n200'      | 224
            """)
    void theDefaultWidthHoldsTheWidestEndTheListNames(String expr, int bits) {
        String text = expr.replace("\\n", "\n");
        var mask = MaskCommand.parseListAtDefaultWidth(text, 2, (t, b) -> dev.corescope.cpumask.CpuMask.empty(b));
        assertEquals(bits, mask.nbits());
    }

    @Test
    void severalWordsAreJoinedWithSpacesAsTheKernelSyntaxAllows() {
        CliRun r = CliRun.run("mask", "--nbits", "32", "0-3,", "8").succeeded();
        assertTrue(r.out().startsWith("list    0-3,8\n"), r.out());
    }

    private static int nbitsOf(String... args) throws Exception {
        return Json.MAPPER.readTree(CliRun.run(args).succeeded().out()).get("nbits").asInt();
    }

    private static List<String> fieldNames(JsonNode json) {
        return json.properties().stream().map(Map.Entry::getKey).toList();
    }

    @ParameterizedTest(name = "[{index}] mask {0} exits 2 naming {1}")
    @CsvSource(delimiter = '|', textBlock = """
            9-3                          | '9-3': range start 9 is after its end 3; the kernel's bitmap_parselist returns -EINVAL
            --nbits 8 8                  | '8': CPU 8 is beyond the last bit 7 (nbits 8); the kernel's bitmap_parselist returns -ERANGE
            4294967296                   | '4294967296': the number 4294967296 does not fit in 32 bits; the kernel's bitmap_parselist returns -EOVERFLOW
            --nbits 8 0-7:1/0            | group size 0; the kernel's bitmap_parselist returns -EINVAL
            --nbits 8 0-7:3/2            | used 3 is more than the group size 2; the kernel's bitmap_parselist returns -EINVAL
            x                            | 'x': expected a number but found 'x'; the kernel's bitmap_parselist returns -EINVAL
            16777216                     | CPU 16777216 is beyond the last bit
            --input hex g                | 'g': 'g' is not a hex digit; the kernel's bitmap_parse returns -EINVAL
            --input hex 123456789        | more than 8 hex digits (32 bits); the kernel's bitmap_parse returns -EOVERFLOW
            --nbits 4 --input hex 10     | CPU 4 is beyond the last bit 3 (nbits 4); the kernel's bitmap_parse returns -EOVERFLOW
            --nbits 0 1                  | --nbits 0: must be between 1 and 16777216
            --nbits 16777217 1           | --nbits 16777217: must be between 1 and 16777216
            --nbits x 1                  | --nbits
            --input octal 1              | --input
            --format svg 1               | --format': expected text or json but was 'svg'
            --format yaml 1              | --format': expected text or json but was 'yaml'
            """)
    void badInputExits2WithOneLineAndNothingOnStdout(String args, String fragment) {
        CliRun.run(("mask " + args).split(" ")).badInput(fragment);
    }

    @Test
    void missingExprExits2() {
        CliRun.run("mask").badInput("EXPR");
    }
}
