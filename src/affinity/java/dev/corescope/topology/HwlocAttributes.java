package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Shorten;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * hwloc's attribute syntax as {@link HwlocXmlReader} reads it: numbers, sizes, bitmaps and infos
 * of an {@link XmlElement}, each refused with a one-line reason that names the file, the
 * attribute and its object (input text shortened, control characters replaced).
 */
final class HwlocAttributes {

    /** The file (or results file) the document came from, first in every reason. */
    final String name;
    /** The width of the machine's masks, once its cpusets are read. */
    int nbits;

    HwlocAttributes(String name) {
        this.name = name;
    }

    IllegalArgumentException bad(String why) {
        return new IllegalArgumentException(name + ": " + why);
    }

    List<Long> numbers(List<XmlElement> els) {
        List<Long> out = new ArrayList<>();
        for (XmlElement e : els) {
            for (String s : e.text().strip().split("\\s+")) {
                if (s.isEmpty()) continue;
                try {
                    out.add(Long.parseLong(s));
                } catch (NumberFormatException ex) {
                    throw bad("<" + e.name() + ">: '" + shorten(s) + "' is not a number");
                }
            }
        }
        return out;
    }

    /** An info holding a number; empty when absent or not a number (hwloc's own infos, not refused). */
    static OptionalInt intInfo(XmlElement e, String n) {
        return info(e, n).map(String::strip).filter(v -> v.matches("-?\\d{1,9}")).map(v -> OptionalInt.of(Integer.parseInt(v))).orElse(OptionalInt.empty());
    }

    static Optional<String> info(XmlElement e, String n) {
        for (XmlElement i : e.all("info")) if (n.equals(i.attr("name"))) return Optional.ofNullable(i.attr("value"));
        return Optional.empty();
    }

    /** An info of {@code e} holding an hwloc bitmap, e.g. corescope's {@link HwlocXmlWriter#INFO_AFFINITY}. */
    Optional<CpuMask> infoMask(XmlElement e, String key) {
        Optional<String> v = info(e, key);
        if (v.isEmpty()) return Optional.empty();
        if (HwlocBitmap.infinite(v.get())) throw bad("info " + key + "=\"" + shorten(v.get()) + "\": an infinite set, not a set of CPUs");
        return Optional.of(bitmap(v.get(), Math.max(nbits, 1), e, "info " + key));
    }

    CpuMask mask(XmlElement e, String attr) {
        return optMask(e, attr).orElseThrow(() -> bad("<object type=\"" + shorten(e.attr("type")) + "\"> has no " + attr));
    }

    Optional<CpuMask> optMask(XmlElement e, String attr) {
        String v = e.attr(attr);
        if (v == null) return Optional.empty();
        return Optional.of(bitmap(v, Math.max(nbits, 1), e, attr));
    }

    int lastBit(XmlElement e, String attr) {
        String v = e.attr(attr);
        return v == null ? -1 : bitmap(v, e, attr, HwlocBitmap::lastBit);
    }

    /** hwloc's bitmap text, cut to {@code bits}; refused with the attribute and its object named. */
    CpuMask bitmap(String text, int bits, XmlElement e, String attr) {
        return bitmap(text, e, attr, t -> HwlocBitmap.parse(t, bits));
    }

    private <T> T bitmap(String text, XmlElement e, String attr, Function<String, T> parse) {
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException ex) {
            throw bad(attr + "=\"" + shorten(text) + "\" of <object type=\"" + shorten(e.attr("type")) + "\">: " + ex.getMessage());
        }
    }

    int intAttr(XmlElement e, String n, int dflt) {
        return number(e, n, dflt, Integer::parseInt, "not an integer");
    }

    /** A size in bytes ({@code local_memory}, {@code cache_size}): -1 when absent, refused when negative. */
    long size(XmlElement e, String n) {
        long v = number(e, n, -1L, Long::parseLong, "not an integer");
        if (v < 0 && e.attr(n) != null) throw bad(n + "=\"" + shorten(e.attr(n)) + "\" of " + tag(e) + ": not a size (bytes, 0 or more)");
        return v;
    }

    double doubleAttr(XmlElement e, String n, double dflt) {
        return number(e, n, dflt, Double::parseDouble, "not a number");
    }

    /** Attribute {@code n} of {@code e} parsed, {@code dflt} when absent, refused with {@code what} when it does not parse. */
    private <T> T number(XmlElement e, String n, T dflt, Function<String, T> parse, String what) {
        String v = e.attr(n);
        if (v == null) return dflt;
        try {
            return parse.apply(v.strip());
        } catch (NumberFormatException ex) {
            throw bad(n + "=\"" + shorten(v) + "\" of " + tag(e) + ": " + what);
        }
    }

    private static String tag(XmlElement e) {
        return "<" + e.name() + (e.attr("type") == null ? "" : " type=\"" + shorten(e.attr("type")) + "\"") + ">";
    }

    static String shorten(String s) {
        return Shorten.end(String.valueOf(s).replaceAll("[\\p{Cntrl}]", "?"), 43);
    }
}
