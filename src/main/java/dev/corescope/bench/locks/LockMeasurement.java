package dev.corescope.bench.locks;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One figure of the uncontended list: a {@link Line} measured one way (Java through JMH, or the C
 * twin's loop), per element, in ns and in TSC cycles.
 *
 * @param line            which line of the list
 * @param implementation  {@code java} or {@code native}
 * @param ns              mean ns per element
 * @param nsError         half-width of the 99.9% confidence interval (NaN when unknown)
 * @param samples         how many iterations or batches the mean comes from
 * @param cycles          mean TSC cycles per element (NaN when the rate is unknown)
 * @param cyclesError     its half-width (NaN when unknown)
 * @param cyclesFrom      how the cycles were obtained
 * @param migrated        batches that ended on another CPU than they started (native only)
 */
record LockMeasurement(Line line, String implementation, double ns, double nsError, long samples,
                       double cycles, double cyclesError, CyclesFrom cyclesFrom, int migrated) {

    enum CyclesFrom {
        /** rdtsc before and after the C loop: what time_bench does. */
        RDTSC("rdtsc"),
        /** ns times the TSC rate: Java cannot read the TSC without a downcall dearer than the read. */
        TSC_RATE("ns x TSC rate"),
        NONE("none");

        final String text;

        CyclesFrom(String text) {
            this.text = text;
        }
    }

    Variant variant() {
        return line.variant();
    }

    /** The line's params, and {@code migrated} when batches ran off their CPU. */
    Map<String, Object> params() {
        Map<String, Object> p = line.params(implementation);
        if (migrated == 0) return p;
        Map<String, Object> out = new LinkedHashMap<>(p);
        out.put("migrated", migrated);
        return out;
    }
}
