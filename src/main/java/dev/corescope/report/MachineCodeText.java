package dev.corescope.report;

import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Column;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The machine code of one family's measured functions as text: a table of the counts, then
 * each function against the first one of its group (same implementation and params) as
 * bloat-o-meter prints old, new and delta, then why anything is missing.
 */
public final class MachineCodeText {

    private MachineCodeText() {
    }

    /** The section for {@code family} as a document; empty when the file has no machine code for it. */
    public static TextDoc document(List<MachineCode> code, String family) {
        List<MachineCode> mine = code.stream().filter(c -> family.equals(c.benchmark())).toList();
        List<MachineCode> shown = mine.stream().filter(c -> c.bytes() != null || c.instructions() != null).toList();
        TextDoc d = new TextDoc();
        if (mine.isEmpty()) return d;
        if (!shown.isEmpty()) {
            d.heading("Machine code of the measured functions (objdump -d; static counts, alignment padding left out; "
                    + "loop = a natural loop of the control-flow graph, the timed one for a harness, else the innermost; see docs/formats-code.md)");
            TextTable t = new TextTable(Column.key("impl"), Column.key("variant"), Column.key("params"), Column.text("symbol").optional(3),
                    Column.number("bytes"), Column.number("instructions"), Column.number("loads").optional(1),
                    Column.number("stores").optional(1), Column.number("loop instructions"), Column.number("loop loads").optional(2),
                    Column.number("loop stores").optional(2)).named(family + " machine code");
            for (MachineCode c : shown) {
                MachineCode.HotLoop l = c.hotLoop();
                t.row(c.implementation(), c.variant(), ResultsText.params(c.params()), c.symbol(), cell(c.bytes()), cell(c.instructions()),
                        cell(c.loads()), cell(c.stores()), loopCell(c, l == null ? null : l.instructions()),
                        loopCell(c, l == null ? null : l.loads()), loopCell(c, l == null ? null : l.stores()));
            }
            d.table(t);
            TextTable deltas = deltas(shown, family);
            if (!deltas.isEmpty()) d.heading("Each against the first of its group, as bloat-o-meter (old -> new (delta))").table(deltas);
        }
        Set<String> reasons = new LinkedHashSet<>();
        for (MachineCode c : mine) if (c.reason() != null) reasons.add(c.implementation() + ": " + c.reason());
        if (shown.stream().anyMatch(c -> c.implementation().equals("java"))) reasons.add(JAVA_SOURCE);
        d.notes(List.copyOf(reasons));
        return d;
    }

    /** Where the {@code java} counts come from, said once under the table. */
    static final String JAVA_SOURCE = "java: C2's code of each method as HotSpot printed it through hsdis "
            + "(-XX:CompileCommand=print), compiled on its own (dontinline) in a short JMH run of the family's benchmark in one JVM; "
            + "in the measured forks C2 inlines it into JMH's loop, so they ran this code inside a bigger function. Its bytes are "
            + "the nmethod's main code: entry barrier, slow paths and uncommon traps included";

    /**
     * Every disassembly of {@code family}'s measured functions, variant by variant, each C twin
     * followed by the same variant's Java method (C2's code, where hsdis printed it), each headed
     * by its counts; {@code ""} when the file has none.
     */
    public static String disassemblies(List<MachineCode> code, String family) {
        Map<String, List<MachineCode>> byVariant = new LinkedHashMap<>();
        for (MachineCode c : code) {
            if (family.equals(c.benchmark()) && c.disassembly() != null) byVariant.computeIfAbsent(c.variant(), k -> new ArrayList<>()).add(c);
        }
        StringBuilder sb = new StringBuilder();
        for (List<MachineCode> v : byVariant.values()) {
            List<MachineCode> ordered = new ArrayList<>(v.stream().filter(c -> !c.implementation().equals("java")).toList());
            ordered.addAll(v.stream().filter(c -> c.implementation().equals("java")).toList());
            for (MachineCode c : ordered) {
                String p = ResultsText.params(c.params());
                sb.append(String.format(Locale.ROOT, "%s%s: %s %s (%s; %s bytes, %s instructions, loop: %s)%n", c.variant(),
                        p.isEmpty() ? "" : " " + p, c.implementation().equals("java") ? "Java, C2's code of" : "C,", c.symbol(),
                        c.implementation().equals("java") ? "-XX:CompileCommand=print through hsdis" : "objdump -d",
                        cell(c.bytes()), cell(c.instructions()), c.hotLoop() == null ? "none" : c.hotLoop().kind() + ", "
                                + c.hotLoop().instructions() + " instructions"));
                sb.append(c.disassembly().stripTrailing()).append("\n\n");
            }
        }
        return sb.toString();
    }

    private static TextTable deltas(List<MachineCode> shown, String family) {
        Map<String, List<MachineCode>> groups = new LinkedHashMap<>();
        for (MachineCode c : shown) groups.computeIfAbsent(c.groupKey(), k -> new ArrayList<>()).add(c);
        TextTable t = new TextTable(Column.key("change"), Column.key("params"), Column.number("bytes"), Column.number("instructions"),
                Column.number("loads").optional(1), Column.number("stores").optional(1), Column.number("loop instructions"),
                Column.number("loop loads").optional(2)).named(family + " machine code");
        for (List<MachineCode> g : groups.values()) {
            MachineCode base = g.getFirst();
            for (MachineCode c : g.subList(1, g.size())) {
                t.row(base.variant() + " -> " + c.variant(), ResultsText.params(c.params()), delta(base.bytes(), c.bytes()),
                        delta(base.instructions(), c.instructions()), delta(base.loads(), c.loads()),
                        delta(base.stores(), c.stores()), loopDelta(base, c, loopInstructions(base), loopInstructions(c)),
                        loopDelta(base, c, loopLoads(base), loopLoads(c)));
            }
        }
        return t;
    }

    /** A loop count, {@code no loop} for disassembled code without one, {@code n/a} without a disassembly. */
    static String loopCell(MachineCode c, Integer n) {
        if (c.instructions() == null) return "n/a";
        return n == null ? "no loop" : n.toString();
    }

    /** As {@link #delta}, with {@code no loop} for a side that was disassembled and has none: {@code 6 -> no loop}. */
    static String loopDelta(MachineCode from, MachineCode to, Integer a, Integer b) {
        if (a != null && b != null) return delta(a, b);
        if (from.instructions() == null || to.instructions() == null) return "n/a";
        return loopCell(from, a) + " -> " + loopCell(to, b);
    }

    private static Integer loopInstructions(MachineCode c) {
        return c.hotLoop() == null ? null : c.hotLoop().instructions();
    }

    private static Integer loopLoads(MachineCode c) {
        return c.hotLoop() == null ? null : c.hotLoop().loads();
    }

    /** {@code 100 -> 92 (-8)}, or {@code n/a} when either side is unknown. */
    static String delta(Number from, Number to) {
        if (from == null || to == null) return "n/a";
        long d = to.longValue() - from.longValue();
        return String.format(Locale.ROOT, "%d -> %d (%+d)", from.longValue(), to.longValue(), d);
    }

    private static String cell(Number n) {
        return n == null ? "n/a" : n.toString();
    }
}
