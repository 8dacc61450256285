package dev.corescope.report;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static dev.corescope.text.Markup.escape;

/**
 * Rows whose error is more than {@link #FRACTION} of their score, each with the likely cause
 * the results file records ({@link #cause}).
 */
final class NoisyRows {

    /** An error above this fraction of the score flags the row as noisy. */
    static final double FRACTION = 0.10;

    record Noisy(Result row, double fraction, String cause) {
    }

    private NoisyRows() {
    }

    static List<Noisy> of(ResultsFile f) {
        List<Noisy> out = new ArrayList<>();
        for (Result r : f.results()) {
            if (r.error() == null || r.error() == 0 || r.score() == 0) continue;
            double fraction = r.error() / Math.abs(r.score());
            if (fraction > FRACTION) out.add(new Noisy(r, fraction, cause(f, r.benchmark())));
        }
        return out;
    }

    /**
     * What the file records that could have disturbed {@code family}'s figures, most telling first:
     * the steal time, the family's migrations and context switches, then the environment's
     * warnings about the governor, a CPU quota and a busy SMT sibling (decided on their fields).
     */
    static String cause(ResultsFile f, String family) {
        List<String> causes = new ArrayList<>();
        Environment e = f.environment();
        if (e != null && e.stealPercent() != null && e.stealPercent() >= 0.5) {
            causes.add(String.format(Locale.ROOT, "the hypervisor stole %.1f%% of CPU time", e.stealPercent()));
        }
        for (Counters c : f.counters()) {
            if (!family.equals(c.benchmark())) continue;
            Counters.Counter mig = c.get("cpu-migrations");
            if (mig != null && mig.value() != null && mig.value() > 0) causes.add(mig.value() + " CPU migrations");
            Counters.Counter cs = c.get("context-switches");
            if (cs != null && cs.value() != null && cs.value() > 0) causes.add(cs.value() + " context switches");
        }
        if (e != null) {
            Environment.governorWarning(e.governor()).ifPresent(causes::add);
            Environment.quotaWarning(e.cpuQuota(), e.cpuQuotaCpus()).ifPresent(causes::add);
            if (e.busySiblings() != null) e.busySiblings().forEach(b -> causes.add(b.warning()));
        }
        return causes.isEmpty() ? "nothing recorded; other work on the machine or a short run are the usual causes" : String.join("; ", causes);
    }

    /** The section for file number {@code index}, or nothing when no row is noisy. */
    static void section(PrintWriter h, int index, ResultsFile f) {
        List<Noisy> noisy = of(f);
        if (noisy.isEmpty()) return;
        h.append("<h3 id=\"file-").append(String.valueOf(index)).append("-noisy\">Noisy rows</h3>\n<p class=\"note\">")
                .append(String.valueOf(noisy.size())).append(" of ").append(String.valueOf(f.results().size()))
                .append(" rows have an error above ").append(String.valueOf((int) (FRACTION * 100)))
                .append("% of their score; differences among them say little.</p>\n<details><summary>The rows and the likely cause</summary>\n")
                .append("<div class=\"scroll\"><table class=\"noisy\">\n<tr><th>row</th><th>params</th><th>score</th><th>error</th><th>likely cause</th></tr>\n");
        for (Noisy n : noisy) {
            Result r = n.row();
            h.append("<tr class=\"noisy\"><td>").append(escape(r.benchmark() + " " + r.variant() + " " + r.implementation() + " " + r.metric()))
                    .append("</td><td class=\"mono\">").append(escape(ResultsText.params(r.params()))).append("</td><td class=\"num\">")
                    .append(escape(ResultsText.number(r.score()) + " " + r.unit())).append("</td><td class=\"num\">&plusmn; ")
                    .append(escape(String.format(Locale.ROOT, "%.0f%%", n.fraction() * 100))).append("</td><td>").append(escape(n.cause()))
                    .append("</td></tr>\n");
        }
        h.append("</table></div>\n</details>\n");
    }
}
