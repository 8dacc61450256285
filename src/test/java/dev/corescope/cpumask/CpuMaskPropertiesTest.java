package dev.corescope.cpumask;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CpuMask} against {@link BitSet} as the reference, on random sets at the sizes that
 * matter to the kernel: 1 bit, either side of one word (63, 64, 65), NR_CPUS 1024, 4096 and
 * 8192. Searches are also checked against the plain loop they replace, on every input CPU.
 */
class CpuMaskPropertiesTest {

    private static final int[] SIZES = {1, 63, 64, 65, 1024, 4096, 8192};

    /** A random set and the number of bits it lives in. */
    record Sample(int nbits, BitSet bits) {
        CpuMask mask() {
            return CpuMask.fromWords(nbits, bits.toLongArray());
        }

        @Override
        public String toString() {
            return "nbits=" + nbits + " " + mask().toList();
        }
    }

    record Pair(Sample a, Sample b) {
    }

    /** The reference's view of a mask: its set CPUs as a {@link BitSet}, read word by word. */
    private static BitSet bits(CpuMask m) {
        long[] words = new long[m.wordCount()];
        for (int i = 0; i < words.length; i++) words[i] = m.word(i);
        return BitSet.valueOf(words);
    }

    @Provide
    Arbitrary<Sample> masks() {
        return Arbitraries.of(box(SIZES)).flatMap(CpuMaskPropertiesTest::samples);
    }

    @Provide
    Arbitrary<Pair> sameSizePairs() {
        return Arbitraries.of(box(SIZES)).flatMap(n -> Combinators.combine(samples(n), samples(n)).as(Pair::new));
    }

    @Provide
    Arbitrary<Pair> anySizePairs() {
        return Combinators.combine(masks(), masks()).as(Pair::new);
    }

    /** Sparse, dense, runs, and the edges (empty, full, only the first or last bit). */
    private static Arbitrary<Sample> samples(int nbits) {
        Arbitrary<BitSet> sparse = Arbitraries.integers().between(0, nbits - 1).set().ofMaxSize(Math.min(nbits, 24))
                .map(s -> {
                    BitSet b = new BitSet(nbits);
                    s.forEach(b::set);
                    return b;
                });
        Arbitrary<BitSet> dense = Arbitraries.longs().array(long[].class).ofSize(CpuMask.wordsFor(nbits))
                .map(w -> {
                    BitSet b = BitSet.valueOf(w);
                    b.clear(nbits, Math.max(nbits, b.length()));
                    return b;
                });
        Arbitrary<BitSet> runs = Combinators.combine(
                        Arbitraries.integers().between(0, nbits - 1),
                        Arbitraries.integers().between(1, nbits))
                .as(Tuple::of).list().ofMaxSize(4)
                .map(list -> {
                    BitSet b = new BitSet(nbits);
                    list.forEach(t -> b.set(t.get1(), Math.min(nbits, t.get1() + t.get2())));
                    return b;
                });
        BitSet full = new BitSet(nbits);
        full.set(0, nbits);
        BitSet lastOnly = new BitSet(nbits);
        lastOnly.set(nbits - 1);
        BitSet firstOnly = new BitSet(nbits);
        firstOnly.set(0);
        Arbitrary<BitSet> edges = Arbitraries.of(new BitSet(), full, firstOnly, lastOnly).map(b -> (BitSet) b.clone());
        return Arbitraries.frequencyOf(
                Tuple.of(4, sparse), Tuple.of(3, dense), Tuple.of(3, runs), Tuple.of(1, edges))
                .map(b -> new Sample(nbits, b))
                // the edges above are chosen on purpose; jqwik's own would crowd out random sets
                .withoutEdgeCases();
    }

    // ---- single-mask queries -----------------------------------------------------------

    @Property(tries = 300)
    void weightTestAndEmptyMatchBitSet(@ForAll("masks") Sample s) {
        CpuMask m = s.mask();
        assertEquals(s.nbits(), m.nbits());
        assertEquals(s.bits().cardinality(), m.weight());
        assertEquals(s.bits().isEmpty(), m.isEmpty());
        for (int i = 0; i < s.nbits() + 70; i++) assertEquals(s.bits().get(i), m.test(i), "test(" + i + ")");
    }

    @Property(tries = 300)
    void firstNextLastAndNextZeroMatchBitSetForEveryStart(@ForAll("masks") Sample s) {
        CpuMask m = s.mask();
        int n = s.nbits();
        BitSet b = s.bits();
        assertEquals(orNbits(b.nextSetBit(0), n), m.first());
        assertEquals(b.isEmpty() ? n : b.length() - 1, m.last());
        for (int i = -1; i <= n; i++) {
            assertEquals(orNbits(i + 1 >= n ? -1 : b.nextSetBit(i + 1), n), m.next(i), "next(" + i + ")");
            assertEquals(i + 1 >= n ? n : Math.min(n, b.nextClearBit(i + 1)), m.nextZero(i), "nextZero(" + i + ")");
        }
    }

