package dev.corescope.report;

import dev.corescope.report.SeedVerdicts.Verdict;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The verdicts in words ({@link SeedVerdicts} decides them): the legend of the finding words, the
 * document the text, the tour and the page render, and each claim's short and full reasoning.
 */
public final class VerdictsText {

    private VerdictsText() {
    }

    /**
     * One entry of the legend: the words as the reports print them, what they mean, and the
     * findings they stand for (none for an entry about the tables).
     */
    public record Term(String words, String meaning, List<Finding> findings) {
        public Term {
            findings = List.copyOf(findings);
        }

        /** {@code words: meaning}, one legend line. */
        public String line() {
            return words + ": " + meaning;
        }
    }

    /** The legend of the finding words, as data (the page lists it; text prints {@link #LEGEND}). */
    public static final List<Term> TERMS = List.of(
            new Term(Finding.SUPPORTS.words(), "the 99.9% interval excludes zero in the claimed direction and lies within a factor of 2 "
                    + "of the claimed size", List.of(Finding.SUPPORTS)),
            new Term(Finding.SUPPORTS_SMALLER.words() + " / larger than claimed", "the direction holds, the size is off by more than a factor of 2",
                    List.of(Finding.SUPPORTS_SMALLER, Finding.SUPPORTS_LARGER)),
            new Term(Finding.CONTRADICTS.words(), "the interval excludes zero in the opposite direction, or excludes every effect of half "
                    + "the claimed size", List.of(Finding.CONTRADICTS)),
            new Term(Finding.INCONCLUSIVE.words(), "the interval holds both zero and the claimed size, or both the claimed size and one 2x off "
                    + "(the runs needed are given)",
                    List.of(Finding.INCONCLUSIVE)),
            new Term(Finding.NOT_TESTABLE.words(), "the claim cannot be measured on this machine or in this file (the reason is given)",
                    List.of(Finding.NOT_TESTABLE)),
            new Term("tables below", "\"significant\" there is a row-level test of one row's iterations (run-to-run noise not in it); "
                    + "the findings above take runs as the unit and test the claim", List.of()));

    /** The legend of the finding words, one line each ({@link Term#line()}), for the first place they are used. */
    public static final List<String> LEGEND = TERMS.stream().map(Term::line).toList();

    /** What the verdicts are, the first words of their document. */
    static final String INTRO = "Verdicts (each seed's claims tested one by one against this run; 99.9% intervals, "
            + "runs as the unit; docs/verdicts.md):";

    /**
     * The verdicts as a document, the one source of their text ({@link #text}) and of the page's
     * verdicts (the page renders the same parts): what they are, the legend of the finding words,
     * a table of the seeds with their verdict (row status: the verdict's word), a table of the
     * claims keyed by the claim's id, each with what it is about, its finding (row status: the
     * finding's words), the claimed size, the measured effect and its 99.9% interval as an
     * interval cell (with the claimed size, for the page's bar), then per claim its conditions,
     * the measurement in full and why, as notes keyed by the same id.
     *
     * @param verdicts the verdicts, in order
     * @param legend   whether to open with what they are and the legend (a family's own verdict on the page goes without)
     * @return the document; empty when there are no verdicts
     */
    public static TextDoc document(List<Verdict> verdicts, boolean legend) {
        return document(verdicts, legend, false);
    }

    /**
     * {@link #document(List, boolean)}, each claim's note short (at most three lines at the
     * terminal: the finding, measured against claimed, the one reason that decided it) or, with
     * {@code explain}, in full: conditions, the seed's words, the measurement and every reason.
     */
    public static TextDoc document(List<Verdict> verdicts, boolean legend, boolean explain) {
        TextDoc d = new TextDoc();
        if (verdicts.isEmpty()) return d;
        if (legend) {
            d.paragraph(INTRO);
            d.definitions(TERMS.stream().map(t -> new TextDoc.Term(t.words(), t.meaning())).toList());
        }
        // the seeds' verdicts keyed by family and seed, the verdict's words last (they wrap)
        TextTable seeds = new TextTable(TextTable.Column.key("family"),
                TextTable.Column.key("seed"), TextTable.Column.text("verdict")).named("seeds");
        // the claims keyed by their id (which names the family); at a narrow width text leaves out
        // what they are about, the claimed size and the measured effect (the notes say them), never the interval
        TextTable claims = new TextTable(TextTable.Column.key("claim"),
                TextTable.Column.text("what").optional(3), TextTable.Column.text("finding"),
                TextTable.Column.text("claimed").optional(2), TextTable.Column.text("measured").optional(1),
                TextTable.Column.text("99.9% interval")).named("claims");
        List<String> notes = new ArrayList<>();
        for (Verdict v : verdicts) {
            seeds.statusRow(v.word(), new TextTable.Link(v.family(), v.family()), v.seed(), v.summary());
            for (ClaimResult r : v.claims()) {
                claims.statusRow(r.finding().words(), r.id(), r.quantity(), r.finding().words(), r.claimed(), measuredShort(r), interval(r));
                notes.add(explain ? explanation(r) : brief(r));
            }
        }
        d.table(seeds);
        if (!claims.isEmpty()) d.blank().table(claims);
        d.notes(notes);
        return d;
    }

