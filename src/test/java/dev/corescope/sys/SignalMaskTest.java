package dev.corescope.sys;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The real {@code pthread_sigmask} on the test thread: what each stand-in for local_irq_* blocks
 * and that the thread's mask is back as it was after every test.
 */
public class SignalMaskTest {

    private static final int SIGUSR1 = 10;
    private static final int SIGSEGV = 11;
    private static final int SIGRTMAX = 64;

    private List<Integer> blockedBefore;

    @BeforeEach
    void rememberMask() {
        blockedBefore = blocked();
    }

    @AfterEach
    void maskIsBack() {
        assertEquals(blockedBefore, blocked(), "the test thread's signal mask was not restored");
    }

    @Test
    void blockSavingBlocksAllButTheSynchronousSignalsAndRestorePutsTheOldMaskBack() {
        assumeFalse(SignalMask.isBlocked(SIGUSR1), "SIGUSR1 is already blocked in this thread");
        try (SignalMask mask = SignalMask.open()) {
            mask.blockSaving();
            try {
                assertTrue(SignalMask.isBlocked(SIGUSR1));
                assertTrue(SignalMask.isBlocked(SIGRTMAX));
                for (int sync : SignalMask.UNBLOCKED) assertFalse(SignalMask.isBlocked(sync), "signal " + sync + " was blocked");
            } finally {
                mask.restore();
            }
            assertFalse(SignalMask.isBlocked(SIGUSR1));
        }
    }

    @Test
    void blockWithoutSavingThenUnblockClearsTheWholeSet() {
        try (SignalMask original = SignalMask.open(); SignalMask mask = SignalMask.open()) {
            original.save();
            try {
                mask.block();
                assertTrue(SignalMask.isBlocked(SIGUSR1));
                assertFalse(SignalMask.isBlocked(SIGSEGV));
                mask.unblock();
                // local_irq_enable semantics: everything in the set is unblocked, whatever was blocked before
                for (int signo = 1; signo <= SIGRTMAX; signo++) {
                    if (signo == 32 || signo == 33) continue; // glibc's own, never in a user mask
                    assertFalse(SignalMask.isBlocked(signo), "signal " + signo + " still blocked");
                }
            } finally {
                original.restore();
            }
        }
    }

    @Test
    void saveKeepsTheMaskWithoutChangingIt() {
        try (SignalMask mask = SignalMask.open()) {
            mask.save();
            assertEquals(blockedBefore, blocked());
            mask.restore();
        }
    }

    public static List<Integer> blocked() {
        List<Integer> out = new ArrayList<>();
        for (int signo = 1; signo <= SIGRTMAX; signo++) if (SignalMask.isBlocked(signo)) out.add(signo);
        return out;
    }
}
