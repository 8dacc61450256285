package dev.corescope.bench.cpumask;

import dev.corescope.bench.cpumask.CpumaskInputs.MaskKind;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
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
                assertEquals(CpumaskBenchmark.anyButLoop(m, c), m.firstBut(c), () -> "mask " + m + ", cpu " + c);
            }
        }
    }

    @Property(tries = 300)
    void anyButLoopAndFirstButAgreeOnRandomSparseMasks(@ForAll long seed, @ForAll @IntRange(min = 0, max = 12) int setBits,
                                                       @ForAll @IntRange(min = 0, max = 1) int big) {
        int nbits = big == 1 ? 4096 : 64;
        CpuMask m = randomMask(new Random(seed), nbits, setBits);
        int[] cpus = m.toArray();
        for (int cpu : cpus) assertEquals(CpumaskBenchmark.anyButLoop(m, cpu), m.firstBut(cpu));
        assertEquals(CpumaskBenchmark.anyButLoop(m, nbits - 1), m.firstBut(nbits - 1));
        assertEquals(CpumaskBenchmark.anyButLoop(m, 0), m.firstBut(0));
    }

    @Test
    void bothVariantsAgreeOnEveryBenchmarkInput() {
        for (CpuMask allowed : allowedSets()) {
            for (CpumaskConfig c : CpumaskConfig.all()) {
                CpumaskInputs in = CpumaskInputs.of(c.nrCpus(), c.mask(), c.online(), allowed, Math.max(2, allowed.last() + 1));
                long state = CpumaskInputs.SEED;
                for (int n = 0; n < 2000; n++) {
                    state = CpumaskInputs.Xorshift.step(state);
                    int cpu = in.draw(state);
                    assertEquals(CpumaskBenchmark.anyButLoop(in.mask(), cpu), in.mask().firstBut(cpu), () -> in.describeMask() + ", cpu " + cpu);
                }
            }
        }
    }

    @Test
    void highMaskMovesTheCpusAndTheDrawsToTheTopBits() {
        CpuMask allowed = CpuMask.parseList("0-1", 2);
        CpumaskInputs low = CpumaskInputs.of(64, MaskKind.ONLINE, CpumaskInputs.HOST, allowed, 2);
        CpumaskInputs high64 = CpumaskInputs.of(64, MaskKind.HIGH, CpumaskInputs.HOST, allowed, 2);
        CpumaskInputs high4096 = CpumaskInputs.of(4096, MaskKind.HIGH, CpumaskInputs.HOST, allowed, 2);
        CpumaskInputs seedHigh = CpumaskInputs.of(4096, MaskKind.HIGH, "16", allowed, 2);
        assertEquals("0-1", low.mask().toList());
        assertEquals("62-63", high64.mask().toList());
        assertEquals("4094-4095", high4096.mask().toList());
        assertEquals("4080-4095", seedHigh.mask().toList());
        assertEquals(4094, high4096.offset());
        assertEquals(4096, high4096.nrCpuIds(), "the synthetic mask's searches run to the last bit");
        long state = CpumaskInputs.SEED;
        for (int i = 0; i < 1000; i++) {
            state = CpumaskInputs.Xorshift.step(state);
            assertEquals(low.draw(state) + 62, high64.draw(state));
            assertEquals(low.mask().firstBut(low.draw(state)) + 62, high64.mask().firstBut(high64.draw(state)));
        }
    }

    /**
     * The seed's machine had 16 CPUs online, so get_random_bytes() % nr_cpu_ids excluded the
     * first set CPU 1 call in 16 (on a 2-CPU host: 1 in 2, which set the old rows' branch
     * mispredictions). The default rows include those 16 CPUs, next to this machine's.
     */
    @Test
    void theSeedsSixteenOnlineCpusAreADefaultRowAndExcludeTheFirstCpuOneCallInSixteen() throws Exception {
        String[] online = CpumaskBenchmark.class.getField("online").getAnnotation(org.openjdk.jmh.annotations.Param.class).value();
        assertEquals(List.of("16", "host"), List.of(online));
        for (int nrCpus : new int[]{64, 4096}) {
            assertTrue(CpumaskConfig.all().contains(new CpumaskConfig(nrCpus, MaskKind.ONLINE, "16")), "nrCpus " + nrCpus);
            assertTrue(CpumaskConfig.quick().contains(new CpumaskConfig(nrCpus, MaskKind.ONLINE, "16")), "quick, nrCpus " + nrCpus);
        }
        CpumaskInputs in = CpumaskInputs.of(64, MaskKind.ONLINE, "16", CpuMask.parseList("0-1", 2), 2);
        assertEquals("0-15", in.mask().toList());
        assertEquals(16, in.range());
        assertEquals(16, in.nrCpuIds());
        int first = 0, n = 160_000;
        int[] seen = new int[16];
        long state = CpumaskInputs.SEED;
        for (int i = 0; i < n; i++) {
            state = CpumaskInputs.Xorshift.step(state);
            int cpu = in.draw(state);
            seen[cpu]++;
            if (cpu == in.mask().first()) first++;
        }
        double share = (double) first / n;
        assertTrue(share > 0.055 && share < 0.07, "the first CPU excluded in " + share + " of calls, not 1/16");
        for (int k : seen) assertTrue(k > 0, "every CPU of 0-15 drawn");
    }

    /** No row replays a short table of CPUs (a 1024-entry replay is a sequence the branch predictor learns). */
    @Test
    void everyRowDrawsItsCpuFromAGeneratorInTheLoopNotAReplayedTable() {
        for (java.lang.reflect.Field f : CpumaskBenchmark.class.getFields()) {
            org.openjdk.jmh.annotations.Param p = f.getAnnotation(org.openjdk.jmh.annotations.Param.class);
            if (p != null) assertFalse(List.of(p.value()).contains("precomputed"), f.getName() + " " + List.of(p.value()));
        }
        for (java.lang.reflect.Field f : CpumaskBenchmark.class.getDeclaredFields()) {
            assertFalse(f.getType() == int[].class, "the benchmark keeps no table of CPUs: " + f.getName());
        }
        assertEquals(List.of("nrCpus", "online", "mask"), List.copyOf(CpumaskConfig.all().getFirst().params().keySet()));
    }

    @Test
    void theOnlineParameterRefusesWhatIsNotACount() {
        CpuMask allowed = CpuMask.parseList("0-1", 2);
        assertThrows(IllegalArgumentException.class, () -> CpumaskInputs.of(64, MaskKind.ONLINE, "0", allowed, 2));
        assertThrows(IllegalArgumentException.class, () -> CpumaskInputs.of(64, MaskKind.ONLINE, "many", allowed, 2));
        assertEquals("0-63", CpumaskInputs.of(64, MaskKind.ONLINE, "100", allowed, 2).mask().toList(), "capped at NR_CPUS");
    }

    @Test
    void theCTwinsAnswerAsJavaForEveryMaskOfTenBitsAndEveryCpu() {
        assumeTrue(CpumaskTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpumaskTwins.unavailableReason().orElseThrow());
        for (int nrCpus : new int[]{64, 4096}) {
            for (int bits = 0; bits < 1 << 10; bits += 3) {
                CpuMask m = CpuMask.fromWords(nrCpus, new long[]{bits});
                for (int cpu = 0; cpu <= 10; cpu++) {
                    int java = m.firstBut(cpu);
                    for (CpumaskTwins.Layout l : CpumaskTwins.Layout.values()) {
                        assertEquals(java, CpumaskTwins.call(false, nrCpus, m, cpu, l), "C loop, NR_CPUS=" + nrCpus + ", mask " + m + ", cpu " + cpu + " " + l);
                        assertEquals(java, CpumaskTwins.call(true, nrCpus, m, cpu, l), "C first_but, NR_CPUS=" + nrCpus + ", mask " + m + ", cpu " + cpu + " " + l);
                    }
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

    /** The C batch draws the same CPUs as Java (same xorshift64*, same formula), at both layouts: the sums of the answers match. */
    @Test
    void theCBatchLooksUpTheSameCpusAsJava() {
        assumeTrue(CpumaskTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpumaskTwins.unavailableReason().orElseThrow());
        CpuMask allowed = CpuMask.parseList("0-1,5", 6);
        for (CpumaskConfig c : CpumaskConfig.all()) {
            CpumaskInputs in = CpumaskInputs.of(c.nrCpus(), c.mask(), c.online(), allowed, 6);
            int calls = 4096;
            long expected = 0;
            long state = CpumaskInputs.SEED;
            for (int n = 0; n < calls; n++) {
                state = CpumaskInputs.Xorshift.step(state);
                expected += in.mask().firstBut(in.draw(state));
            }
            for (CpumaskTwins.Layout l : CpumaskTwins.Layout.values()) {
                try (CpumaskTwins.Batch batch = new CpumaskTwins.Batch(c.nrCpus(), in.mask(), in.offset(), in.range(), in.nrCpuIds(),
                        CpumaskInputs.SEED, l)) {
                    batch.time(false, calls);
                    assertEquals(expected, batch.sink(), "any_but_loop " + c + " " + l);
                    batch.time(true, calls);
                    assertEquals(2 * expected, batch.sink(), "first_but " + c + " " + l);
                }
            }
        }
    }

    /** The two layouts are the same functions placed at two alignments: 64 and 32 bytes. */
    @Test
    void theCTwinsAreBuiltAtTwoAlignments() throws Exception {
        assumeTrue(CpumaskTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpumaskTwins.unavailableReason().orElseThrow());
        dev.corescope.sys.tool.ElfSymbolTable elf = dev.corescope.sys.tool.ElfSymbolTable.read(dev.corescope.sys.tool.NativeLibrary.file().orElseThrow());
        for (int nrCpus : new int[]{64, 4096}) {
            for (boolean firstBut : new boolean[]{false, true}) {
                long a64 = elf.function(CpumaskTwins.symbol(firstBut, nrCpus, CpumaskTwins.Layout.ALIGN64)).orElseThrow().value();
                long a32 = elf.function(CpumaskTwins.symbol(firstBut, nrCpus, CpumaskTwins.Layout.ALIGN32)).orElseThrow().value();
                assertEquals(0, a64 % 64, CpumaskTwins.symbol(firstBut, nrCpus, CpumaskTwins.Layout.ALIGN64));
                assertEquals(0, a32 % 32, CpumaskTwins.symbol(firstBut, nrCpus, CpumaskTwins.Layout.ALIGN32));
            }
        }
    }

    @Test
    void theBenchmarkUsesTheAllowedCpusOfThisThread() {
        CpumaskBenchmark b = new CpumaskBenchmark();
        b.nrCpus = 4096;
        b.mask = "online";
        b.online = "host";
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
}
