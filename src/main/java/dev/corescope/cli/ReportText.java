package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.jitter.JitterReport;
import dev.corescope.jitter.JitterText;
import dev.corescope.jitter.JitterView;
import dev.corescope.report.MachineCodeText;
import dev.corescope.report.Pointers;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.ResultsText;
import dev.corescope.report.SeedVerdicts;
import dev.corescope.report.VerdictsText;
import dev.corescope.text.TextDoc;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The one composer of a run's full text, for {@code bench} (a live run) and
 * {@code report --format text} (a saved one) alike: the verdicts, then each family with its
 * own view of the file's model (or its rows where the file holds no model) and its machine
 * code, then the counters, the failures and the environment. The tour prints a summary instead
 * ({@link TourText}).
 */
final class ReportText {

    private ReportText() {
    }

    /**
     * Writes the text to {@code out} as it is laid out (a family's table line by line); the caller checks {@code out} for errors.
     *
     * @param only    a family name to show alone (its verdicts only, no counters or failures then), or null
     * @param path    where the file was read from, so a family part it cannot render is bad input naming it; null for a live run
     * @param explain each claim's reasoning in full
     */
    static void write(PrintWriter out, ResultsFile file, List<BenchFamily> families, String only, Path path, int width, boolean explain) {
        // the verdicts first, with the legend of their words: of every family, or of the one shown
        List<SeedVerdicts.Verdict> verdicts = SeedVerdicts.recorded(file, Families.claims(families), Families.allowances(families));
        String v = VerdictsText.text(verdicts.stream().filter(x -> only == null || x.family().equals(only)).toList(), width, explain);
        if (!v.isEmpty()) out.append(v).append('\n');
        boolean any = false;
        for (BenchFamily f : families) {
            if (only != null && !f.name().equals(only)) continue;
            List<Result> rows = file.results().stream().filter(r -> r.benchmark().equals(f.name())).toList();
            Optional<TextDoc> own = FileViews.render(path, file, f.name(), () -> f.document(file));
            own.ifPresent(d -> Pointers.disagreementNote(file, f.name()).ifPresent(n -> d.notes(List.of(n))));
            // a family without a document (a test's, an extension's) may still give its text
            Optional<String> liveText = own.isEmpty() ? FileViews.render(path, file, f.name(), () -> f.text(file)) : Optional.empty();
            if (rows.isEmpty() && own.isEmpty() && liveText.isEmpty()) continue;
            if (any) out.append('\n');
            any = true;
            boolean titled = own.isPresent() && !own.get().parts().isEmpty()
                    && own.get().parts().getFirst() instanceof TextDoc.Heading h && h.level() == 1;
            TextDoc d = titled ? new TextDoc() : new TextDoc().title(f.name() + ": " + f.summary());
            if (own.isPresent()) d.add(own.get());
            else if (liveText.isEmpty()) d.add(ResultsText.summaryDocument(f.name(), rows));
            d.render(out, width);
            liveText.ifPresent(t -> out.append(t).append(t.endsWith("\n") ? "" : "\n"));
            TextDoc code = MachineCodeText.document(file.code(), f.name());
            if (!code.isEmpty()) code.render(out.append('\n'), width);
        }
        Optional<JitterReport> jitter = only == null ? FileViews.render(path, file, "jitter", () -> JitterView.report(file)) : Optional.empty();
        if (jitter.isPresent()) {
            if (any) out.append('\n');
            any = true;
            JitterText.document(jitter.get()).render(out, width);
        }
        if (!any) out.append(only == null ? "No results.\n" : "No results of " + only + " in this file.\n");
        if (only == null) {
            TextDoc c = ResultsText.countersDocument(file.counters());
            if (!c.isEmpty()) c.render(out.append('\n'), width);
            if (!file.failures().isEmpty()) {
                new TextDoc().heading("FAILED:").notes("  ", "", file.failures().stream()
                        .map(f -> f.benchmark() + ": " + f.reason()).toList()).render(out.append('\n'), width);
            }
        }
        // the machine and the run, also under one family: no figure without its machine
        if (file.environment() != null) ResultsText.environmentDocument(file.environment()).render(out.append('\n'), width);
        out.flush();
    }
}
