package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.report.HtmlReport;
import dev.corescope.report.Json;
import dev.corescope.report.MachineCodeText;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.SeedVerdicts;
import dev.corescope.report.VerdictsSvg;
import dev.corescope.sys.internal.AtomicFile;
import dev.corescope.report.VerdictsText;
import dev.corescope.text.Width;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedWriter;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code report RESULTS.json... -o FILE.html}: one self-contained page from results files;
 * {@code --format text} prints what {@code bench} printed, from the saved file.
 */
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
                "--format text prints the verdicts (each seed's claims tested against the",
                "file: supports, contradicts, inconclusive, ... docs/verdicts.md), then each",
                "family's report from the file (the family's own tables where the file holds",
                "its model, else its rows), the machine code, counters, failures and",
                "environment; --family limits it to one family, its machine code and the",
                "environment; --verdicts prints the verdicts alone.",
                "",
                "Examples:",
                "  ./run.sh report corescope-results.json -o corescope-report.html",
                "  ./run.sh report before.json after.json -o change.html",
                "  ./run.sh report corescope-results.json --format text --family cpumask",
                "  ./run.sh report corescope-results.json --format text --verdicts",
                "  ./run.sh report corescope-results.json --format svg > verdicts.svg"})
final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RESULTS.json", description = "results files (bench -o, bench --format json, the tour)")
    List<Path> files;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE.html", description = "the page to write (whole or not at all); with --format text, where the text goes instead of stdout")
    Path output;

    @Option(names = "--format", paramLabel = "html|text|svg", description = "html (the page, the default), text (what bench printed) "
            + "or svg (the verdicts as a forest plot: each claim's measured effect and interval against the claimed size; --family: one seed)",
            converter = OutputFormat.HtmlOrText.class)
    OutputFormat format = OutputFormat.html;

    @Option(names = "--family", paramLabel = "NAME", description = "with --format text: only this family")
    String family;

    @Option(names = "--verdicts", description = "with --format text: only the verdicts (each seed's claims tested against "
            + "the file, docs/verdicts.md), without the families' reports")
    boolean verdictsOnly;

    @Option(names = "--disassembly", description = "with --format text and --family: the family's disassemblies instead of "
            + "its report, each C twin followed by the same variant's Java method (C2's code, where hsdis printed it)")
    boolean disassembly;

    @Option(names = "--explain", description = "with --format text: each claim's verdict with its reasoning in full (by default "
            + "three lines: the finding, measured against claimed, the reason that decided it)")
    boolean explain;

    @Option(names = "--wide", description = "with --format text: every table row on one line, however long "
            + "(by default the text fits the terminal, COLUMNS, else 100: a table leaves out or folds columns, each line keeps its row's key)")
    boolean wide;

    @Override
    public Integer call() throws IOException {
        switch (format) {
            case html -> {
                if (family != null) throw new UsageException("report --family: goes with --format text or svg");
                String textOnly = wide ? "--wide" : explain ? "--explain" : verdictsOnly ? "--verdicts" : disassembly ? "--disassembly" : null;
                if (textOnly != null) throw new UsageException("report " + textOnly + ": goes with --format text");
                if (output == null) throw new UsageException("report: -o FILE.html is needed for the page (or --format text to print)");
            }
            case text -> {
                if (files.size() != 1) throw new UsageException("report --format text: one results file at a time (" + files.size() + " given)");
                return text();
            }
            case svg -> {
                if (files.size() != 1) throw new UsageException("report --format svg: one results file at a time (" + files.size() + " given)");
                if (verdictsOnly || disassembly || wide || explain) throw new UsageException("report --format svg: draws the verdicts alone (no --verdicts, --disassembly, --wide or --explain)");
                return forest();
            }
            default -> throw new IllegalStateException("report --format " + format);
        }
        OutputFile file = OutputFile.check(output, "-o", files);
        Map<ResultsFile, Path> read = new IdentityHashMap<>();
        List<HtmlReport.Input> inputs = new ArrayList<>();
        List<String> names = HtmlReport.names(files);
        for (int i = 0; i < files.size(); i++) {
            ResultsFile r = Json.readResultsChecked(files.get(i));
            read.put(r, files.get(i));
            inputs.add(new HtmlReport.Input(names.get(i), r));
        }
        // written as it is made: a page of many rows is never held whole
        long[] bytes = {0};
        try {
            file.write(os -> {
                PrintWriter page = new PrintWriter(new BufferedWriter(new OutputStreamWriter(new FilterOutputStream(os) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                        bytes[0] += len;
                    }
                }, StandardCharsets.UTF_8), 1 << 16));
                HtmlReport.page(page, inputs, FileViews.of(read), Instant.now());
                if (page.checkError()) throw new IOException("the page could not be written whole");
            });
        } catch (IOException e) {
            throw file.cannotWrite(e);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("report written to " + output + " (" + bytes[0] / 1024
                + " KiB, " + inputs.size() + (inputs.size() == 1 ? " results file" : " results files") + "); open it in a browser");
        out.flush();
        return Main.EXIT_OK;
    }

    /** The verdicts of the one file (of {@code --family}'s seed, or all) as a forest plot, to stdout or {@code -o}. */
    private int forest() throws IOException {
        ResultsFile results = Json.readResultsChecked(files.getFirst());
        List<BenchFamily> families = families();
        List<SeedVerdicts.Verdict> verdicts = SeedVerdicts.recorded(results,
                Families.claims(families), Families.allowances(families)).stream().filter(v -> family == null || v.family().equals(family)).toList();
        if (verdicts.isEmpty()) throw new UsageException("report --format svg: " + files.getFirst().getFileName() + " holds no seed's claims"
                + (family == null ? "" : " of " + family) + " to draw");
        return print(VerdictsSvg.of(verdicts));
    }

    /** The registered families; {@code --family} must name one of them. */
    private List<BenchFamily> families() {
        List<BenchFamily> families = Families.all();
        if (family != null && families.stream().noneMatch(f -> f.name().equals(family))) {
            throw new UsageException("--family " + family + ": not a family (one of "
                    + families.stream().map(BenchFamily::name).collect(Collectors.joining(", ")) + ")");
        }
        return families;
    }

    private int text() throws IOException {
        Path input = files.getFirst();
        ResultsFile results = Json.readResultsChecked(input);
        List<BenchFamily> families = families();
        if (disassembly && (family == null || verdictsOnly)) {
            throw new UsageException("report --disassembly: goes with --family NAME, without --verdicts");
        }
        int width = Width.of(wide);
        // a disassembly is printed as objdump and hsdis wrote it: its lines are code, not prose to wrap
        if (disassembly || verdictsOnly) {
            return print(disassembly ? disassemblies(results, family) : verdicts(results, families, family, wide, explain));
        }
        // written as it is laid out: the text of many rows is never held whole
        return print(os -> {
            PrintWriter text = new PrintWriter(new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), 1 << 16));
            ReportText.write(text, results, families, family, input, width, explain);
            if (text.checkError()) throw new IOException("the text could not be written whole");
        }, out -> ReportText.write(out, results, families, family, input, width, explain));
    }

    private int print(String text) {
        return print(os -> os.write(text.getBytes(StandardCharsets.UTF_8)), out -> out.print(text));
    }

    /** To {@code -o} through {@code toFile}, else to stdout through {@code toOut}. */
    private int print(AtomicFile.Body toFile, Consumer<PrintWriter> toOut) {
        if (output == null) {
            PrintWriter out = spec.commandLine().getOut();
            toOut.accept(out);
            out.flush();
            return Main.EXIT_OK;
        }
        OutputFile file = OutputFile.check(output, "-o", files);
        try {
            file.write(toFile);
        } catch (IOException e) {
            throw file.cannotWrite(e);
        }
        return Main.EXIT_OK;
    }

    /** The disassemblies of {@code family} in {@code file}, or one line saying there are none. */
    static String disassemblies(ResultsFile file, String family) {
        String text = MachineCodeText.disassemblies(file.code(), family);
        return text.isEmpty() ? "no disassembly of " + family + "'s functions in this file\n" : text;
    }

    /** The seeds' verdicts the file records (of family {@code only}, or all; the families' claims tested for a file that saved none); empty when none. */
    static String verdicts(ResultsFile file, List<BenchFamily> families, String only, boolean wide, boolean explain) {
        List<SeedVerdicts.Verdict> verdicts = SeedVerdicts.recorded(file,
                Families.claims(families), Families.allowances(families));
        return VerdictsText.text(verdicts.stream().filter(v -> only == null || v.family().equals(only)).toList(),
                Width.of(wide), explain);
    }
}
