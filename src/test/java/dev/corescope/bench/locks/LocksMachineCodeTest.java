package dev.corescope.bench.locks;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The calls per element each locks row shows are the ones in the built library's machine code:
 * per C loop, the call instructions of its function beyond the for_loop's (the clock reads around
 * every loop) and its own once-only calls (the signal mask saved and restored around the loop).
 * spin_lock_irqsave makes one call per element more than spin_lock_unlock, as the seed's kernel did.
 */
class LocksMachineCodeTest {

    @Test
    void eachLoopMakesTheCallsItsRowShows() throws Exception {
        Path lib = Path.of("target/classes/native/libcorescope.so");
        assumeTrue(Files.isRegularFile(lib), "libcorescope.so not built (no C compiler): " + lib.toAbsolutePath());
        Map<String, Integer> calls = calls(lib);
        int base = calls.getOrDefault(LocksTwins.Loop.FOR_LOOP.symbol(), -1);
        assertTrue(base > 0, "cs_locks_for_loop calls the clock: " + calls);
        for (LocksTwins.Loop loop : LocksTwins.Loop.values()) {
            assertTrue(calls.containsKey(loop.symbol()), loop.symbol() + " in " + calls.keySet());
            assertEquals(loop.calls(), calls.get(loop.symbol()) - base - loop.setupCalls(), loop.symbol());
        }
        assertEquals(LocksTwins.Loop.SPIN_LOCK_UNLOCK.calls() + 1, LocksTwins.Loop.SPIN_LOCK_IRQSAVE_PUSHF.calls());
    }

    /** Call instructions per cs_locks_* function in {@code objdump -d}; skips without objdump. */
    private static Map<String, Integer> calls(Path lib) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("objdump", "-d", "--no-show-raw-insn", lib.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "objdump is not installed (binutils): " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, "objdump failed");
        Map<String, Integer> calls = new HashMap<>();
        Pattern head = Pattern.compile("^[0-9a-f]+ <(cs_locks_[a-z_0-9]+)>:$");
        String current = null;
        for (String line : out.split("\n")) {
            Matcher m = head.matcher(line);
            if (m.matches()) {
                current = m.group(1);
                calls.put(current, 0);
            } else if (line.isEmpty()) {
                current = null;
            } else if (current != null && line.matches("^\\s*[0-9a-f]+:\\s+call\\s.*")) {
                calls.merge(current, 1, Integer::sum);
            }
        }
        return calls;
    }
}
