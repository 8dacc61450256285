package dev.corescope.cpumask;

import dev.corescope.cpumask.CpuMaskFormatException.Code;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cpulist and hex cpumap parsers on the syntax {@code lib/bitmap-str.c} documents and on
 * every error it returns, with the kernel's error code. Inputs with quotes keep their white
 * space; {@code \n} in them is a newline.
 */
class CpuListParserTest {

    @ParameterizedTest(name = "[{index}] parseList(\"{0}\", {1}) = \"{2}\"")
    @CsvSource(delimiter = '|', emptyValue = "", textBlock = """
            0-3,8               | 32   | 0-3,8
            0                   | 1    | 0
            ''                  | 8    | ''
            ',, ,'              | 8    | ''
            ' 1 , 2 '           | 8    | 1-2
            3,1,2,1             | 8    | 1-3
            2-2                 | 8    | 2
            0-31:1/4            | 32   | 0,4,8,12,16,20,24,28
            0-1023:2/256        | 1024 | 0-1,256-257,512-513,768-769
            0-9:3/3             | 16   | 0-9
            0-9:0/3             | 16   | ''
            1-10:2/4            | 16   | 1-2,5-6,9-10
            N                   | 8    | 7
            0-N                 | 8    | 0-7
            N-N                 | 64   | 63
            all                 | 8    | 0-7
            ALL                 | 4    | 0-3
            All:1/2             | 8    | 0,2,4,6
            all:2/4,1           | 12   | 0-1,4-5,8-9
            0\\t1               | 8    | 0-1
            1,3\\n              | 8    | 1,3
            0\\n2               | 8    | 0
            '0 \\n2'            | 8    | 0,2
            \\n1                | 8    | 1
            0-3:1/2\\n5         | 8    | 0,2,5
            0-3:1/2N            | 8    | 0,2,7
            8191                | 8192 | 8191
            0-8191:1/4096       | 8192 | 0,4096
            """)
    void parseListAcceptsTheKernelSyntax(String input, int nbits, String expected) {
        CpuMask m = CpuMask.parseList(unescape(input), nbits);
        assertEquals(expected, m.toList());
        assertEquals(nbits, m.nbits());
    }

    @ParameterizedTest(name = "[{index}] parseList(\"{0}\", {1}) fails with {2}")
    @CsvSource(delimiter = '|', textBlock = """
            9-3                        | 16 | EINVAL    | range start 9 is after its end 3
            9-3                        | 4  | EINVAL    | range start 9 is after its end 3
            N-0                        | 8  | EINVAL    | range start 7 is after its end 0
            0-7:1/0                    | 8  | EINVAL    | group size 0
            0-7:3/2                    | 8  | EINVAL    | used 3 is more than the group size 2
            8                          | 8  | ERANGE    | CPU 8 is beyond the last bit 7 (nbits 8)
            0-8                        | 8  | ERANGE    | CPU 8 is beyond the last bit 7 (nbits 8)
            1,64                       | 64 | ERANGE    | in '64': CPU 64 is beyond the last bit 63 (nbits 64)
            4294967296                 | 8  | EOVERFLOW | the number 4294967296 does not fit in 32 bits
            0-99999999999999999999999  | 8  | EOVERFLOW | the number 99999999999999999999999 does not fit in 32 bits
            0-3:4294967296/2           | 8  | EOVERFLOW | the number 4294967296 does not fit in 32 bits
            4294967295                 | 8  | EINVAL    | the end 4294967295 makes the implied group size end+1 wrap to 0
            x                          | 8  | EINVAL    | expected a number but found 'x'
            abc                        | 8  | EINVAL    | expected a number but found 'a'
            1-                         | 8  | EINVAL    | expected a number but found the end
            -1                         | 8  | EINVAL    | expected a number but found '-'
            +1                         | 8  | EINVAL    | expected a number but found '+'
            1--2                       | 8  | EINVAL    | expected a number but found '-'
            1:1/2                      | 8  | EINVAL    | expected '-' but found ':'
            0-3:1                      | 8  | EINVAL    | expected '/' but found the end
            0-3:/2                     | 8  | EINVAL    | expected a number but found '/'
            0-3:1/                     | 8  | EINVAL    | expected a number but found the end
            0-3:1/2x                   | 8  | EINVAL    | in 'x': expected a number but found 'x'
            1.5                        | 8  | EINVAL    | expected '-' but found '.'
            0x10                       | 8  | EINVAL    | expected '-' but found 'x'
            allx                       | 8  | EINVAL    | expected ':' but found 'x'
            N5                         | 8  | EINVAL    | expected '-' but found '5'
            n                          | 8  | EINVAL    | expected a number but found 'n'
            1;2                        | 8  | EINVAL    | expected '-' but found ';'
            ١                          | 8  | EINVAL    | expected a number but found '١'
            0-3:1/2\\n1-0              | 8  | EINVAL    | in '1-0': range start 1 is after its end 0
            """)
    void parseListRejectsWhatTheKernelRejectsWithItsErrorCode(String input, int nbits, Code code, String why) {
        String text = unescape(input);
        CpuMaskFormatException e = assertThrows(CpuMaskFormatException.class, () -> CpuMask.parseList(text, nbits));
        assertEquals(code, e.code());
        assertEquals(why, e.getMessage());
        assertEquals(text, e.input());
    }

