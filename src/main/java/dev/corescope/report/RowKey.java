package dev.corescope.report;

import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What identifies a row of a results file, the one recipe for it: benchmark, variant,
 * implementation, metric and params (values compared as text, so {@code 64} read back as a
 * long is the {@code 64} written as an int). No two rows of a file share a key
 * ({@link RowIdentity}); {@code compare} matches rows across files on it; text tables print
 * {@link #label()} on every line of a row.
 */
public record RowKey(String benchmark, String variant, String implementation, String metric, Map<String, String> params)
        implements Comparable<RowKey> {

    public RowKey {
        Objects.requireNonNull(benchmark, "benchmark");
        params = Params.sortedText(params);
    }

    public static RowKey of(Result r) {
        return new RowKey(r.benchmark(), r.variant(), r.implementation(), r.metric(), Params.sortedText(r.params()));
    }

    /** {@code nrCpus=64 workload=cpupri}, names sorted; {@code ""} without params. */
    public String paramsText() {
        return params.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }

    /** {@code cpumask first_but java op nrCpus=64}: the key as a person reads it, on one line. */
    public String label() {
        String p = paramsText();
        return String.join(" ", benchmark, String.valueOf(variant), String.valueOf(implementation), String.valueOf(metric))
                + (p.isEmpty() ? "" : " " + p);
    }

    /** The same row without its implementation: Java and C of one measurement share it. */
    public RowKey withoutImplementation() {
        return new RowKey(benchmark, variant, null, metric, params);
    }

    @Override
    public int compareTo(RowKey o) {
        return label().compareTo(o.label());
    }

    @Override
    public String toString() {
        return label();
    }
}
