package dev.corescope.cli;

import dev.corescope.bench.Families;
import dev.corescope.report.Comparison;
import dev.corescope.report.ComparisonText;
import dev.corescope.report.HtmlReport;
import dev.corescope.report.Json;
import dev.corescope.report.MachineComparison;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.RowIdentity;
import dev.corescope.text.TextDoc;
import dev.corescope.text.Width;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** {@code compare BEFORE.json AFTER.json}: the change between two results files, row by row. */
@Command(name = "compare",
        mixinStandardHelpOptions = true,
        description = {
                "Compares two results files, row by row, and says what changed.",
                "Rows are matched on benchmark, variant, implementation, metric and params",
                "(a row repeated in one file is refused). Each gets before, after, the effect",
                "(after/before) with its 99.9%% confidence interval and a finding:",
                "  significant                the interval leaves out no change",
                "  no change detectable here  the change is within this row's noise floor",
                "  not resolvable here        the run-to-run error is unknown",
                "A run (a JMH fork, one bench process for C) is the unit: iterations of one",
                "fork share its JIT decisions and layout, so alone they would call run-to-run",
                "noise a change. The run-to-run noise is pooled over each family's rows with",
                "2+ runs (bench without --quick runs 2 forks); give more files of the same",
                "build with --before/--after to add runs, or state the machine's noise with",
                "--noise-floor. The last line sums it up, like the kernel's bloat-o-meter:",
                "  add/remove: 0/1 better/worse: 3/1 same: 8 untested: 0 geomean time: -3.8%%",
                "Details: docs/compare.md.",
                "",
                "Examples:",
                "  ./run.sh bench cpumask -o before.json",
                "  (change something)",
                "  ./run.sh bench cpumask -o after.json",
                "  ./run.sh compare before.json after.json",
                "  ./run.sh compare a1.json b1.json --before a2.json --after b2.json",
                "  ./run.sh compare before.json after.json --format json"})
final class CompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "BEFORE.json", description = "the results before the change")
    Path before;

    @Parameters(index = "1", paramLabel = "AFTER.json", description = "the results after the change")
    Path after;

    @Option(names = "--before", paramLabel = "FILE", description = "another run of the before build (repeatable): its rows add runs")
    List<Path> moreBefore = new ArrayList<>();

    @Option(names = "--after", paramLabel = "FILE", description = "another run of the after build (repeatable)")
    List<Path> moreAfter = new ArrayList<>();

    @Option(names = "--noise-floor", paramLabel = "PCT",
            description = "the least run-to-run noise to assume for every row, as a coefficient of variation in percent "
                    + "(e.g. 2 for runs that differ by 2%% in one standard deviation)")
    String noiseFloor;

    @Option(names = "--format", paramLabel = "FMT", description = "text (default), json, or html (the report page's before/after view, on stdout)",
            converter = OutputFormat.TextJsonOrHtml.class)
    OutputFormat format = OutputFormat.text;

    @Option(names = "--wide", description = "no width limit: every column, one line per row (text; by default the text fits the terminal's width, else 100 columns)")
    boolean wide;

    @Override
    public Integer call() {
        if (format == OutputFormat.html && (!moreBefore.isEmpty() || !moreAfter.isEmpty())) {
            throw new UsageException("--format html: one file per side (the page shows two files); use text or json with --before/--after");
        }
        Double floor = noiseFloor == null ? null : parseFloor(noiseFloor);
        List<ResultsFile> a = read(before, moreBefore);
        List<ResultsFile> b = read(after, moreAfter);
        PrintWriter out = spec.commandLine().getOut();
        String nameA = name(before, moreBefore), nameB = name(after, moreAfter);
        if (format == OutputFormat.text) {
            document(before.toString(), nameA, a, after.toString(), nameB, b, floor).render(out, Width.of(wide));
            out.flush();
            return Main.EXIT_OK;
        }
        MachineComparison machines = MachineComparison.of(before.toString(), a.getFirst(), after.toString(), b.getFirst(),
                FileViews.of(FileViews.paths(a.getFirst(), before, b.getFirst(), after)));
        if (machines.differentMachines() && format == OutputFormat.json) {
            out.print(Json.write(new TwoMachines(machines, Comparison.of(nameA, withoutCpuPairs(a), nameB, withoutCpuPairs(b), floor,
                    Families.allowances()))));
            out.flush();
            return Main.EXIT_OK;
        }
        if (format == OutputFormat.json) {
            out.print(Json.write(Comparison.of(nameA, a, nameB, b, floor, Families.allowances())));
        } else {
            // made whole before a byte reaches stdout: a family part found bad half-way is one stderr line, no half page
            List<String> shown = HtmlReport.names(List.of(before, after));
            out.print(HtmlReport.page(List.of(new HtmlReport.Input(shown.get(0), a.getFirst()), new HtmlReport.Input(shown.get(1), b.getFirst())),
                    FileViews.of(FileViews.paths(a.getFirst(), before, b.getFirst(), after)), Instant.now()));
        }
        out.flush();
        return Main.EXIT_OK;
    }

    /**
     * compare's text as one document: for files of two machines, the machines side by side
     * (by relation and by claim), then the rows that mean the same on both (a benchmark's
     * variant, without c2c's CPU pairs); else the rows.
     *
     * @param firstA the first before file's name (the machine's); {@code nameA} every before file's
     */
    static TextDoc document(String firstA, String nameA, List<ResultsFile> a, String firstB, String nameB, List<ResultsFile> b, Double floor) {
        MachineComparison machines = MachineComparison.of(firstA, a.getFirst(), firstB, b.getFirst(),
                FileViews.of(FileViews.paths(a.getFirst(), Path.of(firstA), b.getFirst(), Path.of(firstB))));
        if (machines.differentMachines()) {
            Comparison rows = Comparison.of(nameA, withoutCpuPairs(a), nameB, withoutCpuPairs(b), floor, Families.allowances());
            return new TextDoc().add(ComparisonText.machines(machines)).blank().add(ComparisonText.document(rows));
        }
        return ComparisonText.document(Comparison.of(nameA, a, nameB, b, floor, Families.allowances()));
    }

    /** {@code compare --format json} for two machines: the machines side by side, then the rows without CPU pairs. */
    record TwoMachines(MachineComparison machines, Comparison rows) {
    }

    /** The file without c2c's per-pair rows (params from/to): CPU n on one machine is not CPU n on another. */
    private static List<ResultsFile> withoutCpuPairs(List<ResultsFile> files) {
        List<ResultsFile> out = new ArrayList<>();
        for (ResultsFile f : files) {
            out.add(f.toBuilder().results(f.results().stream()
                    .filter(r -> !(r.benchmark().equals("c2c") && r.params() != null && r.params().containsKey("from"))).toList()).build());
        }
        return out;
    }

    private static List<ResultsFile> read(Path first, List<Path> more) {
        return Stream.concat(Stream.of(first), more.stream()).map(RowIdentity::read).toList();
    }

    private static String name(Path first, List<Path> more) {
        return Stream.concat(Stream.of(first), more.stream()).map(Path::toString).collect(Collectors.joining(" + "));
    }

    static double parseFloor(String text) {
        String t = text.strip();
        if (t.endsWith("%")) t = t.substring(0, t.length() - 1);
        if (!t.matches("[0-9]{1,3}(\\.[0-9]{1,6})?")) {
            throw new UsageException("--noise-floor " + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + ": not a percentage (e.g. 2 or 0.5)");
        }
        double v = Double.parseDouble(t);
        if (v > 100) throw new UsageException("--noise-floor " + text + ": at most 100 (percent)");
        return v;
    }
}
