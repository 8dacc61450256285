package dev.corescope.bench.cpumask;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The callers' machine code does what the kernel's would (objdump -dr of the built objects): at
 * NR_CPUS=64 the mask fits one word and every search is inline (small_const_nbits); at 4096 it is
 * the out-of-line find_bit functions: the loop calls _find_next_bit, cpumask_first_but()
 * _find_first_bit and then _find_next_bit.
 */
class KernelCallersCodeTest {

    @Test
    void searchesAreInlineAt64AndOutOfLineAt4096() throws Exception {
        assumeTrue(KernelCallers.class.getResource(KernelCallers.resource("kernel-O2", 64, false)) != null,
                "the kernel-like callers were not built (no C compiler)");
        for (String variant : new String[]{"old", "new"}) {
            Map<String, String> at64 = disassemble(KernelCallers.resource("kernel-O2", 64, variant.equals("new")));
            Map<String, String> at4096 = disassemble(KernelCallers.resource("kernel-O2", 4096, variant.equals("new")));
            for (String f : KernelCallers.CALLERS) {
                assertTrue(at64.containsKey(f) && at4096.containsKey(f), f);
                assertFalse(at64.get(f).contains("_find_"), f + " at 64 calls a find_bit function:\n" + at64.get(f));
                assertTrue(at4096.get(f).contains("_find_next_bit"), f + " " + variant + " at 4096:\n" + at4096.get(f));
                if (variant.equals("new")) assertTrue(at4096.get(f).contains("_find_first_bit"), f + " new at 4096:\n" + at4096.get(f));
            }
        }
    }

    /** objdump -dr of one object on the class path, per function; skips the test without objdump. */
    private static Map<String, String> disassemble(String resource) throws IOException, InterruptedException {
        Path tmp = Files.createTempFile("callers", ".o");
        try (InputStream in = KernelCallers.class.getResourceAsStream(resource)) {
            Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Process p;
            try {
                p = new ProcessBuilder("objdump", "-dr", "--no-show-raw-insn", tmp.toString()).redirectErrorStream(true).start();
            } catch (IOException e) {
                assumeTrue(false, "objdump is not installed (binutils): " + e.getMessage());
                throw e;
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "objdump failed: " + out);
            Map<String, String> byFunction = new LinkedHashMap<>();
            String current = null;
            StringBuilder body = new StringBuilder();
            for (String line : out.split("\n")) {
                var m = java.util.regex.Pattern.compile("^[0-9a-f]+ <([^>]+)>:$").matcher(line);
                if (m.matches()) {
                    if (current != null) byFunction.put(current, body.toString());
                    current = m.group(1);
                    body.setLength(0);
                } else if (current != null) {
                    body.append(line).append('\n');
                }
            }
            if (current != null) byFunction.put(current, body.toString());
            return byFunction;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
