package dev.corescope.bench.cpupri;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_NORMAL;
import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_NR_PRIORITIES;
import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_RT99;

/**
 * {@code struct cpupri} on the Java heap: an array of 101 {@link HeapVecs} objects (or
 * {@link ContendedVec}s), each with its own {@code long[]} mask, and an {@code int[] cpu_to_pri}.
 * The same algorithm as {@link OffHeapCpupri}; only where the fields sit differs, and here the
 * JVM decides that: the objects are allocated one after another in a TLAB, so neighbouring
 * objects usually share lines, and a GC may move them.
 *
 * <p>One subclass per shape, each with its own {@code static final} VarHandles, so that in a
 * forked JMH run the calls below are monomorphic and inlined.
 */
abstract sealed class HeapCpupri implements CpupriStruct {

    private static final VarHandle WORD = MethodHandles.arrayElementVarHandle(long[].class);

    private final int words;
    private final int[] cpuToPri;
    private final long[] taskMask;

    HeapCpupri(int nrCpuIds, int[] writers, int[] task) {
        this.words = (nrCpuIds + 63) / 64;
        this.cpuToPri = new int[nrCpuIds];
        Arrays.fill(cpuToPri, -1);
        this.taskMask = new long[words];
        for (int cpu : task) taskMask[cpu >>> 6] |= 1L << cpu;
    }

    /** The three heap shapes by CONTRACT-style variant name. */
    static HeapCpupri create(String variant, int nrCpuIds, int[] writers, int[] task, Rt rt) {
        HeapCpupri h = switch (variant) {
            case "heap_packed" -> new OfPacked(nrCpuIds, writers, task);
            case "heap_padded" -> new OfPadded(nrCpuIds, writers, task);
            case "heap_contended" -> new OfContended(nrCpuIds, writers, task);
            default -> throw new IllegalArgumentException("no heap variant " + variant);
        };
        h.init(writers, task, rt);
        return h;
    }

    /** Every CPU of the run enters cpupri, as {@code rq_online_rt()} puts every online CPU in it. */
    private void init(int[] writers, int[] task, Rt rt) {
        for (int cpu : Rt.cpusOfTheRun(writers, task)) {
            int pri = rt.startPriority(cpu, writers);
            setBit(pri, cpu);
            addCount(pri, 1);
            cpuToPri[cpu] = pri;
        }
    }

    abstract int countOpaque(int p);

    abstract void addCount(int p, int delta);

    abstract long[] maskOpaque(int p);

    abstract long[] mask(int p);

    @Override
    public long readMask() {
        return maskOpaque(MECHANISM_PRIORITY) != null ? 1 : 0;
    }

    @Override
    public void incDec() {
        addCount(MECHANISM_PRIORITY, 1);
        addCount(MECHANISM_PRIORITY, -1);
    }

    @Override
    public int find(long[] lowestMask) {
        for (int idx = 0; idx < TASK_PRIORITY; idx++) {
            int count = countOpaque(idx);
            VarHandle.loadLoadFence();
            if (count == 0) continue;
            long[] mask = maskOpaque(idx);
            long any = 0;
            for (int w = 0; w < words; w++) {
                long bits = (long) WORD.getOpaque(mask, w) & taskMask[w];
                lowestMask[w] = bits;
                any |= bits;
            }
            if (any != 0) return idx;
        }
        return -1;
    }

    @Override
    public void toggle(int cpu) {
        int oldpri = cpuToPri[cpu];
        int newpri = oldpri == CPUPRI_NORMAL ? CPUPRI_RT99 : CPUPRI_NORMAL;
        setBit(newpri, cpu);
        addCount(newpri, 1);
        addCount(oldpri, -1);
        clearBit(oldpri, cpu);
        cpuToPri[cpu] = newpri;
    }

    private void setBit(int pri, int cpu) {
        WORD.getAndBitwiseOr(mask(pri), cpu >>> 6, 1L << cpu);
    }

    private void clearBit(int pri, int cpu) {
        WORD.getAndBitwiseAnd(mask(pri), cpu >>> 6, ~(1L << cpu));
    }

    int count(int p) {
        return countOpaque(p);
    }

    @Override
    public int maskWords() {
        return words;
    }

    @Override
    public void close() {
    }

    static final class OfPacked extends HeapCpupri {
        private static final VarHandle COUNT = field(HeapVecs.Packed.class, "count", int.class);
        private static final VarHandle MASK = field(HeapVecs.Packed.class, "mask", long[].class);
        private final HeapVecs.Packed[] vecs = new HeapVecs.Packed[CPUPRI_NR_PRIORITIES];

        OfPacked(int nrCpuIds, int[] writers, int[] task) {
            super(nrCpuIds, writers, task);
            for (int p = 0; p < vecs.length; p++) {
                vecs[p] = new HeapVecs.Packed();
                vecs[p].mask = new long[maskWords()];
            }
        }

        @Override
        int countOpaque(int p) {
            return (int) COUNT.getOpaque(vecs[p]);
        }

        @Override
        void addCount(int p, int delta) {
            COUNT.getAndAdd(vecs[p], delta);
        }

        @Override
        long[] maskOpaque(int p) {
            return (long[]) MASK.getOpaque(vecs[p]);
        }

        @Override
        long[] mask(int p) {
            return vecs[p].mask;
        }
    }

    static final class OfPadded extends HeapCpupri {
        private static final VarHandle COUNT = field(HeapVecs.PaddedCount.class, "count", int.class);
        private static final VarHandle MASK = field(HeapVecs.PaddedMaskField.class, "mask", long[].class);
        private final HeapVecs.PaddedMask[] vecs = new HeapVecs.PaddedMask[CPUPRI_NR_PRIORITIES];

        OfPadded(int nrCpuIds, int[] writers, int[] task) {
            super(nrCpuIds, writers, task);
            for (int p = 0; p < vecs.length; p++) {
                vecs[p] = new HeapVecs.PaddedMask();
                vecs[p].mask = new long[maskWords()];
            }
        }

        @Override
        int countOpaque(int p) {
            return (int) COUNT.getOpaque((HeapVecs.PaddedCount) vecs[p]);
        }

        @Override
        void addCount(int p, int delta) {
            COUNT.getAndAdd((HeapVecs.PaddedCount) vecs[p], delta);
        }

        @Override
        long[] maskOpaque(int p) {
            return (long[]) MASK.getOpaque((HeapVecs.PaddedMaskField) vecs[p]);
        }

        @Override
        long[] mask(int p) {
            return vecs[p].mask;
        }
    }

    static final class OfContended extends HeapCpupri {
        private static final VarHandle COUNT = field(ContendedVec.class, "count", int.class);
        private static final VarHandle MASK = field(ContendedVec.class, "mask", long[].class);
        private final ContendedVec[] vecs = new ContendedVec[CPUPRI_NR_PRIORITIES];

        OfContended(int nrCpuIds, int[] writers, int[] task) {
            super(nrCpuIds, writers, task);
            for (int p = 0; p < vecs.length; p++) {
                vecs[p] = new ContendedVec();
                vecs[p].mask = new long[maskWords()];
            }
        }

        @Override
        int countOpaque(int p) {
            return (int) COUNT.getOpaque(vecs[p]);
        }

        @Override
        void addCount(int p, int delta) {
            COUNT.getAndAdd(vecs[p], delta);
        }

        @Override
        long[] maskOpaque(int p) {
            return (long[]) MASK.getOpaque(vecs[p]);
        }

        @Override
        long[] mask(int p) {
            return vecs[p].mask;
        }
    }

    private static VarHandle field(Class<?> owner, String name, Class<?> type) {
        try {
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