    @Property(tries = 300)
    void firstButAgreesWithAPlainLoopForEveryCpu(@ForAll("masks") Sample s) {
        CpuMask m = s.mask();
        int n = s.nbits();
        for (int cpu = 0; cpu <= n; cpu++) {
            int expected = plainAnyBut(s.bits(), n, cpu);
            assertEquals(expected, m.firstBut(cpu), "firstBut(" + cpu + ")");
        }
    }

    /** {@code for (i = 0; i < nbits; i++) if (test(i) && i != cpu) return i; return nbits;} */
    private static int plainAnyBut(BitSet bits, int nbits, int cpu) {
        for (int i = 0; i < nbits; i++) if (bits.get(i) && i != cpu) return i;
        return nbits;
    }

    @Property(tries = 300)
    void iterationVisitsTheSetCpusInOrder(@ForAll("masks") Sample s) {
        CpuMask m = s.mask();
        int[] expected = s.bits().stream().toArray();
        assertArrayEquals(expected, m.toArray());
        assertArrayEquals(expected, m.stream().toArray());
        List<Integer> viaForEach = new ArrayList<>();
        m.forEachCpu(viaForEach::add);
        List<Integer> viaIterator = new ArrayList<>();
        m.forEach(viaIterator::add);
        List<Integer> want = s.bits().stream().boxed().toList();
        assertEquals(want, viaForEach);
        assertEquals(want, viaIterator);
    }

    @Property(tries = 300)
    void wordsAndBitSetRoundTrip(@ForAll("masks") Sample s) {
        CpuMask m = s.mask();
        assertEquals(CpuMask.wordsFor(s.nbits()), m.wordCount());
        long[] words = Arrays.copyOf(s.bits().toLongArray(), m.wordCount());
        for (int i = 0; i < words.length + 2; i++) assertEquals(i < words.length ? words[i] : 0L, m.word(i));
        assertEquals(s.bits(), bits(m));
        assertEquals(m, CpuMask.fromWords(s.nbits(), words));
        long[] dirty = words.clone();
        dirty[dirty.length - 1] |= s.nbits() % 64 == 0 ? 0 : -1L << (s.nbits() % 64);
        assertEquals(m, CpuMask.fromWords(s.nbits(), dirty), "bits at or beyond nbits are dropped");
    }

    @Property(tries = 300)
    void builderSetClearAndSetRangeMatchBitSet(@ForAll("masks") Sample s, @ForAll("masks") Sample other) {
        int n = s.nbits();
        CpuMask.Builder b = s.mask().toBuilder();
        BitSet ref = (BitSet) s.bits().clone();
        other.bits().stream().filter(i -> i < n).forEach(i -> {
            if (ref.get(i)) {
                ref.clear(i);
                b.clear(i);
            } else {
                ref.set(i);
                b.set(i);
            }
        });
        assertEquals(ref, bits(b.build()));
        int from = other.mask().isEmpty() ? 0 : Math.min(other.mask().first(), n - 1);
        int to = Math.min(n - 1, from + other.bits().cardinality());
        b.setRange(from, to);
        ref.set(from, to + 1);
        assertEquals(ref, bits(b.build()));
        assertEquals(ref, bits(CpuMask.range(n, from, to).or(CpuMask.fromWords(n, ref.toLongArray()))));
        BitSet range = new BitSet();
        range.set(from, to + 1);
        assertEquals(range, bits(CpuMask.range(n, from, to)));
    }

    @Property(tries = 300)
    void withWithoutAndTheComplementMatchBitSet(@ForAll("masks") Sample s) {
        CpuMask m = s.mask();
        int n = s.nbits();
        int cpu = m.isEmpty() ? n / 2 : m.last();
        BitSet with = (BitSet) s.bits().clone();
        with.set(n - 1 - cpu);
        assertEquals(with, bits(m.with(n - 1 - cpu)));
        BitSet without = (BitSet) s.bits().clone();
        without.clear(cpu);
        assertEquals(without, bits(m.without(cpu)));
        BitSet flipped = (BitSet) s.bits().clone();
        flipped.flip(0, n);
        CpuMask complement = CpuMask.full(n).andNot(m);
        assertEquals(flipped, bits(complement));
        assertEquals(m, CpuMask.full(n).andNot(complement));
        assertEquals(CpuMask.full(n), m.or(complement));
    }

    // ---- two masks ---------------------------------------------------------------------

    @Property(tries = 300)
    void binaryOperationsMatchBitSet(@ForAll("sameSizePairs") Pair p) {
        checkBinary(p);
    }

