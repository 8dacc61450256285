package dev.corescope.cli;

import dev.corescope.report.Json;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * JMH's result file ({@code -rf FORMAT}, {@code -rff FILE}), kept to the rule of every
 * {@code -o} (docs/files-and-signals.md): JMH writes into a temporary file beside it; a run that
 * succeeded replaces the user's file, one that failed puts what finished beside it, one with no
 * result leaves it as it was.
 *
 * @param args JMH's arguments with the temporary file in place of the user's
 */
record JmhResultFile(OutputFile target, ResultFormatType format, Path temp, List<String> args) {

    /** The result file {@code args} ask JMH for, checked as an output; null when they ask for none. */
    static JmhResultFile of(List<String> args, CommandLineOptions options) {
        if (!options.getResult().hasValue() && !options.getResultFormat().hasValue()) return null;
        ResultFormatType format = options.getResultFormat().orElse(ResultFormatType.CSV);  // JMH's Defaults.RESULT_FORMAT
        String file = options.getResult().orElse("jmh-result." + format.toString().toLowerCase(Locale.ROOT));
        OutputFile target = OutputFile.check(Path.of(file), "-rff");
        Path dir = target.path().toAbsolutePath().normalize().getParent();
        Path temp;
        try {
            temp = Files.createTempFile(Files.isDirectory(dir) ? dir : Path.of(System.getProperty("java.io.tmpdir")),
                    ".corescope-jmh-", "." + format.toString().toLowerCase(Locale.ROOT));
        } catch (IOException e) {
            throw OutputFile.cannotWrite("-rff", target.path(), e);
        }
        List<String> rewritten = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-rff")) {
                i++;  // its value
            } else if (!a.startsWith("-rff=")) {
                rewritten.add(a);
            }
        }
        rewritten.add("-rff");
        rewritten.add(temp.toString());
        return new JmhResultFile(target, format, temp, List.copyOf(rewritten));
    }

    /**
     * After the run ({@code ok}: it succeeded): moves what JMH wrote where the rule says and
     * removes the temporary file; says on {@code err} where a failed run's results went.
     */
    void finish(boolean ok, PrintWriter err) {
        try {
            byte[] bytes = Files.exists(temp) ? Files.readAllBytes(temp) : new byte[0];
            if (results(bytes) == 0) return;  // nothing to keep: the user's file stays as it was
            if (ok || !target.holdsAFile()) {
                target.write(new String(bytes, StandardCharsets.UTF_8));
            } else {
                OutputFile beside = target.beside("partial", Instant.now());
                beside.write(new String(bytes, StandardCharsets.UTF_8));
                err.println("corescope: jmh: the run failed; what finished is in " + beside.path() + ", and " + target.path() + " is kept");
                err.flush();
            }
        } catch (IOException e) {
            throw target.cannotWrite(e);
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // a hidden empty file left in the folder: harmless
            }
        }
    }

    /** How many results JMH wrote: entries of a JSON array, lines after a CSV header, else 1 for anything. */
    private int results(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) return 0;
        return switch (format) {
            case JSON -> {
                try {
                    yield Json.MAPPER.readTree(text).size();
                } catch (IOException e) {
                    yield 1;
                }
            }
            case CSV, SCSV -> Math.max(0, (int) text.lines().count() - 1);
            default -> 1;
        };
    }
}
