package dev.corescope.cli;

import picocli.CommandLine.Model.CommandSpec;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;

/**
 * {@code topology}, {@code mask}, {@code affinity} and {@code pin} without picocli, for
 * start-up time (docs/performance.md): picocli's Java 5 classes stay out of the AOT cache, and
 * building its command model costs several times what these commands do.
 *
 * <p>Only the plain forms are taken here: the command's own options, each at most once, as
 * {@code --opt value} or {@code --opt=value}, with plain values. Anything else ({@code --help},
 * an unknown or repeated option, {@code @argfile}, a value picocli would convert or refuse)
 * returns empty before anything runs, and picocli runs the command as usual. The command object
 * is the picocli one, its fields set here, so what it does and how it fails is the same.
 */
final class ShortCommands {

    private ShortCommands() {
    }

    /** The exit code of the command in {@code args}, or empty when picocli must run it. */
    static OptionalInt run(String[] args) {
        if (args.length == 0) return OptionalInt.empty();
        return switch (args[0]) {
            case "topology" -> topology(args);
            case "mask" -> mask(args);
            case "affinity" -> affinity(args);
            case "pin" -> pin(args);
            default -> OptionalInt.empty();
        };
    }

    /** Where a command prints: picocli's writer when picocli runs it, else stdout (UTF-8 unless the JVM says otherwise, as picocli's). */
    static PrintWriter out(CommandSpec spec) {
        if (spec != null) return spec.commandLine().getOut();
        return new PrintWriter(new OutputStreamWriter(System.out, Charset.defaultCharset()), true);
    }

    /** Any failure, a bad value included, is left to picocli, which runs the command again with its one-line errors. */
    private static OptionalInt topology(String[] args) {
        TopologyCommand c = new TopologyCommand();
        Options o = Options.parse(args, "--root", "--from", "--format", "--output");
        if (o == null || !o.positional.isEmpty()) return OptionalInt.empty();
        try {
            if (o.has("--root")) c.root = Path.of(o.get("--root"));
            if (o.has("--from")) c.from = Path.of(o.get("--from"));
            if (o.has("--output")) c.output = Path.of(o.get("--output"));
            if (o.has("--format")) c.format = OutputFormat.Only.FOR_TOPOLOGY.convert(o.get("--format"));
            return OptionalInt.of(c.call());
        } catch (RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    private static OptionalInt mask(String[] args) {
        MaskCommand c = new MaskCommand();
        Options o = Options.parse(args, "--nbits", "--input", "--format");
        if (o == null || o.positional.isEmpty()) return OptionalInt.empty();
        for (String w : o.positional) if (!plainWord(w)) return OptionalInt.empty();
        try {
            if (o.has("--nbits")) c.nbits = asciiInt(o.get("--nbits"));
            if (o.has("--input")) c.input = MaskCommand.Input.valueOf(o.get("--input"));
            if (o.has("--format")) c.format = OutputFormat.valueOf(o.get("--format"));
        } catch (IllegalArgumentException e) {
            return OptionalInt.empty();
        }
        c.words = o.positional;
        return call(c);
    }

    private static OptionalInt affinity(String[] args) {
        AffinityCommand c = new AffinityCommand();
        Options o = Options.parse(args, "--pid", "--format");
        if (o == null || !o.positional.isEmpty()) return OptionalInt.empty();
        try {
            if (o.has("--pid")) c.pid = asciiInt(o.get("--pid"));
            if (o.has("--format")) c.format = OutputFormat.valueOf(o.get("--format"));
        } catch (IllegalArgumentException e) {
            return OptionalInt.empty();
        }
        return call(c);
    }

    /** {@code pin --cpus LIST [--] COMMAND...}: everything from COMMAND on is COMMAND's. */
    private static OptionalInt pin(String[] args) {
        PinCommand c = plainPin(args);
        return c == null ? OptionalInt.empty() : call(c);
    }

    /** The {@code pin} command of a plain {@code pin --cpus LIST [--] COMMAND...} line, or null when picocli must parse it. */
    static PinCommand plainPin(String[] args) {
        if (args.length < 3 || !args[0].equals("pin")) return null;
        int i = 1;
        String cpus;
        if (args[i].startsWith("--cpus=")) {
            cpus = args[i++].substring("--cpus=".length());
        } else if (args[i].equals("--cpus")) {
            cpus = args[i + 1];
            i += 2;
        } else {
            return null;
        }
        if (cpus.isEmpty() || cpus.startsWith("-") || cpus.startsWith("@")) return null;
        if (i < args.length && args[i].equals("--")) {
            i++;
        } else if (i < args.length && !plainWord(args[i])) {
            return null;
        }
        if (i >= args.length) return null;
        PinCommand c = new PinCommand();
        c.cpus = cpus;
        c.command = new ArrayList<>(Arrays.asList(args).subList(i, args.length));
        return c;
    }

    private static OptionalInt call(Callable<Integer> command) {
        try {
            return OptionalInt.of(command.call());
        } catch (Exception e) {
            return OptionalInt.of(Main.reportFailure(new PrintWriter(System.err, true), e, null));
        }
    }

    /** A positional word picocli would take as it is: not an option, not an {@code @argfile}, not empty. */
    private static boolean plainWord(String w) {
        return !w.isEmpty() && !w.startsWith("-") && !w.startsWith("@");
    }

    /** A small number written in ASCII digits; anything else is picocli's to convert or refuse. */
    private static int asciiInt(String s) {
        if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) throw new IllegalArgumentException(s);
        return Integer.parseInt(s);
    }

    /** The named options (each at most once) and the positional words after {@code args[0]}; null when picocli must parse. */
    private record Options(Map<String, String> named, List<String> positional) {

        static Options parse(String[] args, String... known) {
            List<String> knownNames = List.of(known);
            Options o = new Options(new HashMap<>(), new ArrayList<>());
            for (int i = 1; i < args.length; i++) {
                String a = args[i];
                if (!a.startsWith("-")) {
                    o.positional.add(a);
                    continue;
                }
                String name = a.equals("-o") ? "--output" : a;
                String value;
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq > 0) {
                    name = a.substring(0, eq);
                    value = a.substring(eq + 1);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    return null;
                }
                if (!knownNames.contains(name) || value.startsWith("-") || value.startsWith("@")) return null;
                if (o.named.putIfAbsent(name, value) != null) return null;
            }
            return o;
        }

        boolean has(String name) {
            return named.containsKey(name);
        }

        String get(String name) {
            return named.get(name);
        }
    }
}
