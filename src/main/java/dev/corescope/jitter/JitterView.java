package dev.corescope.jitter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.report.FamilyViews;
import dev.corescope.report.Json;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.ResultsFile;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * The jitter run's part of a results file ({@code jitter}), viewed as a family views its model
 * ({@code bench.BenchFamily}): {@code report} holds the part as JSON and knows nothing of it;
 * this reads it, draws it (its document and chart) and gives the machine fact the comparison of
 * two machines uses (the quantiles over CPUs).
 */
public final class JitterView {

    private JitterView() {
    }

    /** The run as the results file's {@code jitter} part. */
    public static JsonNode json(JitterReport run) {
        return Json.MAPPER.valueToTree(run);
    }

    /** The jitter run {@code file} holds, if any. */
    public static Optional<JitterReport> report(ResultsFile file) {
        if (file.jitter() == null || file.jitter().isNull()) return Optional.empty();
        try {
            return Optional.of(Json.MAPPER.treeToValue(file.jitter(), JitterReport.class));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Its view for the page: the document {@code jitter} prints and the chart. */
    public static Optional<FamilyViews.View> of(ResultsFile file) {
        return report(file).map(j -> new FamilyViews.View("jitter", List.of(JitterHtml.chart(j)), JitterText.document(j)));
    }

    /** The quantiles over its CPUs of the longest gap and the interruption rate; null without a run (or a CPU). */
    public static MachineSummary.JitterQuantiles quantiles(ResultsFile file) {
        return report(file).filter(j -> !j.rows().isEmpty()).map(j -> MachineSummary.JitterQuantiles.of(
                j.rows().stream().mapToDouble(CpuJitter::maxNs).toArray(),
                j.rows().stream().mapToDouble(CpuJitter::interruptionsPerSecond).toArray())).orElse(null);
    }
}
