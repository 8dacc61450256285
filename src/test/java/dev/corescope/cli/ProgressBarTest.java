package dev.corescope.cli;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.FamilyRun;
import dev.corescope.report.ResultsFile;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProgressBarTest {

    private static final BenchFamily FAMILY = new BenchFamily() {
        @Override
        public String name() {
            return "demo";
        }

        @Override
        public String summary() {
            return "demo";
        }

        @Override
        public FamilyRun run(BenchContext context) {
            throw new UnsupportedOperationException();
        }
    };

    @Test
    void onATerminalOneBarIsRedrawnInPlaceAndClearedAtTheEnd() {
        StringWriter sw = new StringWriter();
        AtomicLong now = new AtomicLong();
        ProgressBar bar = new ProgressBar(new PrintWriter(sw), true, now::get, 0);
        bar.familyStarted(1, 3, FAMILY);
        bar.start("demo", 4);
        now.set(65_000_000_000L);
        bar.step("first");
        bar.familyFinished(1, 3, FAMILY, null);
        assertEquals("\r\033[K[2/3] demo [........................]   0:00"
                        + "\r\033[K[2/3] demo [........................] 0/4   0:00"
                        + "\r\033[K[2/3] demo [######..................] 1/4 first  1:05"
                        + "\r\033[Kcorescope: [2/3] demo: done in 1:05\n",
                sw.toString());
    }

    @Test
    void elsewhereEachStepIsOnePlainLine() {
        StringWriter sw = new StringWriter();
        AtomicLong now = new AtomicLong();
        ProgressBar bar = new ProgressBar(new PrintWriter(sw), false, now::get);
        bar.familyStarted(0, 1, FAMILY);
        bar.start("demo", 2);
        now.set(3_000_000_000L);
        bar.step("a");
        bar.step("b");
        bar.familyFinished(0, 1, FAMILY, new ResultsFile.Failure("demo", "boom"));
        assertEquals("""
                corescope: [1/1] demo: running
                corescope: [1/1] demo 1/2 a (0:03)
                corescope: [1/1] demo 2/2 b (0:03)
                corescope: [1/1] demo: FAILED after 0:03: boom
                """, sw.toString());
    }

    @Test
    void offATerminalALineFitsTheWidthNamesTheFamilyOnceAndTheFirstStepShowsAtOnce() {
        StringWriter sw = new StringWriter();
        AtomicLong now = new AtomicLong();
        ProgressBar bar = new ProgressBar(new PrintWriter(sw), false, now::get);
        bar.familyStarted(0, 1, FAMILY);
        bar.start("bench demo", 30);
        bar.begin("TSC rate");
        String first = sw.toString();
        assertEquals("corescope: [1/1] demo: running\ncorescope: [1/1] demo 1/30 TSC rate ... (0:00)\n", first, "the first step at once");
        bar.step("x".repeat(300));
        bar.begin("not printed: only the first step is announced off a terminal");
        String[] lines = sw.toString().split("\n");
        String last = lines[lines.length - 1];
        int width = dev.corescope.text.Width.of(false);
        assertEquals(width, last.length(), last);
        assertEquals("corescope: [1/1] demo 1/30 ", last.substring(0, 27), "the family once: " + last);
        assertEquals(3, lines.length);
    }
}