    /** Each claim's reasoning in full, one note per claim (the page folds it under the short verdicts). */
    public static TextDoc reasoning(List<Verdict> verdicts) {
        return new TextDoc().notes(verdicts.stream().flatMap(v -> v.claims().stream()).map(VerdictsText::explanation).toList());
    }

    /** A claim in at most three lines: {@code id: finding; measured M against claimed C: the reason that decided it}. */
    public static String brief(ClaimResult r) {
        StringBuilder n = new StringBuilder(r.id()).append(": ").append(r.finding().words());
        String saved = "saved: ", today = "; from the rows with today's rules: ";
        if (r.reason() != null && r.reason().startsWith(saved) && r.reason().contains(today)) {
            n.append(" (").append(r.reason(), 0, r.reason().indexOf(today)).append(", today's rules on the file's rows)");
        }
        if (r.effect() != null) {
            TextTable.Interval iv = interval(r);
            n.append("; measured ").append(measuredShort(r));
            if (iv.measured()) n.append(" [").append(signed(r.low())).append(", ").append(signed(r.high())).append(']');
            n.append(" against claimed ").append(r.claimed());
        } else if (!r.rows().isEmpty()) {
            n.append("; none measured (claimed ").append(r.claimed()).append(')');
        }
        String why = r.decidingReason();
        if (!why.isEmpty()) n.append(": ").append(why);
        return n.append('.').toString();
    }

    /** A claim in full: what, claimed under which conditions, the seed's words, the measurement, every reason. */
    public static String explanation(ClaimResult r) {
        StringBuilder n = new StringBuilder(r.id()).append(": ").append(r.quantity()).append("; claimed ").append(r.claimed())
                .append(r.conditions() == null ? "" : " (" + r.conditions() + ")").append('.');
        if (r.claim() != null && !r.claim().isEmpty()) n.append(" Claim: \u201c").append(r.claim()).append("\u201d.");
        String m = measuredText(r);
        if (!m.isEmpty()) n.append(" Measured ").append(m).append('.');
        if (r.reason() != null && !r.reason().isEmpty()) n.append(" Why: ").append(r.reason()).append('.');
        return n.toString();
    }

    /** The measured effect, short: {@code -0.21 ns per call (-3.1%)} (of several measured rows the largest, as the notes say); {@code -} or {@code none measured}. */
    static String measuredShort(ClaimResult r) {
        if (r.overBuilds()) return BuildMatrixFindings.range(r);
        if (r.effect() == null) return r.rows().isEmpty() ? "-" : "none measured";
        boolean abs = r.scale() == Claim.Scale.ABSOLUTE;
        StringBuilder sb = new StringBuilder(signed(r.effect())).append(abs ? " " + r.unit() : "%");
        if (abs && r.effectPercent() != null && !r.effectPercent().isNaN()) sb.append(" (").append(signed(r.effectPercent())).append("%)");
        return sb.toString();
    }

    /**
     * The claim's 99.9% interval as a cell: in the claim's unit (percent for a relative claim),
     * with the measured effect and the claimed size (signed, in the claimed direction); its
     * words where there is none: exact figures, not measured (one run per side), or nothing measured.
     */
    static TextTable.Interval interval(ClaimResult r) {
        boolean abs = r.scale() == Claim.Scale.ABSOLUTE;
        Double claim = r.claimedSize() == null || r.direction() == null ? null : r.claimedSize() * r.direction().sign();
        if (r.overBuilds()) return TextTable.Interval.none(r.effect(), BuildMatrixFindings.range(r));
        if (r.effect() == null) return TextTable.Interval.none(null, r.rows().isEmpty() ? "-" : "not measured");
        if (r.rows().stream().allMatch(x -> x.bound() == ClaimResult.Bound.EXACT)) return TextTable.Interval.none(r.effect(), "exact");
        if (!r.measured() || r.low() == null || r.high() == null) return TextTable.Interval.none(r.effect(), "not measured");
        return new TextTable.Interval(r.effect(), r.low(), r.high(), claim, abs ? r.unit() : "%", null, "-");
    }

