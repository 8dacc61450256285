package dev.corescope.cli;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.cpumask.CpuMaskFormatException;
import dev.corescope.topology.Placements;
import dev.corescope.topology.Topology;
import dev.corescope.topology.UsableCpus;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The {@code -p name=value} options of {@code jmh}, checked against the benchmarks they select
 * before JMH runs anything (JMH turns a value it cannot use into a stack trace per fork and
 * still exits 0): names from {@code META-INF/BenchmarkList}, types from the {@code @Param}
 * fields. A number, boolean or enum field takes values of its type; a {@code String} field with
 * two or more declared values is a closed set; {@code placement} is one of
 * {@link Placements#NAMES}, {@code cpus} a CPU list and {@code pinned} slash-separated CPUs, all
 * usable.
 */
final class JmhParams {

    /** Enough bits for any CPU list a benchmark may be given; the benchmark checks the CPUs exist. */
    private static final int CPU_LIST_BITS = 1 << 16;

    private JmhParams() {
    }

    /** The parameter names given with {@code -p}, in order (JMH's syntax: {@code -p name=v1,v2}). */
    static List<String> namesGiven(List<String> args) {
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String spec = null;
            if (a.equals("-p") && i + 1 < args.size()) spec = args.get(++i);
            else if (a.startsWith("-p") && a.length() > 2 && a.indexOf('=') > 2) spec = a.substring(2);
            if (spec == null) continue;
            int eq = spec.indexOf('=');
            names.add(eq < 0 ? spec : spec.substring(0, eq));
        }
        return List.copyOf(names);
    }

    /**
     * Checks every {@code -p} of {@code options} against the benchmarks they select; the first
     * bad one is a {@link UsageException} naming it. A selection that matches no benchmark is
     * left to JMH, which says so.
     */
    static void check(List<String> args, Options options) {
        List<String> names = namesGiven(args);
        if (names.isEmpty()) return;
        Collection<BenchmarkListEntry> selected = selected(options);
        if (selected.isEmpty()) return;
        for (String name : names) {
            Collection<String> values = options.getParameter(name).orElse(List.of());
            Set<String> known = new TreeSet<>();
            boolean found = false;
            for (BenchmarkListEntry e : selected) {
                Map<String, String[]> declared = e.getParams().orElse(Map.of());
                known.addAll(declared.keySet());
                if (!declared.containsKey(name)) continue;
                found = true;
                Class<?> type = fieldType(e, name);
                for (String v : values) checkValue(name, v, type, declared.get(name));
            }
            if (!found) {
                throw new UsageException("jmh -p " + name + ": the selected benchmarks have no parameter " + name
                        + (known.isEmpty() ? " (they take none)" : " (theirs: " + String.join(", ", known) + ")")
                        + "; ./run.sh jmh -lp lists them");
            }
        }
    }

    private static Collection<BenchmarkListEntry> selected(Options options) {
        List<String> includes = options.getIncludes().isEmpty() ? List.of(".*") : options.getIncludes();
        PrintStream silent = new PrintStream(OutputStream.nullOutputStream());
        return BenchmarkList.defaultList().find(OutputFormatFactory.createFormatInstance(silent, VerboseMode.SILENT),
                includes, options.getExcludes());
    }

    static void checkValue(String name, String value, Class<?> type, String[] declared) {
        String at = "-p " + name + "=" + value + ": ";
        Consumer<String> refuse = why -> {
            throw new UsageException(at + why);
        };
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class
                || type == short.class || type == Short.class || type == byte.class || type == Byte.class) {
            if (!value.matches("[+-]?[0-9]{1,19}")) refuse.accept("not a whole number (ASCII digits 0-9)");
            try {
                long v = Long.parseLong(value);
                long min = type == int.class || type == Integer.class ? Integer.MIN_VALUE
                        : type == short.class || type == Short.class ? Short.MIN_VALUE
                        : type == byte.class || type == Byte.class ? Byte.MIN_VALUE : Long.MIN_VALUE;
                long max = -(min + 1);
                if (v < min || v > max) refuse.accept("out of range (" + min + " to " + max + ")");
            } catch (NumberFormatException e) {
                refuse.accept("out of range");
            }
        } else if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            if (!value.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]{1,3})?")
                    || !Double.isFinite(Double.parseDouble(value))) {
                refuse.accept("not a number (ASCII digits, e.g. 0.5)");
            }
        } else if (type == boolean.class || type == Boolean.class) {
            if (!value.equals("true") && !value.equals("false")) refuse.accept("allowed values are true, false");
        } else if (type == char.class || type == Character.class) {
            if (value.length() != 1) refuse.accept("one character");
        } else if (type != null && type.isEnum()) {
            List<String> constants = Arrays.stream(type.getEnumConstants()).map(c -> ((Enum<?>) c).name()).toList();
            if (!constants.contains(value)) refuse.accept("allowed values are " + String.join(", ", constants));
        } else if (declared != null && declared.length >= 2) {
            if (!Arrays.asList(declared).contains(value)) refuse.accept("allowed values are " + String.join(", ", declared));
        } else if (name.equals("placement")) {
            try {
                Placements.name(value);
            } catch (IllegalArgumentException e) {
                refuse.accept("allowed values are " + String.join(", ", Placements.NAMES));
            }
        } else if ((name.equals("cpus") || name.equals("pinned")) && !value.isBlank()) {
            CpuMask asked;
            try {
                // pinned: CPU numbers in order, separated by slashes (JMH splits -p values at commas)
                asked = CpuMask.parseList(name.equals("pinned") ? value.replace('/', ',') : value, CPU_LIST_BITS);
            } catch (CpuMaskFormatException e) {
                refuse.accept("not a CPU list (" + e.getMessage() + ")");
                return;
            }
            // checked here, before JMH starts forks that would each fail with a stack trace
            UsableCpus.of(Topology.live()).refusal(asked).ifPresent(refuse);
        }
    }

    /**
     * The type of the {@code @Param} field {@code name} the benchmark {@code e} reads: on its
     * class or a superclass, or on a {@code @State} class its method takes. Null when not found
     * (the value is then checked against the declared values only).
     */
    static Class<?> fieldType(BenchmarkListEntry e, String name) {
        Class<?> cls;
        try {
            cls = Class.forName(e.getUserClassQName(), false, JmhParams.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError ex) {
            return null;
        }
        List<Class<?>> holders = new ArrayList<>();
        holders.add(cls);
        String method = e.getUsername().substring(e.getUsername().lastIndexOf('.') + 1);
        for (Method m : cls.getMethods()) {
            if (m.getName().equals(method)) holders.addAll(Arrays.asList(m.getParameterTypes()));
        }
        for (Class<?> h : holders) {
            for (Class<?> c = h; c != null && c != Object.class; c = c.getSuperclass()) {
                try {
                    Field f = c.getDeclaredField(name);
                    if (f.isAnnotationPresent(Param.class)) return f.getType();
                } catch (NoSuchFieldException ignored) {
                    // not on this class: its superclass may have it
                }
            }
        }
        return null;
    }
}
