package dev.corescope.report;

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

    /** The section for {@code family}, or {@code ""} when the file has no machine code for it. */
    public static String of(List<MachineCode> code, String family) {
        List<MachineCode> mine = code.stream().filter(c -> family.equals(c.benchmark())).toList();
        List<MachineCode> shown = mine.stream().filter(c -> c.bytes() != null || c.instructions() != null).toList();
        if (mine.isEmpty()) return "";
        StringBuilder sb = new StringBuilder();
        if (!shown.isEmpty()) {
            sb.append("Machine code of the measured functions (objdump -d; static counts, alignment padding left out; "
                    + "loop = the innermost backward branch; see docs/formats-code.md)\n");
            TextTable t = new TextTable("impl", "variant", "params", "symbol", ">bytes", ">instructions", ">loads", ">stores",
                    ">loop instructions", ">loop loads", ">loop stores");
            for (MachineCode c : shown) {
                MachineCode.HotLoop l = c.hotLoop();
                t.row(c.implementation(), c.variant(), params(c.params()), c.symbol(), cell(c.bytes()), cell(c.instructions()),
                        cell(c.loads()), cell(c.stores()), l == null ? "-" : l.instructions(), l == null ? "-" : l.loads(),
                        l == null ? "-" : l.stores());
            }
            sb.append(t.render("  "));
            String deltas = deltas(shown);
            if (!deltas.isEmpty()) sb.append("Each against the first of its group, as bloat-o-meter (old new delta):\n").append(deltas);
        }
        Set<String> reasons = new LinkedHashSet<>();
        for (MachineCode c : mine) if (c.reason() != null) reasons.add(c.implementation() + ": " + c.reason());
        for (String r : reasons) sb.append("  - ").append(r).append('\n');
        return sb.toString();
    }

    private static String deltas(List<MachineCode> shown) {
        Map<String, List<MachineCode>> groups = new LinkedHashMap<>();
        for (MachineCode c : shown) groups.computeIfAbsent(c.groupKey(), k -> new ArrayList<>()).add(c);
        TextTable t = new TextTable("change", "params", ">bytes", ">instructions", ">loads", ">stores", ">loop instructions",
                ">loop loads");
        boolean any = false;
        for (List<MachineCode> g : groups.values()) {
            MachineCode base = g.getFirst();
            for (MachineCode c : g.subList(1, g.size())) {
                any = true;
                t.row(base.variant() + " -> " + c.variant(), params(c.params()), delta(base.bytes(), c.bytes()),
                        delta(base.instructions(), c.instructions()), delta(base.loads(), c.loads()),
                        delta(base.stores(), c.stores()), delta(loopInstructions(base), loopInstructions(c)),
                        delta(loopLoads(base), loopLoads(c)));
            }
        }
        return any ? t.render("  ") : "";
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

    private static String params(Map<String, Object> params) {
        return ResultsText.params(params);
    }
}
