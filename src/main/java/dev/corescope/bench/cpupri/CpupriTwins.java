package dev.corescope.bench.cpupri;

import dev.corescope.sys.NativeException;
import dev.corescope.sys.TwinLinker;
import dev.corescope.sys.internal.NativeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The C twin of {@code bench cpupri} ({@code native/src/cpupri.c}): the same {@code struct cpupri}
 * at the offsets the Java side computed, with a reader and as many writer threads as the Java
 * run has, each pinned inside C to its own CPU.
 */
public final class CpupriTwins {

    /**
     * ns/op per sample for each side (the writers': their mean), the counts a reader's find read on average in each
     * sample (all zero for the mechanism workload), and the smallest share of each sample a thread was on its CPU.
     */
    public record Samples(double[] readerNs, double[] writerNs, double[] countsPerFind, double[] ran) {

        /** The share of a sample every thread must have run for it to time contention (not a thread alone). */
        public static final double RAN_FLOOR = 0.9;

        /** The samples in which every thread ran for at least {@link #RAN_FLOOR} of the time. */
        public Samples concurrent() {
            int[] keep = IntStream.range(0, ran.length).filter(i -> ran[i] >= RAN_FLOOR).toArray();
            return new Samples(pick(readerNs, keep), pick(writerNs, keep), pick(countsPerFind, keep), pick(ran, keep));
        }

        private static double[] pick(double[] v, int[] at) {
            return Arrays.stream(at).mapToDouble(i -> v[i]).toArray();
        }
    }

    private static final int NAME_BYTES = 64;

    private CpupriTwins() {
    }

    /** Why the twin cannot run, or empty. */
    public static Optional<String> unavailableReason() {
        return Optional.ofNullable(Holder.REASON);
    }

    /** {@link #run(boolean, boolean, int[], long[], long[], long, int, int, int, int, int, int)} with one writer. */
    public static Samples run(boolean mechanism, boolean rtAll, int readerCpu, int writerCpu, long[] countOffsets,
                              long[] maskOffsets, long structBytes, int lineSize, int nrCpuIds, int warmupSamples,
                              int warmupMillis, int samples, int sampleMillis) {
        return run(mechanism, rtAll, new int[]{readerCpu, writerCpu}, countOffsets, maskOffsets, structBytes, lineSize, nrCpuIds,
                warmupSamples, warmupMillis, samples, sampleMillis);
    }

    /**
     * {@code cs_cpupri_run}: one reader and {@code cpus.length - 1} writers.
     *
     * @param mechanism     true: atomic inc/dec of count[99] vs a load of mask[99];
     *                      false: cpupri_set() vs cpupri_find()
     * @param rtAll         false: the reader's CPU starts at CPUPRI_NORMAL, as an idle CPU sits in
     *                      cpupri; true: at RT99 ("every CPU runs RT", the full scan)
     * @param cpus          the reader's CPU, then each writer's (all distinct, at least one writer)
     * @param countOffsets  byte offset of each priority's count in the struct (101 entries)
     * @param maskOffsets   byte offset of each priority's mask pointer
     * @param warmupSamples samples of {@code warmupMillis} run first and thrown away
     * @return per sample the reader's ns/op and the writers' mean ns/op
     * @throws NativeException naming the failed call and its errno
     */
    public static Samples run(boolean mechanism, boolean rtAll, int[] cpus, long[] countOffsets, long[] maskOffsets,
                              long structBytes, int lineSize, int nrCpuIds, int warmupSamples, int warmupMillis, int samples,
                              int sampleMillis) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment threads = arena.allocateFrom(ValueLayout.JAVA_INT, cpus);
            MemorySegment counts = arena.allocateFrom(ValueLayout.JAVA_LONG, countOffsets);
            MemorySegment masks = arena.allocateFrom(ValueLayout.JAVA_LONG, maskOffsets);
            MemorySegment reader = arena.allocate(ValueLayout.JAVA_DOUBLE, samples);
            MemorySegment writer = arena.allocate(ValueLayout.JAVA_DOUBLE, samples);
            MemorySegment scanned = arena.allocate(ValueLayout.JAVA_DOUBLE, samples);
            MemorySegment ran = arena.allocate(ValueLayout.JAVA_DOUBLE, samples);
            MemorySegment failed = arena.allocate(NAME_BYTES);
            int rc = (int) TwinLinker.linked(Holder.RUN, Holder.REASON).invokeExact(mechanism ? 0 : 1, rtAll ? 1 : 0,
                    threads, cpus.length - 1, counts, masks, structBytes, lineSize, nrCpuIds, warmupSamples, warmupMillis,
                    samples, sampleMillis, reader, writer, scanned, ran, failed, NAME_BYTES);
            if (rc != 0) {
                throw new NativeException(failed.getString(0), "reader=" + (cpus.length > 0 ? cpus[0] : -1) + ", writers="
                        + Arrays.toString(Arrays.copyOfRange(cpus, Math.min(1, cpus.length), cpus.length)), rc);
            }
            return new Samples(reader.toArray(ValueLayout.JAVA_DOUBLE), writer.toArray(ValueLayout.JAVA_DOUBLE),
                    scanned.toArray(ValueLayout.JAVA_DOUBLE), ran.toArray(ValueLayout.JAVA_DOUBLE));
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    private static final class Holder {
        private static final TwinLinker LINKER = new TwinLinker();
        static final MethodHandle RUN = LINKER.downcall("cs_cpupri_run", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        static final String REASON = LINKER.failure();
    }
}
