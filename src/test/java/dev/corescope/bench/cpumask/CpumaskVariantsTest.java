package dev.corescope.bench.cpumask;

import dev.corescope.bench.cpumask.CpumaskInputs.InputKind;
import dev.corescope.bench.cpumask.CpumaskInputs.MaskKind;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Affinity;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The two variants the benchmark compares give the same CPU for every input, in Java and in C. */
class CpumaskVariantsTest {

    @Test
    void anyButLoopAndFirstButAgreeOnEveryMaskOfTenBitsAndEveryCpu() {
        int nbits = 10;
        for (int bits = 0; bits < 1 << nbits; bits++) {
            CpuMask m = CpuMask.fromWords(nbits, new long[]{bits});
            for (int cpu = 0; cpu <= nbits; cpu++) {
                int c = cpu;
                assertEquals(m.anyButLoop(c), m.firstBut(c), () -> "mask " + m + ", cpu " + c);
            }
        }
    }

    @Property(tries = 300)
    void anyButLoopAndFirstButAgreeOnRandomSparseMasks(@ForAll long seed, @ForAll @IntRange(min = 0, max = 12) int setBits,
                                                       @ForAll @IntRange(min = 0, max = 1) int big) {
        int nbits = big == 1 ? 4096 : 64;
        CpuMask m = randomMask(new Random(seed), nbits, setBits);
        int[] cpus = m.toArray();
        for (int cpu : cpus) assertEquals(m.anyButLoop(cpu), m.firstBut(cpu));
        assertEquals(m.anyButLoop(nbits - 1), m.firstBut(nbits - 1));
        assertEquals(m.anyButLoop(0), m.firstBut(0));
    }

    @Test
    void bothVariantsAgreeOnEveryBenchmarkInput() {
        for (CpuMask allowed : allowedSets()) {
            for (CpumaskConfig c : CpumaskConfig.all()) {
                CpumaskInputs in = CpumaskInputs.of(c.nrCpus(), c.mask(), c.input(), allowed, Math.max(2, allowed.last() + 1));
                for (int cpu : in.cpus()) {
                    assertEquals(in.mask().anyButLoop(cpu), in.mask().firstBut(cpu), () -> in.describeMask() + ", cpu " + cpu);
                }
            }
        }
    }

    @Test
    void highMaskMovesTheCpusAndTheDrawsToTheTopBits() {
        CpuMask allowed = CpuMask.parseList("0-1", 2);
        CpumaskInputs low = CpumaskInputs.of(64, MaskKind.ALLOWED, InputKind.RANDOM, allowed, 2);
        CpumaskInputs high64 = CpumaskInputs.of(64, MaskKind.HIGH, InputKind.RANDOM, allowed, 2);
        CpumaskInputs high4096 = CpumaskInputs.of(4096, MaskKind.HIGH, InputKind.PRECOMPUTED, allowed, 2);
        assertEquals("0-1", low.mask().toList());
        assertEquals("62-63", high64.mask().toList());
        assertEquals("4094-4095", high4096.mask().toList());
        assertEquals(4094, high4096.offset());
        for (int i = 0; i < low.cpus().length; i++) {
            assertEquals(low.cpus()[i] + 62, high64.cpus()[i]);
            assertEquals(low.mask().firstBut(low.cpus()[i]) + 62, high64.mask().firstBut(high64.cpus()[i]));
        }
    }

    @Test
    void theDrawsFollowTheSeedsFormulaAndHitEveryCpuOfTheRange() {
        CpumaskInputs in = CpumaskInputs.of(4096, MaskKind.ALLOWED, InputKind.RANDOM, CpuMask.parseList("0-7", 8), 8);
        int[] seen = new int[8];
        for (int cpu : in.cpus()) seen[cpu]++;
        for (int n : seen) assertEquals(true, n > 0, "every CPU of 0-7 drawn at least once in 1024 draws");
    }

    @Test
    void theCTwinsAnswerAsJavaForEveryMaskOfTenBitsAndEveryCpu() {
        assumeTrue(CpumaskTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpumaskTwins.unavailableReason().orElseThrow());
        for (int nrCpus : new int[]{64, 4096}) {
            for (int bits = 0; bits < 1 << 10; bits += 3) {
                CpuMask m = CpuMask.fromWords(nrCpus, new long[]{bits});
                for (int cpu = 0; cpu <= 10; cpu++) {
                    int java = m.firstBut(cpu);
                    assertEquals(java, CpumaskTwins.call(false, nrCpus, m, cpu), "C loop, NR_CPUS=" + nrCpus + ", mask " + m + ", cpu " + cpu);
                    assertEquals(java, CpumaskTwins.call(true, nrCpus, m, cpu), "C first_but, NR_CPUS=" + nrCpus + ", mask " + m + ", cpu " + cpu);
                }
            }
        }
    }

