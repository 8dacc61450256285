package dev.corescope.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code lstopo} printed for a tree (hwloc's {@code .console} files): the number of
 * objects of each type, and for each NUMA node the type of the nearest object other than a
 * group that it hangs under ({@code Machine}, {@code Package}, {@code L3Cache}...).
 */
record HwlocConsole(Map<String, Integer> counts, Map<Integer, String> numaParents) {

    private static final Pattern OBJECT = Pattern.compile("([A-Za-z][A-Za-z0-9]*) L#(\\d+)(?: \\(P#(\\d+))?");

    static HwlocConsole parse(String console) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        Map<Integer, String> numaParents = new LinkedHashMap<>();
        List<String> stack = new ArrayList<>(); // type at each indentation depth
        for (String line : console.split("\n")) {
            if (line.isBlank()) continue;
            int indent = 0;
            while (indent < line.length() && line.charAt(indent) == ' ') indent++;
            int depth = indent / 2;
            String body = line.substring(indent);
            if (body.startsWith("Machine")) {
                stack.clear();
                stack.add("Machine");
                continue;
            }
            // the tree ends at the first unindented line (depth summaries, distance matrices, memory attributes)
            if (indent == 0) break;
            // "L2 L#0 + L1d L#0 + Core L#0" in compact consoles: each part is a level
            String[] parts = body.split(" \\+ ");
            while (stack.size() > depth) stack.removeLast();
            for (String part : parts) {
                Matcher m = OBJECT.matcher(part);
                if (!m.lookingAt()) break;
                String type = m.group(1);
                counts.merge(type, 1, Integer::sum);
                if (type.equals("NUMANode") && m.group(3) != null) {
                    numaParents.put(Integer.parseInt(m.group(3)), container(stack));
                } else {
                    stack.add(type);
                }
            }
            // a line is one level deeper than its parent however many objects it joins
            while (stack.size() > depth + 1) {
                String last = stack.removeLast();
                if (stack.size() == depth) {
                    stack.add(last);
                    break;
                }
            }
        }
        return new HwlocConsole(counts, numaParents);
    }

    /**
     * The nearest ancestor that is not a Group: hwloc makes groups of NUMA nodes from the distance
     * matrix, which corescope prints as a table instead (docs/topology.md).
     */
    private static String container(List<String> stack) {
        for (int i = stack.size() - 1; i >= 0; i--) if (!stack.get(i).startsWith("Group")) return stack.get(i);
        return "Machine";
    }

    int count(String type) {
        return counts.getOrDefault(type, 0);
    }
}
