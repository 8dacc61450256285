package dev.corescope.sys;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.ffi.LibC;
import dev.corescope.sys.ffi.sigset_t;
import org.junit.jupiter.api.Test;

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

    @Test
    void aCommandThatCannotBeFoundFailsWithEnoentAndLeavesTheThreadAsItWas() {
        // HotSpot blocks SIGQUIT in every Java thread; Exec empties the mask before execvp
        assumeTrue(SignalMask.isBlocked(SIGQUIT), "SIGQUIT is not blocked in this thread: nothing to see restored");
        CpuMask before = Affinity.allowed();
        CpuMask one = CpuMask.of(before.nbits(), Affinity.processAllowed().first());

        NativeException failed = Exec.execPinned(one, List.of("/nonexistent/corescope-exec-test"));

        assertEquals(Errno.ENOENT, failed.errno(), failed.getMessage());
        assertEquals(before, Affinity.allowed(), "the thread was left pinned");
        assertTrue(SignalMask.isBlocked(SIGQUIT), "the signal mask was left empty");
    }
}