    /** The verdicts as text wrapped to {@code width}: {@link #document}'s text. */
    public static String text(List<Verdict> verdicts, int width) {
        return text(verdicts, width, false);
    }

    /** {@link #text(List, int)}, each claim's reasoning in full with {@code explain}. */
    public static String text(List<Verdict> verdicts, int width, boolean explain) {
        if (verdicts.isEmpty()) return "";
        return document(verdicts, true, explain).render(width) + (explain ? "" : "(each claim's reasoning in full: --explain)\n") + "\n";
    }

    /**
     * The measured effect in words, both ways: {@code -0.21 ns per call (-3.1%), 99.9% interval
     * -0.30..-0.12 ns (-4.4..-1.8%)}; of several rows the measured one farthest from zero, and how
     * many rows were measured; {@code none measured} when no counted row has an interval.
     */
    public static String measuredText(ClaimResult r) {
        if (r.overBuilds()) return BuildMatrixFindings.measured(r);
        if (r.rows().isEmpty()) return "";
        int measured = (int) r.rows().stream().filter(ClaimResult.RowFinding::measured).count();
        if (r.effect() == null) {
            return "none measured (" + r.rows().size() + (r.rows().size() == 1 ? " row" : " rows") + ", interval not measured: one run per side)";
        }
        boolean abs = r.scale() == Claim.Scale.ABSOLUTE;
        String u = abs ? " " + r.unit() : "%";
        StringBuilder sb = new StringBuilder(measuredShort(r));
        if (r.rows().stream().allMatch(x -> x.bound() == ClaimResult.Bound.EXACT)) return sb.append(", exact").toString();
        if (measured > 1) sb.append(", the largest of ").append(measured).append(" measured rows");
        if (r.low() != null) {
            sb.append(", 99.9% interval ").append(signed(r.low())).append("..").append(signed(r.high())).append(u);
            if (abs && r.lowPercent() != null) sb.append(" (").append(signed(r.lowPercent())).append("..").append(signed(r.highPercent())).append("%)");
        }
        if (measured < r.rows().size()) sb.append("; ").append(r.rows().size() - measured).append(" of ").append(r.rows().size())
                .append(" rows not measured (one run per side)");
        return sb.toString();
    }

    private static String signed(double v) {
        String n = number(Math.abs(v));
        return (v < 0 ? "-" : v > 0 ? "+" : "") + n;
    }

