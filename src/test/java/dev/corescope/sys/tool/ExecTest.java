package dev.corescope.sys.tool;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.ffi.LibC;
import dev.corescope.sys.ffi.sigset_t;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.sys.internal.Libc;
import org.junit.jupiter.api.Test;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link Exec} in this JVM: only its failure can be run here (a success replaces the process;
 * that is {@code PinSignalsTest}'s, in a child JVM).
 */
class ExecTest {

    private static final int SIGQUIT = 3;

    @Test
    void theConstantsWrittenByHandAreTheGeneratedOnes() {
        assertEquals(LibC.SIG_SETMASK(), Exec.SIG_SETMASK);
        assertEquals(sigset_t.layout().byteSize(), Exec.SIGSET_BYTES);
    }

    /**
     * Before {@code execvp} every descriptor above 2 is marked close-on-exec by {@code close_range}
     * (through the affinity calls' shape on x86-64 and arm64): a file this JVM opened is so
     * marked afterwards, and still open.
     */
    @Test
    void descriptorsAboveTwoAreMarkedCloseOnExecBeforeExecvp(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        assumeTrue(Libc.findSymbol("close_range").isPresent(), "no close_range in this C library (glibc < 2.34)");
        Path file = Files.writeString(dir.resolve("held-open"), "x");
        try (FileInputStream in = new FileInputStream(file.toFile())) {
            int fd = fdOf(file);
            assumeTrue(!closeOnExec(fd), "the JVM opened the file close-on-exec already: nothing to see");

            Exec.execPinned(Affinity.allowed(), List.of("/nonexistent/corescope-exec-test"));

            assertTrue(closeOnExec(fd), "fd " + fd + " is not close-on-exec after execPinned");
            assertEquals('x', in.read(), "the descriptor was closed instead of marked");
        }
    }

    private static int fdOf(Path file) throws IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).equals(file)) return Integer.parseInt(fd.getFileName().toString());
                } catch (IOException gone) {
                    // the directory stream's own descriptor, closed by now
                }
            }
        }
        throw new AssertionError("no descriptor of " + file + " in /proc/self/fd");
    }

    /** O_CLOEXEC (octal 02000000) in the {@code flags:} line of {@code /proc/self/fdinfo/FD}. */
    private static boolean closeOnExec(int fd) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo/" + fd))) {
            if (line.startsWith("flags:")) return (Long.parseLong(line.substring(6).strip(), 8) & 02000000) != 0;
        }
        throw new AssertionError("no flags line for fd " + fd);
    }

    @Test
    void aCommandThatCannotBeFoundFailsWithEnoentAndLeavesTheThreadAsItWas() {
        // HotSpot blocks SIGQUIT in every Java thread; Exec empties the mask before execvp
        assumeTrue(SignalMaskTest.isBlocked(SIGQUIT), "SIGQUIT is not blocked in this thread: nothing to see restored");
        CpuMask before = Affinity.allowed();
        CpuMask one = CpuMask.of(before.nbits(), Affinity.processAllowed().first());

        NativeException failed = Exec.execPinned(one, List.of("/nonexistent/corescope-exec-test"));

        assertEquals(Errno.ENOENT, failed.errno(), failed.getMessage());
        assertEquals(before, Affinity.allowed(), "the thread was left pinned");
        assertTrue(SignalMaskTest.isBlocked(SIGQUIT), "the signal mask was left empty");
    }
}