    @Test
    void outOfRangeErrorsCarryTheBitSoACallerCanGrowTheMask() {
        CpuMaskFormatException e = assertThrows(CpuMaskFormatException.class, () -> CpuMask.parseList("0-3,4100", 64));
        assertEquals(Code.ERANGE, e.code());
        assertEquals(4100L, e.bit().orElseThrow());
        assertTrue(assertThrows(CpuMaskFormatException.class, () -> CpuMask.parseList("9-3", 64)).bit().isEmpty());
    }

    @ParameterizedTest(name = "[{index}] parseHex(\"{0}\", {1}) = \"{2}\"")
    @CsvSource(delimiter = '|', emptyValue = "", textBlock = """
            f                   | 4    | 0-3
            3                   | 2    | 0-1
            0000010f            | 32   | 0-3,8
            ff,ffffffff         | 64   | 0-39
            ff,ffffffff         | 40   | 0-39
            FF                  | 8    | 0-7
            AbC                 | 12   | 2-5,7,9,11
            00000001,00000000   | 64   | 32
            1,,5                | 64   | 0,2,32
            ' 1 5 '             | 64   | 0,2,32
            1\\t5               | 64   | 0,2,32
            ''                  | 8    | ''
            ','                 | 8    | ''
            0                   | 1    | ''
            1                   | 1    | 0
            f\\n                | 4    | 0-3
            f\\nzz              | 4    | 0-3
            80000000,00000000,00000000,00000000 | 128 | 127
            1,00000000,00000000 | 65   | 64
            """)
    void parseHexAcceptsTheKernelCpumap(String input, int nbits, String expected) {
        CpuMask m = CpuMask.parseHex(unescape(input), nbits);
        assertEquals(expected, m.toList());
        assertEquals(nbits, m.nbits());
    }

    @ParameterizedTest(name = "[{index}] parseHex(\"{0}\", {1}) fails with {2}")
    @CsvSource(delimiter = '|', textBlock = """
            g                 | 8   | EINVAL    | 'g' is not a hex digit
            0x3               | 8   | EINVAL    | 'x' is not a hex digit
            1-2               | 8   | EINVAL    | '-' is not a hex digit
            x12345678         | 64  | EINVAL    | 'x' is not a hex digit
            １                | 8   | EINVAL    | '１' is not a hex digit
            123456789         | 64  | EOVERFLOW | a chunk has more than 8 hex digits (32 bits)
            1,0,0             | 64  | EOVERFLOW | more than 2 32-bit chunks for 64 bits
            0,3               | 4   | EOVERFLOW | more than 1 32-bit chunk for 4 bits
            10                | 4   | EOVERFLOW | CPU 4 is beyond the last bit 3 (nbits 4)
            2,00000000        | 33  | EOVERFLOW | CPU 33 is beyond the last bit 32 (nbits 33)
            """)
    void parseHexRejectsWhatTheKernelRejectsWithItsErrorCode(String input, int nbits, Code code, String why) {
        CpuMaskFormatException e = assertThrows(CpuMaskFormatException.class, () -> CpuMask.parseHex(input, nbits));
        assertEquals(code, e.code());
        assertEquals(why, e.getMessage());
    }

    @ParameterizedTest(name = "[{index}] hexChunks(\"{0}\") = {1}")
    @CsvSource(delimiter = '|', emptyValue = "", textBlock = """
            ''                 | 0
            ','                | 0
            3                  | 1
            ff,ffffffff        | 2
            1,,5               | 2
            ' 1 5 '            | 2
            f\\n1,2,3          | 1
            """)
    void hexChunksCountsChunksAsBitmapParseDoes(String input, int chunks) {
        assertEquals(chunks, CpuListParser.hexChunks(unescape(input)));
    }

    @Test
    void printingMatchesTheKernelFormats() {
        assertEquals("0-3,8", CpuMask.of(32, 0, 1, 2, 3, 8).toList());
        assertEquals("0000010f", CpuMask.of(32, 0, 1, 2, 3, 8).toHex());
        assertEquals("3", CpuMask.of(2, 0, 1).toHex());
        assertEquals("0", CpuMask.empty(1).toHex());
        assertEquals("ff,ffffffff", CpuMask.range(40, 0, 39).toHex());
        assertEquals("0,00000000", CpuMask.empty(33).toHex());
        assertEquals("0-1", CpuMask.of(8, 0, 1).toList());
        assertEquals("0,2", CpuMask.of(8, 0, 2).toList());
        assertEquals("", CpuMask.empty(8).toList());
    }

    @Test
    void readListReadsASysfsCpulistFile(@TempDir Path dir) throws IOException {
        Path online = Files.writeString(dir.resolve("online"), "0-3,8\n");
        assertEquals("0-3,8", CpuListParser.readList(online, 16).toList());
        assertThrows(UncheckedIOException.class, () -> CpuListParser.readList(dir.resolve("missing"), 16));
    }

    private static String unescape(String s) {
        return s.replace("\\n", "\n").replace("\\t", "\t");
    }
}
