package dev.corescope.cli;

import dev.corescope.bench.Families;
import dev.corescope.report.HtmlReport;
import dev.corescope.report.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code report RESULTS.json... -o FILE.html}: one self-contained page from results files. */
@Command(name = "report",
        mixinStandardHelpOptions = true,
        description = {
                "Writes one self-contained HTML page from one or more results files.",
                "Inline CSS and SVG only (no script, nothing fetched), so it can be attached",
                "to a bug report; a Content-Security-Policy forbids every script, and the",
                "pictures a results file holds are rebuilt from an allow-list of drawing",
                "elements, so a hostile file cannot run code in the page.",
                "For each file: its warnings, the topology picture of the",
                "machine it was measured on, the environment, a table per family, the",
                "latency histograms as bar charts, the core-to-core heatmap, the memory",
                "layouts and the perf_event_open counters. With exactly two files, the",
                "compare table of the first (before) and the second (after) comes first.",
                "",
                "Examples:",
                "  ./run.sh report corescope-results.json -o corescope-report.html",
                "  ./run.sh report before.json after.json -o change.html"})
final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RESULTS.json", description = "results files (bench -o, bench --format json, the tour)")
    List<Path> files;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE.html", description = "the page to write (whole or not at all)")
    Path output;

    @Override
    public Integer call() throws IOException {
        OutputFile file = OutputFile.check(output, "-o", files);
        List<HtmlReport.Input> inputs = files.stream()
                .map(f -> new HtmlReport.Input(f.toString(), Json.readResultsChecked(f)))
                .toList();
        String html = HtmlReport.page(inputs, Families.views(), Instant.now());
        try {
            file.write(html);
        } catch (IOException e) {
            throw file.cannotWrite(e);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("report written to " + output + " (" + html.getBytes(StandardCharsets.UTF_8).length / 1024
                + " KiB, " + inputs.size() + (inputs.size() == 1 ? " results file" : " results files") + "); open it in a browser");
        out.flush();
        return Main.EXIT_OK;
    }
}