    @Test
    void theCTwinsAnswerAsJavaOnSparseMasksAcrossWords() {
        assumeTrue(CpumaskTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpumaskTwins.unavailableReason().orElseThrow());
        Random rnd = new Random(7);
        for (int i = 0; i < 300; i++) {
            CpuMask m = randomMask(rnd, 4096, rnd.nextInt(6));
            int[] probes = {0, 63, 64, 4095, m.first() == 4096 ? 0 : m.first(), m.last() == 4096 ? 1 : m.last()};
            for (int cpu : probes) {
                assertEquals(m.firstBut(cpu), CpumaskTwins.call(false, 4096, m, cpu), () -> "mask " + m + ", cpu " + cpu);
                assertEquals(m.firstBut(cpu), CpumaskTwins.call(true, 4096, m, cpu), () -> "mask " + m + ", cpu " + cpu);
            }
        }
    }

    /** The C batch draws the same CPUs as Java (same xorshift64*, same formula): the sums of the answers match. */
    @Test
    void theCBatchLooksUpTheSameCpusAsJava() {
        assumeTrue(CpumaskTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpumaskTwins.unavailableReason().orElseThrow());
        CpuMask allowed = CpuMask.parseList("0-1,5", 6);
        for (CpumaskConfig c : CpumaskConfig.all()) {
            CpumaskInputs in = CpumaskInputs.of(c.nrCpus(), c.mask(), c.input(), allowed, 6);
            int calls = 4 * CpumaskInputs.PRECOMPUTED;
            long expected = 0;
            long state = CpumaskInputs.SEED;
            for (int n = 0; n < calls; n++) {
                int cpu;
                if (c.input() == InputKind.RANDOM) {
                    state = CpumaskInputs.Xorshift.step(state);
                    cpu = in.offset() + Integer.remainderUnsigned(CpumaskInputs.Xorshift.output(state), in.range());
                } else {
                    cpu = in.cpus()[n & (CpumaskInputs.PRECOMPUTED - 1)];
                }
                expected += in.mask().firstBut(cpu);
            }
            try (CpumaskTwins.Batch batch = new CpumaskTwins.Batch(c.nrCpus(), in.mask(), c.input() == InputKind.RANDOM,
                    in.offset(), in.range(), CpumaskInputs.SEED, in.cpus())) {
                batch.time(false, calls);
                assertEquals(expected, batch.sink(), "any_but_loop " + c);
                batch.time(true, calls);
                assertEquals(2 * expected, batch.sink(), "first_but " + c);
            }
        }
    }

    @Test
    void theBenchmarkUsesTheAllowedCpusOfThisThread() {
        CpumaskBenchmark b = new CpumaskBenchmark();
        b.nrCpus = 4096;
        b.mask = "allowed";
        b.input = "precomputed";
        b.setUp();
        try {
            CpuMask allowed = Affinity.allowed();
            int answer = b.first_but(new dev.corescope.bench.ThreadCpuTime());
            assertEquals(true, allowed.test(answer) || answer == 4096, "answer " + answer + " is an allowed CPU or none");
        } finally {
            b.tearDown();
        }
    }

    private static List<CpuMask> allowedSets() {
        List<CpuMask> out = new ArrayList<>();
        out.add(Affinity.allowed());
        out.add(CpuMask.parseList("0", 1));
        out.add(CpuMask.parseList("1", 2));
        out.add(CpuMask.parseList("0-1", 2));
        out.add(CpuMask.parseList("0-15", 16));
        out.add(CpuMask.parseList("2,5,63", 64));
        out.add(CpuMask.parseList("3,70,4095", 4096));
        return out;
    }

    private static CpuMask randomMask(Random rnd, int nbits, int setBits) {
        CpuMask.Builder b = CpuMask.builder(nbits);
        for (int i = 0; i < setBits; i++) b.set(rnd.nextInt(nbits));
        return b.build();
    }

    @Test
    void precomputedDrawsAreReproducible() {
        CpuMask allowed = CpuMask.parseList("0-3", 4);
        assertArrayEquals(CpumaskInputs.of(64, MaskKind.ALLOWED, InputKind.PRECOMPUTED, allowed, 4).cpus(),
                CpumaskInputs.of(64, MaskKind.ALLOWED, InputKind.PRECOMPUTED, allowed, 4).cpus());
    }
}
