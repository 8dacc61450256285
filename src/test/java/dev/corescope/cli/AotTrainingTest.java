package dev.corescope.cli;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The AOT training's {@code pin} step runs pin's program path up to {@code execvp} in the
 * training JVM itself: it must come back, and leave this thread as it found it.
 */
class AotTrainingTest {

    @Test
    void pinUpToExecComesBackWithTheThreadsMaskAndTheStandaloneFlagAsTheyWere() {
        CpuMask before = Affinity.allowed();
        AotTraining.pinUpToExec();
        assertEquals(before, Affinity.allowed(), "the thread was left pinned");
        assertFalse(Launcher.standalone, "the training left corescope marked as a program");
    }
}
