package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.report.Claim;
import dev.corescope.report.ClaimResult;
import dev.corescope.report.Environment;
import dev.corescope.report.Finding;
import dev.corescope.report.MachineTopology;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.ResultsText;
import dev.corescope.report.SeedVerdicts;
import dev.corescope.report.VerdictsText;
import dev.corescope.text.Num;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Column;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The tour's text, a summary read top to bottom: the machine; the verdicts, with a legend of the
 * finding words; for each family a compact table of the rows its claims use (at most
 * {@link #MAX_TABLE_LINES} lines); where to look next. Everything comes from the results file,
 * so a saved tour reads the same.
 */
final class TourText {

    /** The most lines a family's table takes in the tour. */
    static final int MAX_TABLE_LINES = 15;

    private TourText() {
    }

    /** The machine in a few lines, from what the results file records. */
    static TextDoc machine(Environment e, MachineTopology t) {
        TextDoc d = new TextDoc().heading("Machine");
        List<String> lines = new ArrayList<>();
        if (e != null && e.cpuModel() != null) lines.add(e.cpuModel());
        if (t != null && t.summary() != null) lines.add(t.summary());
        if (e != null) {
            lines.add("CPUs online " + orDash(e.online()) + ", allowed " + orDash(e.allowed()) + ", SMT "
                    + (e.smt() == null ? "unknown" : e.smt() ? "on" : "off"));
            lines.add(orUnknown(e.kernel()) + "; " + orUnknown(e.jdk()));
        }
        for (String l : lines) d.paragraph("  ", l);
        d.paragraph("  ", "(the whole tree: ./run.sh topology; as a picture: ./run.sh topology --format svg -o topology.svg)");
        return d;
    }

    /**
     * The summary after the run: verdicts, one compact table per family, what was not measured.
     *
     * @param notMeasured lines "family: note" of what a family could not measure here
     * @param explain     each claim's reasoning in full
     */
    static TextDoc summary(ResultsFile file, List<BenchFamily> families, List<String> notMeasured, String launcher, Path results,
                           int width, boolean explain) {
        // a file saved before claims were recorded is tested against this build's claims
        List<SeedVerdicts.Verdict> verdicts = SeedVerdicts.recorded(file, Families.claims(families), Families.allowances(families));
        List<ClaimResult> claims = verdicts.stream().flatMap(v -> v.claims().stream()).toList();
        TextDoc d = new TextDoc();
        if (!verdicts.isEmpty()) {
            d.heading("Verdicts: each seed's claims tested against this run (99.9% intervals, runs as the unit; docs/verdicts.md)");
            d.paragraph("  ", "The finding words:");
            d.notes("    ", "- ", legend(claims));
            for (SeedVerdicts.Verdict v : verdicts) {
                d.paragraph("  ", v.family() + ": " + v.summary() + " (seed: " + v.seed() + ")");
                d.notes("    ", "- ", v.claims().stream().map(c -> explain ? VerdictsText.explanation(c) : VerdictsText.brief(c)).toList());
                unresolved(v, launcher).ifPresent(line -> d.paragraph("    ", line));
            }
        }
        String r = results == null ? "FILE" : Tour.shell(results.toString());
        for (BenchFamily f : families) {
            List<ClaimResult> mine = claims.stream().filter(c -> f.name().equals(c.family()) && !c.rows().isEmpty()).toList();
            if (mine.isEmpty()) {
                // a family no claim tests (c2c) says what it measured in a short block of its own
                f.brief(file).ifPresent(b -> d.blank().heading(f.name() + " (all of it: " + launcher + " report " + r
                        + " --format text --family " + f.name() + ")").add(b));
                continue;
            }
            d.blank().heading(f.name() + ": the rows its claims use (every row: " + launcher + " report " + r
                    + " --format text --family " + f.name() + ")");
            table(d, f.name(), mine, width);
        }
        if (!notMeasured.isEmpty()) {
            d.blank().heading("Not measured here");
            d.notes(notMeasured);
        }
        return d;
    }

    /** The legend entries of the finding words this run uses, in the legend's order (matched on the findings each entry stands for). */
    static List<String> legend(List<ClaimResult> claims) {
        Set<Finding> used = new LinkedHashSet<>();
        for (ClaimResult c : claims) used.add(c.finding());
        List<String> out = new ArrayList<>();
        for (VerdictsText.Term t : VerdictsText.TERMS) {
            if (t.findings().stream().anyMatch(used::contains)) out.add(t.line());
        }
        return out;
    }

    /**
     * One line under a seed's verdicts when a claim stayed inconclusive: the smallest change its
     * runs could see against the claimed size, and the family without {@code --quick}.
     */
    static Optional<String> unresolved(SeedVerdicts.Verdict v, String launcher) {
        // a build matrix's figures are exact: a longer run gives the same builds, so it is no way to resolve one
        List<ClaimResult> open = v.claims().stream().filter(c -> c.finding() == Finding.INCONCLUSIVE && !c.overBuilds()).toList();
        if (open.isEmpty()) return Optional.empty();
        List<String> what = new ArrayList<>();
        for (ClaimResult c : open) {
            String unit = c.scale() == Claim.Scale.RELATIVE ? "%" : " " + c.unit();
            what.add(c.id() + (c.smallestEffect() == null ? " (no counted row measured)"
                    : " (its runs could see " + Num.of(c.smallestEffect()) + unit + "; claimed " + c.claimed() + ")"));
        }
        return Optional.of("quick mode could not resolve " + String.join(", ", what) + "; longer runs: " + launcher
                + " bench " + v.family());
    }

    /** One family's compact table: a row per claim row; params all rows share are said once, above it. */
    private static void table(TextDoc d, String family, List<ClaimResult> claims, int width) {
        List<Object[]> rows = new ArrayList<>();
        List<String> sharedLines = new ArrayList<>();
        Map<String, String> everyRow = shared(claims.stream().flatMap(c -> c.rows().stream()).toList());
        if (!everyRow.isEmpty()) sharedLines.add("every row: " + ResultsText.params(everyRow));
        for (ClaimResult c : claims) {
            String claim = c.id().startsWith(family + ".") ? c.id().substring(family.length() + 1) : c.id();
            Map<String, String> shared = shared(c.rows());
            shared.keySet().removeAll(everyRow.keySet());
            if (!shared.isEmpty() && c.rows().size() > 1) sharedLines.add(claim + ": " + ResultsText.params(shared));
            for (ClaimResult.RowFinding x : c.rows()) {
                Map<String, Object> own = new TreeMap<>(x.params());
                own.keySet().removeAll(everyRow.keySet());
                if (c.rows().size() > 1) own.keySet().removeAll(shared.keySet());
                rows.add(new Object[] {claim, "native".equals(x.implementation()) ? "C" : x.implementation(), own.isEmpty() ? "-" : ResultsText.params(own),
                        Num.of(x.before()) + " -> " + Num.of(x.after()), x.rowUnit(), change(x), x.finding().words()});
            }
        }
        if (!sharedLines.isEmpty()) {
            d.paragraph("  ", "Params the " + family + " rows share:");
            d.notes("    ", "- ", sharedLines);
        }
        int shown = rows.size();
        TextTable t = table(family, rows, shown);
        // within MAX_TABLE_LINES at this width; the rest is one command away
        while (shown > 1 && t.render("  ", width).lines().count() > MAX_TABLE_LINES) t = table(family, rows, --shown);
        d.table(t);
        if (shown < rows.size()) d.paragraph("  ", "(" + (rows.size() - shown) + " more " + family + " rows in the full report)");
    }

    /** The params with one value on every row. */
    private static Map<String, String> shared(List<ClaimResult.RowFinding> rows) {
        Map<String, String> shared = new TreeMap<>();
        if (rows.isEmpty()) return shared;
        rows.getFirst().params().forEach((k, v) -> shared.put(k, String.valueOf(v)));
        for (ClaimResult.RowFinding x : rows) shared.entrySet().removeIf(e -> !e.getValue().equals(String.valueOf(x.params().get(e.getKey()))));
        return shared;
    }

    /** The change from before to after in percent, with its 99.9% interval when the run-to-run noise was measured. */
    private static String change(ClaimResult.RowFinding x) {
        if (x.before() == 0) return "n/a";
        String pct = Num.signed((x.after() - x.before()) / x.before() * 100) + "%";
        if (x.lowPercent() == null || x.highPercent() == null) return pct;
        return pct + " [" + Num.signed(x.lowPercent()) + ", " + Num.signed(x.highPercent()) + "]";
    }

    private static TextTable table(String family, List<Object[]> rows, int n) {
        TextTable t = new TextTable(Column.key(family + " claim"), Column.key("impl"), Column.key("params"),
                Column.number("before -> after").optional(2), Column.text("unit").optional(3),
                Column.number("change [99.9%]"), Column.text("finding")).named(family);
        for (int i = 0; i < n; i++) t.row(rows.get(i));
        return t;
    }

    /** Where to look next, as commands that work from the folder the user is in. */
    static TextDoc next(String launcher, Path results, Path earlier) {
        String r = Tour.shell(results.toString());
        List<String> next = new ArrayList<>();
        next.add(launcher + " bench NAME: one family in full, every row, its notes and its picture");
        next.add(launcher + " report " + r + " --format text: every family's full tables from this file");
        next.add(launcher + " report " + r + " -o corescope-report.html: one page with tables, charts and the environment");
        if (earlier != null) next.add(launcher + " compare " + Tour.shell(earlier.toString()) + " " + r + ": the earlier run against this one");
        else next.add(launcher + " compare " + r + " AFTER.json: run again after a change, then compare");
        return new TextDoc().heading("Where to look next (the results file: " + results + ")").notes(next);
    }

    private static String orDash(String s) {
        return s == null ? "?" : s.isEmpty() ? "-" : s;
    }

    private static String orUnknown(String s) {
        return s == null ? "unknown" : s;
    }
}
