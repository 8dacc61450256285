package dev.corescope.cli;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Progress;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Histogram;
import dev.corescope.report.Json;
import dev.corescope.report.Layout;
import dev.corescope.report.Matrix;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.sys.Affinity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code bench NAME|all}: runs benchmark families, pinned, and prints or saves their results. */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = {
                "Runs one benchmark family (or all), pinned, and prints a report.",
                "Families: cpumask (seed 000), timerbase (seed 001), cpupri and c2c (seed 002), locks (seed 004).",
                "",
                "Example:",
                "  ./run.sh bench cpumask --quick",
                "  ./run.sh bench all --cpus 0-1 --format json -o before.json"})
final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "cpumask, timerbase, cpupri, locks, c2c or all")
    String name;

    @Option(names = "--cpus", paramLabel = "LIST", description = "CPUs to pin to (cpulist, e.g. 0-1); default: chosen from the topology")
    String cpus;

    @Option(names = "--quick", description = "short runs (each family well under 20 s on 2 cores); errors are wider")
    boolean quick;

    @Option(names = "--format", paramLabel = "FMT", description = "text (default) or json")
    OutputFormat format = OutputFormat.text;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "also write the results as JSON to FILE (atomically)")
    Path output;

    @Override
    public Integer call() throws Exception {
        List<BenchFamily> families = selectFamilies();
        if (format == OutputFormat.svg) throw new UsageException("--format svg: bench prints text or json");
        Optional<CpuMask> pinTo = Optional.ofNullable(cpus).map(BenchCommand::parseCpus);
        BenchContext ctx = new BenchContext(pinTo, quick, Progress.NONE, false);

        List<FamilyRun> runs = new ArrayList<>();
        for (BenchFamily f : families) runs.add(f.run(ctx));

        ResultsFile file = toResultsFile(runs);
        String json = Json.write(file);
        if (output != null) Json.writeAtomically(output, json);
        var out = spec.commandLine().getOut();
        if (format == OutputFormat.json) {
            out.print(json);
        } else {
            for (FamilyRun r : runs) out.println(r.text());
            if (output != null) out.println("results written to " + output);
        }
        out.flush();
        return Main.EXIT_OK;
    }

    private List<BenchFamily> selectFamilies() {
        if (name.equals("all")) return Families.all();
        return List.of(Families.byName(name).orElseThrow(() ->
                new UsageException("bench " + name + ": no such benchmark family (one of: " + Families.names() + ", all)")));
    }

    /** {@code --cpus LIST}: a cpulist within the allowed set, or exit 2 naming the value. */
    static CpuMask parseCpus(String list) {
        CpuMask allowed = Affinity.processAllowed();
        CpuMask m;
        try {
            m = CpuMask.parseList(list, Math.max(allowed.nbits(), 1 << 16));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--cpus " + list + ": " + e.getMessage());
        }
        if (m.isEmpty()) throw new UsageException("--cpus " + list + ": the set is empty");
        CpuMask outside = m.andNot(allowed);
        if (!outside.isEmpty()) {
            throw new UsageException("--cpus " + list + ": " + (outside.weight() == 1 ? "CPU " + outside + " is" : "CPUs " + outside + " are")
                    + " not in the allowed set " + allowed.toList());
        }
        return m.resize(allowed.nbits());
    }

    static ResultsFile toResultsFile(List<FamilyRun> runs) {
        List<Result> results = new ArrayList<>();
        List<Layout> layouts = new ArrayList<>();
        List<Histogram> histograms = new ArrayList<>();
        Matrix matrix = null;
        for (FamilyRun r : runs) {
            results.addAll(r.results());
            layouts.addAll(r.layouts());
            histograms.addAll(r.histograms());
            if (r.matrix() != null) matrix = r.matrix();
        }
        return new ResultsFile(ResultsFile.SCHEMA, null, results, layouts, histograms, matrix, List.of());
    }
}