    static String number(double v) {
        double a = Math.abs(v);
        // a count saved by an older corescope as a percentage scaled back (-79.99999999999999 bytes) is the count
        if (Math.abs(v - Math.rint(v)) <= 1e-9 * Math.max(1, a) && a < 1e15) return String.format(Locale.ROOT, "%.0f", Math.rint(v));
        if (a >= 100) return String.format(Locale.ROOT, "%.0f", v);
        if (a >= 10) return String.format(Locale.ROOT, "%.1f", v);
        if (a >= 1) return String.format(Locale.ROOT, "%.2f", v);
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** What one run of a row is, in words: a JMH fork (Java) or a separately started run of the C twin. */
    static String runUnit(String implementation, boolean plural) {
        return "java".equals(implementation) ? (plural ? "forks" : "fork") : plural ? "runs of the C twin" : "run of the C twin";
    }


    /** The rule behind the finding, in words, with the measured and the claimed size side by side. */
    static String because(Claim c, Finding f, List<ClaimResult.RowFinding> all) {
        // rows whose interval holds both zero and the claim neither decide nor veto (SeedVerdicts.combine)
        List<ClaimResult.RowFinding> open = all.stream().filter(r -> SeedVerdicts.undecided(c, r)).toList();
        List<ClaimResult.RowFinding> rows = f == Finding.INCONCLUSIVE || open.size() == all.size() ? all
                : all.stream().filter(r -> !open.contains(r)).toList();
        EnumMap<Finding, Integer> count = new EnumMap<>(Finding.class);
        for (ClaimResult.RowFinding r : rows) count.merge(r.finding(), 1, Integer::sum);
        String split = count.size() <= 1 ? "" : " (the rows split: " + count.entrySet().stream()
                .map(e -> e.getValue() + " " + e.getKey().words()).reduce((x, y) -> x + ", " + y).orElse("") + ")";
        String counted = rows.size() == all.size() ? "every counted interval" : "every interval that decides";
        String because = switch (f) {
            case SUPPORTS -> c.size() == null ? counted + " excludes zero in the claimed direction"
                    : counted + " excludes zero and lies within the claimed size's band (half to twice it)";
            case SUPPORTS_SMALLER -> "the intervals exclude zero in the claimed direction but stay below half the claimed size" + split;
            case SUPPORTS_LARGER -> "the intervals exclude zero in the claimed direction and lie beyond twice the claimed size" + split;
            case CONTRADICTS -> rows.stream().allMatch(r -> oppositeDirection(c, r))
                    ? "the intervals exclude zero in the opposite direction"
                    : "no effect as large as claimed: the intervals end below half of it (an equivalence test)" + split;
            case INCONCLUSIVE -> count.size() > 1 ? "the counted rows do not agree" + split
                    : open.isEmpty() && c.size() != null ? "the interval excludes zero but crosses an edge of the claimed size's band "
                    + "(half to twice it): it holds both the claimed size and one " + (rows.stream().anyMatch(r -> crossesTop(c, r)) ? "larger" : "smaller")
                    : "the interval holds both zero and the claimed " + (c.size() == null ? "direction" : "size");
            case NOT_TESTABLE -> "";
        };
        if (rows.size() == all.size()) return because;
        return because + "; " + open.size() + (open.size() == 1 ? " row (" : " rows (") + kinds(open)
                + ") could not tell: " + (open.size() == 1 ? "its interval holds" : "their intervals hold") + " both zero and the claim";
    }

    private static boolean crossesTop(Claim c, ClaimResult.RowFinding r) {
        return SeedVerdicts.Oriented.of(c, r.low(), r.high()).hi() > c.size() * SeedVerdicts.BAND;
    }

    /** "Java", "C" or "Java and C": the kinds of the rows given. */
    private static String kinds(List<ClaimResult.RowFinding> rows) {
        List<String> kinds = new ArrayList<>();
        if (rows.stream().anyMatch(r -> "java".equals(r.implementation()))) kinds.add("Java");
        if (rows.stream().anyMatch(r -> !"java".equals(r.implementation()))) kinds.add("C");
        return String.join(" and ", kinds);
    }

    private static boolean oppositeDirection(Claim c, ClaimResult.RowFinding r) {
        if (r.low() == null) return r.effect() * c.direction().sign() < 0;
        return SeedVerdicts.Oriented.of(c, r.low(), r.high()).hi() < 0;
    }


    static String distinctReasons(List<ClaimResult.NotCounted> rows) {
        Map<String, Integer> n = new LinkedHashMap<>();
        for (ClaimResult.NotCounted r : rows) n.merge(r.reason(), 1, Integer::sum);
        List<String> parts = new ArrayList<>();
        n.forEach((reason, k) -> parts.add(k + (k == 1 ? " row: " : " rows: ") + reason));
        return String.join("; ", parts);
    }


    /**
     * The rows without an interval, listed beside the finding with why: a row saved with one run
     * per side (an older file, or a row no claim counted when it ran) whose change the between-run
     * allowance cannot bound; what gives it one is a run of today's bench, which runs every row a
     * claim counts as repeated runs per side (JMH forks; separately started runs of a C twin).
     */
    static String unmeasured(List<ClaimResult.RowFinding> rows) {
        List<ClaimResult.RowFinding> un = rows.stream().filter(r -> !r.measured()).toList();
        List<ClaimResult.RowFinding> unbounded = un.stream().filter(r -> r.bound() == ClaimResult.Bound.UNBOUNDED).toList();
        List<ClaimResult.RowFinding> once = un.stream().filter(r -> !unbounded.contains(r)).toList();
        String of = " of " + rows.size() + (rows.size() == 1 ? " row" : " rows") + ", ";
        StringBuilder out = new StringBuilder();
        if (!once.isEmpty()) {
            out.append("; not measured (one run per side, ").append(once.size()).append(of).append(kinds(once))
                    .append("; neither decides nor gives the measured figure): today's bench runs each row a claim counts at least ")
                    .append(SeedVerdicts.RUNS_PER_SIDE).append(" times per side (JMH forks; separately started runs of a C twin, ")
                    .append(SeedVerdicts.TWIN_RUNS_FULL).append(" in a full run)");
        }
        if (!unbounded.isEmpty()) {
            out.append("; not bounded (").append(unbounded.size()).append(of).append(kinds(unbounded))
                    .append("; neither decides nor gives the measured figure): the runs left on a side were too few for an interval ")
                    .append("within a factor of ").append((int) SeedVerdicts.UNBOUNDED_FACTOR)
                    .append(" either way (a C twin drops the runs in which its threads did not run at once)");
        }
        return out.toString();
    }
}