    @Property(tries = 300)
    void binaryOperationsMatchBitSetAcrossSizesKeepingTheLeftSize(@ForAll("anySizePairs") Pair p) {
        checkBinary(p);
    }

    private static void checkBinary(Pair p) {
        CpuMask a = p.a().mask();
        CpuMask b = p.b().mask();
        BitSet ra = p.a().bits();
        BitSet rb = p.b().bits();
        int n = p.a().nbits();

        BitSet and = (BitSet) ra.clone();
        and.and(rb);
        BitSet or = (BitSet) ra.clone();
        or.or(rb);
        or.clear(n, Math.max(n, or.length()));
        BitSet andNot = (BitSet) ra.clone();
        andNot.andNot(rb);
        BitSet xor = (BitSet) ra.clone();
        xor.xor(rb);
        xor.clear(n, Math.max(n, xor.length()));

        assertEquals(and, bits(a.and(b)), "and");
        assertEquals(or, bits(a.or(b)), "or");
        assertEquals(andNot, bits(a.andNot(b)), "andNot");
        assertEquals(xor, bits(a.xor(b)), "xor");
        for (CpuMask r : List.of(a.and(b), a.or(b), a.andNot(b), a.xor(b))) assertEquals(n, r.nbits());

        assertEquals(ra.intersects(rb), a.intersects(b), "intersects");
        BitSet outside = (BitSet) ra.clone();
        outside.andNot(rb);
        assertEquals(outside.isEmpty(), a.isSubsetOf(b), "isSubsetOf");
        assertEquals(ra.equals(rb), a.sameCpus(b), "sameCpus");
        assertEquals(ra.equals(rb) && p.a().nbits() == p.b().nbits(), a.equals(b), "equals");
        if (a.equals(b)) assertEquals(a.hashCode(), b.hashCode());
        assertTrue(a.and(b).isSubsetOf(a));
        assertTrue(a.isSubsetOf(a.or(b)));
        assertFalse(a.andNot(b).intersects(b));
    }

    @Property(tries = 200)
    void resizeKeepsTheCpusBelowTheNewSize(@ForAll("anySizePairs") Pair p) {
        CpuMask resized = p.a().mask().resize(p.b().nbits());
        BitSet ref = (BitSet) p.a().bits().clone();
        ref.clear(p.b().nbits(), Math.max(p.b().nbits(), ref.length()));
        assertEquals(p.b().nbits(), resized.nbits());
        assertEquals(ref, bits(resized));
    }

    // ---- text forms --------------------------------------------------------------------

    @Property(tries = 300)
    void toListIsTheCanonicalCpulistAndParsesBack(@ForAll("masks") Sample s) {
        CpuMask m = s.mask();
        assertEquals(referenceList(s.bits()), m.toList());
        assertEquals(m, CpuMask.parseList(m.toList(), s.nbits()));
        assertEquals(m.toList(), m.toString());
    }

    @Property(tries = 300)
    void toHexIsTheKernelCpumapAndParsesBack(@ForAll("masks") Sample s) {
        CpuMask m = s.mask();
        assertEquals(referenceHex(s.bits(), s.nbits()), m.toHex());
        assertEquals(m, CpuMask.parseHex(m.toHex(), s.nbits()));
        assertEquals((s.nbits() + 31) / 32, CpuListParser.hexChunks(m.toHex()));
    }

    /** Runs of set bits, written out one bit at a time: {@code 0-3,8}. */
    private static String referenceList(BitSet b) {
        StringBuilder sb = new StringBuilder();
        int i = b.nextSetBit(0);
        while (i >= 0) {
            int j = i;
            while (b.get(j + 1)) j++;
            if (!sb.isEmpty()) sb.append(',');
            sb.append(i);
            if (j > i) sb.append('-').append(j);
            i = b.nextSetBit(j + 1);
        }
        return sb.toString();
    }

    /** 32-bit chunks, most significant first, the top one only as wide as its bits need. */
    private static String referenceHex(BitSet b, int nbits) {
        List<String> chunks = new ArrayList<>();
        for (int lo = 0; lo < nbits; lo += 32) {
            long v = 0;
            for (int i = 0; i < 32 && lo + i < nbits; i++) if (b.get(lo + i)) v |= 1L << i;
            int width = lo + 32 <= nbits ? 8 : (nbits - lo + 3) / 4;
            chunks.add(0, String.format("%0" + width + "x", v));
        }
        return String.join(",", chunks);
    }

    private static int orNbits(int i, int nbits) {
        return i < 0 ? nbits : i;
    }

    private static Integer[] box(int[] a) {
        Integer[] out = new Integer[a.length];
        for (int i = 0; i < a.length; i++) out[i] = a[i];
        return out;
    }
}
