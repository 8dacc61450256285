package dev.corescope.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JMH's own {@code -rf json} output read as results rows, so {@code compare} takes what
 * {@code ./run.sh jmh ... -rf json} wrote: one row per benchmark method and params, with
 * JMH's per-fork iterations ({@code primaryMetric.rawData}) as the row's runs.
 * {@code benchmark} is the class's simple name, {@code variant} the method, {@code metric}
 * the mode ({@code avgt}, {@code thrpt}, ...), {@code implementation} {@code java}.
 */
final class JmhJson {

    private JmhJson() {
    }

    /** The rows of a JMH result array; a field missing or of the wrong kind is bad input naming its index. */
    static ResultsFile read(Path file, JsonNode array) {
        List<Result> rows = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            JsonNode b = array.get(i);
            String at = "[" + i + "]";
            String name = text(file, b, "benchmark", at);
            JsonNode metric = b.get("primaryMetric");
            if (metric == null || !metric.isObject()) throw new BadResultsFileException(file, at + " has no primaryMetric; not JMH's -rf json output");
            int dot = name.lastIndexOf('.');
            String method = name.substring(dot + 1);
            String cls = dot < 0 ? "jmh" : name.substring(name.lastIndexOf('.', dot - 1) + 1, dot);
            Map<String, Object> params = new LinkedHashMap<>();
            JsonNode p = b.get("params");
            if (p != null && p.isObject()) p.properties().forEach(e -> params.put(e.getKey(), e.getValue().asText()));
            List<RunFigures> runs = new ArrayList<>();
            long samples = 0;
            JsonNode raw = metric.get("rawData");
            if (raw != null && raw.isArray()) {
                for (JsonNode fork : raw) {
                    double[] x = new double[fork.size()];
                    for (int j = 0; j < x.length; j++) x[j] = fork.get(j).asDouble();
                    if (x.length == 0) continue;
                    var s = new DescriptiveStatistics(x);
                    runs.add(new RunFigures(s.getMean(), x.length, x.length > 1 ? s.getStandardDeviation() : null));
                    samples += x.length;
                }
            }
            JsonNode score = metric.get("score");
            if (score == null || !score.isNumber()) throw new BadResultsFileException(file, at + ".primaryMetric has no numeric score");
            JsonNode err = metric.get("scoreError");
            Double error = err != null && err.isNumber() && Double.isFinite(err.asDouble()) ? err.asDouble() : null;
            rows.add(Result.builder().benchmark(cls).variant(method).implementation("java").metric(text(file, b, "mode", at)).unit(text(file, metric, "scoreUnit", at + ".primaryMetric"))
                    .score(score.asDouble()).error(error).samples(Math.max(1, samples)).cpus("").params(params).runs(runs).build());
        }
        return ResultsFile.builder().results(rows).build();
    }

    private static String text(Path file, JsonNode node, String field, String at) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) throw new BadResultsFileException(file, at + " has no \"" + field + "\"; not JMH's -rf json output");
        return v.asText();
    }
}
