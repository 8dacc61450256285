package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.report.MachineCodeText;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.ResultsText;
import dev.corescope.report.SeedVerdicts;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one composer of a run's full text, for {@code bench} (a live run) and
 * {@code report --format text} (a saved one) alike: the verdicts, then each family with its
 * own view of the file's model (or its rows where the file holds no model) and its machine
 * code, then the counters, the failures and the environment. The tour prints a summary instead
 * ({@link TourText}).
 */
final class RunText {

    private RunText() {
    }

    /**
     * @param only a family name to show alone (no verdicts, counters or failures then), or null
     * @param path where the file was read from, so a family part it cannot render is bad input naming it; null for a live run
     * @param live the text each family printed in this process, for a family whose view of the file is empty
     */
    static String of(ResultsFile file, List<BenchFamily> families, String only, Path path, Map<String, String> live, int width) {
        StringBuilder sb = new StringBuilder();
        if (only == null) {
            List<SeedVerdicts.Verdict> verdicts = file.claims().isEmpty() ? SeedVerdicts.of(file, Families.claims(families), Families.allowances(families))
                    : SeedVerdicts.of(file);
            sb.append(SeedVerdicts.text(verdicts, width));
        }
        boolean any = false;
        for (BenchFamily f : families) {
            if (only != null && !f.name().equals(only)) continue;
            List<Result> rows = file.results().stream().filter(r -> r.benchmark().equals(f.name())).toList();
            Optional<String> own = FileViews.render(path, file, f.name(), () -> {
                Optional<dev.corescope.text.TextDoc> doc = f.document(file);
                return doc.isPresent() ? doc.map(d -> d.render(width)) : f.text(file);
            });
            if (own.isEmpty() && live.containsKey(f.name())) own = Optional.of(live.get(f.name()));
            if (rows.isEmpty() && own.isEmpty()) continue;
            if (any) sb.append('\n');
            any = true;
            sb.append("== ").append(f.name()).append(": ").append(f.summary()).append('\n');
            String body = own.orElseGet(() -> ResultsText.summary(rows));
            sb.append(body);
            if (!body.endsWith("\n")) sb.append('\n');
            String code = MachineCodeText.of(file.code(), f.name());
            if (!code.isEmpty()) sb.append('\n').append(code);
        }
        if (!any) sb.append(only == null ? "No results.\n" : "No results of " + only + " in this file.\n");
        if (only == null) {
            String c = ResultsText.counters(file.counters());
            if (!c.isEmpty()) sb.append('\n').append(c);
            String failed = ResultsText.failures(file.failures());
            if (!failed.isEmpty()) sb.append('\n').append(failed);
        }
        // the machine and the run, also under one family: no figure without its machine
        if (file.environment() != null) sb.append('\n').append(ResultsText.environment(file.environment()));
        return sb.toString();
    }
}
