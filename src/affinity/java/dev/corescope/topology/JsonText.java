package dev.corescope.topology;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;

/**
 * JSON text without a JSON library, so the library's exported API ({@link TopologyJson#render},
 * {@link Capture#write(Topology, Path)}) needs nothing beside the library jar. The output is
 * byte for byte what the tool's Jackson mapper (report.Json, indented) writes for the same maps
 * and lists; JsonTextTest holds the two together. Values: maps (keys as strings), collections,
 * strings, numbers, booleans and null.
 */
final class JsonText {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private JsonText() {
    }

    /** {@code value} as indented JSON, ending with a newline. */
    static String write(Object value) {
        StringBuilder sb = new StringBuilder(4096);
        value(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void value(StringBuilder sb, Object v, int depth) {
        switch (v) {
            case null -> sb.append("null");
            case String s -> string(sb, s);
            case Boolean b -> sb.append(b.booleanValue());
            case Double d when d.isNaN() || d.isInfinite() -> string(sb, d.toString());
            case Float f when f.isNaN() || f.isInfinite() -> string(sb, f.toString());
            case Number n -> sb.append(n);
            case Map<?, ?> m -> object(sb, m, depth);
            case Collection<?> c -> array(sb, c, depth);
            default -> throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
        }
    }

    private static void object(StringBuilder sb, Map<?, ?> m, int depth) {
        if (m.isEmpty()) {
            sb.append("{ }");
            return;
        }
        sb.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!first) sb.append(',');
            first = false;
            newline(sb, depth + 1);
            string(sb, String.valueOf(e.getKey()));
            sb.append(" : ");
            value(sb, e.getValue(), depth + 1);
        }
        newline(sb, depth);
        sb.append('}');
    }

    private static void array(StringBuilder sb, Collection<?> c, int depth) {
        if (c.isEmpty()) {
            sb.append("[ ]");
            return;
        }
        sb.append("[ ");
        boolean first = true;
        for (Object o : c) {
            if (!first) sb.append(", ");
            first = false;
            value(sb, o, depth);
        }
        sb.append(" ]");
    }

    private static void newline(StringBuilder sb, int depth) {
        sb.append('\n');
        for (int i = 0; i < depth; i++) sb.append("  ");
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 15]);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
