package dev.corescope.cli;

import dev.corescope.report.Comparison;
import dev.corescope.report.ComparisonText;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code compare BEFORE.json AFTER.json}: the change between two results files, row by row. */
@Command(name = "compare",
        mixinStandardHelpOptions = true,
        description = {
                "Compares two results files, row by row, and says what changed.",
                "Rows are matched on benchmark, variant, implementation, metric and params;",
                "each gets before, after, the change in percent, the p-value and a verdict:",
                "better or worse when the unit says which way is better (ns/op, bytes: lower;",
                "ops/s: higher), same when the change is not significant. The test: Welch's",
                "two-sided t-test at alpha 0.001, each side's standard error recovered from",
                "its 99.9%% half-width and sample count; exact figures (error 0, e.g. code",
                "size) differ when they differ. Rows found in only one file are listed, not",
                "dropped. The last line sums it up, like the kernel's bloat-o-meter:",
                "  add/remove: 0/1 better/worse: 3/1 same: 8 untested: 0 geomean time: -3.8%%",
                "The files come from bench -o, bench --format json or the tour.",
                "",
                "Examples:",
                "  ./run.sh bench cpumask -o before.json",
                "  (change something)",
                "  ./run.sh bench cpumask -o after.json",
                "  ./run.sh compare before.json after.json",
                "  ./run.sh compare before.json after.json --format json"})
final class CompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "BEFORE.json", description = "the results before the change")
    Path before;

    @Parameters(index = "1", paramLabel = "AFTER.json", description = "the results after the change")
    Path after;

    @Option(names = "--format", paramLabel = "FMT", description = "text (default) or json")
    OutputFormat format = OutputFormat.text;

    @Override
    public Integer call() {
        if (format == OutputFormat.svg) throw new UsageException("--format svg: compare prints text or json");
        ResultsFile a = Json.readResultsChecked(before);
        ResultsFile b = Json.readResultsChecked(after);
        Comparison c = Comparison.of(before.toString(), a, after.toString(), b);
        PrintWriter out = spec.commandLine().getOut();
        out.print(format == OutputFormat.json ? Json.write(c) : ComparisonText.render(c));
        out.flush();
        return Main.EXIT_OK;
    }
}
