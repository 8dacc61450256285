package dev.corescope.sys.tool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ElfSymbolTableTest {

    private static final List<String> TWINS = List.of(
            "cs_cpumask_any_but_loop_64", "cs_cpumask_first_but_64",
            "cs_cpumask_any_but_loop_4096", "cs_cpumask_first_but_4096",
            "cs_timerbase_lock_before", "cs_timerbase_lock_after");

    private static Path library() {
        assumeTrue(NativeLibrary.available(), () -> "libcorescope.so not loaded: " + NativeLibrary.unavailableReason().orElse("?"));
        return NativeLibrary.file().orElseThrow();
    }

    @Test
    void findsEveryCTwinAsADefinedFunctionWithASize() throws IOException {
        ElfSymbolTable elf = ElfSymbolTable.read(library());
        for (String name : TWINS) {
            ElfSymbolTable.Symbol s = elf.function(name).orElseThrow(() -> new AssertionError(name + " missing"));
            assertTrue(s.size() > 0, name + " has a size");
            assertEquals(1, s.bind(), name + " is global");
        }
        assertTrue(elf.function("cs_no_such_function").isEmpty());
    }

    /** The sizes are the ones binutils reads: the reference bloat-o-meter itself uses ({@code nm --size-sort}). */
    @Test
    void sizesAndAddressesAgreeWithNm() throws Exception {
        Path lib = library();
        Map<String, long[]> nm = nm(lib, false);
        ElfSymbolTable elf = ElfSymbolTable.read(lib);
        for (String name : TWINS) {
            ElfSymbolTable.Symbol s = elf.function(name).orElseThrow();
            assertEquals(nm.get(name)[0], s.value(), name + " address");
            assertEquals(nm.get(name)[1], s.size(), name + " size");
        }
    }

    @Test
    void readsDynsymWhenTheLibraryIsStripped(@TempDir Path dir) throws Exception {
        Path lib = library();
        Path stripped = dir.resolve("stripped.so");
        assumeTrue(run(List.of("strip", "--strip-all", "-o", stripped.toString(), lib.toString())), "strip (binutils) not available");
        ElfSymbolTable full = ElfSymbolTable.read(lib);
        ElfSymbolTable dyn = ElfSymbolTable.read(stripped);
        assertTrue(dyn.symbols().stream().allMatch(s -> s.table().equals(".dynsym")));
        for (String name : TWINS) {
            assertEquals(full.function(name).orElseThrow().size(), dyn.function(name).orElseThrow().size(), name);
        }
    }

    @Test
    void refusesAFileThatIsNotElf(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("notes.txt");
        Files.writeString(f, "just some text that is long enough to have 64 bytes of header, but it is no ELF at all.\n");
        IOException e = assertThrows(IOException.class, () -> ElfSymbolTable.read(f));
        assertTrue(e.getMessage().contains("not an ELF file"), e.getMessage());
    }

    @Test
    void refusesATruncatedLibrarySayingWhichPartIsMissing(@TempDir Path dir) throws IOException {
        byte[] all = Files.readAllBytes(library());
        Path f = dir.resolve("truncated.so");
        Files.write(f, Arrays.copyOf(all, 4096));
        IOException e = assertThrows(IOException.class, () -> ElfSymbolTable.read(f));
        assertTrue(e.getMessage().contains("outside the file"), e.getMessage());
    }

    @Test
    void refusesElf32(@TempDir Path dir) throws IOException {
        byte[] header = new byte[64];
        header[0] = 0x7f;
        header[1] = 'E';
        header[2] = 'L';
        header[3] = 'F';
        header[4] = 1;
        header[5] = 1;
        Path f = dir.resolve("elf32.o");
        Files.write(f, header);
        IOException e = assertThrows(IOException.class, () -> ElfSymbolTable.read(f));
        assertTrue(e.getMessage().contains("not ELF64"), e.getMessage());
        assertFalse(e.getMessage().isBlank());
    }

    /** {@code nm -S --defined-only}: name -> {address, size}. */
    private static Map<String, long[]> nm(Path lib, boolean dynamic) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(dynamic ? List.of("nm", "-D", "-S", "--defined-only", lib.toString())
                : List.of("nm", "-S", "--defined-only", lib.toString()));
        pb.redirectErrorStream(true);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            assumeTrue(false, "nm (binutils) not available");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        Map<String, long[]> m = new HashMap<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4) m.put(f[3], new long[]{Long.parseUnsignedLong(f[0], 16), Long.parseUnsignedLong(f[1], 16)});
        }
        return m;
    }

    private static boolean run(List<String> cmd) throws Exception {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
