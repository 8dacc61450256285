package dev.corescope.sys.tool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
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
        assumeFalse(isBlocked(SIGUSR1), "SIGUSR1 is already blocked in this thread");
        try (SignalMask mask = SignalMask.open()) {
            mask.blockSaving();
            try {
                assertTrue(isBlocked(SIGUSR1));
                assertTrue(isBlocked(SIGRTMAX));
                for (int sync : SignalMask.UNBLOCKED) assertFalse(isBlocked(sync), "signal " + sync + " was blocked");
            } finally {
                mask.restore();
            }
            assertFalse(isBlocked(SIGUSR1));
        }
    }

    @Test
    void blockWithoutSavingThenUnblockClearsTheWholeSet() {
        try (SignalMask original = SignalMask.open(); SignalMask mask = SignalMask.open()) {
            original.save();
            try {
                mask.block();
                assertTrue(isBlocked(SIGUSR1));
                assertFalse(isBlocked(SIGSEGV));
                mask.unblock();
                // local_irq_enable semantics: everything in the set is unblocked, whatever was blocked before
                for (int signo = 1; signo <= SIGRTMAX; signo++) {
                    if (signo == 32 || signo == 33) continue; // glibc's own, never in a user mask
                    assertFalse(isBlocked(signo), "signal " + signo + " still blocked");
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

    /** Whether {@code signo} is blocked in the calling thread, as the kernel says: {@code SigBlk} of {@code /proc/thread-self/status}. */
    public static boolean isBlocked(int signo) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
                if (line.startsWith("SigBlk:")) return new BigInteger(line.substring(7).strip(), 16).testBit(signo - 1);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new AssertionError("no SigBlk line in /proc/thread-self/status");
    }

    public static List<Integer> blocked() {
        List<Integer> out = new ArrayList<>();
        for (int signo = 1; signo <= SIGRTMAX; signo++) if (isBlocked(signo)) out.add(signo);
        return out;
    }
}
