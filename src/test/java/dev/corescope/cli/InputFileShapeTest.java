package dev.corescope.cli;

import dev.corescope.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Results files with the right types but the wrong shape, too large, or with figures at the
 * edge of a double: one line naming the field, exit 2, in every command that reads them.
 */
class InputFileShapeTest {

    @TempDir
    Path dir;

    private static final String ROW = "{\"benchmark\": \"c2c\", \"variant\": \"pingpong\", \"implementation\": \"java\", \"metric\": \"op\","
            + " \"unit\": \"ns/op\", \"score\": 1.0, \"error\": 0.1, \"samples\": 10}";

    private Path file(String name, String body) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, "{\"schema\": \"corescope-results/1\", \"results\": [" + ROW + "]" + body + "}\n");
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            matrix values fewer than cpus  | , "matrix": {"cpus": [0, 1], "unit": "ns", "values": [[null, 1.0]]}                 | matrix.values: 1 rows for 2 cpus
            matrix row shorter than cpus   | , "matrix": {"cpus": [0, 1], "unit": "ns", "values": [[null], [1.0, null]]}         | matrix.values[0]: 1 values for 2 cpus
            matrix errors of another shape | , "matrix": {"cpus": [0], "unit": "ns", "values": [[null]], "errors": []}            | matrix.errors: 0 rows for 1 cpus
            matrix without cpus            | , "matrix": {"unit": "ns", "values": [[null]]}                                       | matrix.cpus: missing
            histogram without buckets      | , "histograms": [{"benchmark": "x", "variant": "y", "bucketNs": 10, "counts": []}]   | histograms[0].counts: missing or empty
            histogram of 0 ns buckets      | , "histograms": [{"benchmark": "x", "variant": "y", "bucketNs": 0, "counts": [1]}]   | histograms[0].bucketNs: 0; a bucket is at least 1 ns wide
            negative histogram count       | , "histograms": [{"benchmark": "x", "variant": "y", "bucketNs": 1, "counts": [-1]}]  | histograms[0].counts[0]: -1 is negative
            null layout row                | , "layouts": [{"name": "packed", "sizeBytes": 8, "rows": [null]}]                      | layouts[0].rows[0]: null where an entry belongs
            null counter                   | , "counters": [{"benchmark": "x", "counters": [null]}]                                | counters[0].counters[0]: null where an entry belongs
            counter without a name         | , "counters": [{"benchmark": "x", "counters": [{"unit": "ns"}]}]                      | counters[0].counters[0]: an event without a name
            null failure                   | , "failures": [null]                                                                  | failures[0]: null where an entry belongs
            a number where a row belongs   | , "histograms": [1]                                                                   | histograms[0]: expected an object, found a number
            a string for a number          | , "matrix": {"cpus": ["a"], "values": []}                                             | matrix.cpus[0]: expected a whole number, found a string
            """)
    void aStructuralErrorIsBadInputNamingTheField(String what, String body, String fragment) throws Exception {
        Path p = file("bad.json", body);
        for (String[] args : new String[][]{{"report", p.toString(), "-o", dir.resolve("r.html").toString()},
                {"report", p.toString(), "--format", "text"}, {"compare", p.toString(), p.toString()}}) {
            CliRun r = CliRun.run(args).badInput(p + ": " + fragment);
            assertFalse(r.err().contains("dev.corescope") || r.err().contains("Exception"), r.err());
        }
        assertFalse(Files.exists(dir.resolve("r.html")));
    }

    @Test
    void aNullRowIsNamedWithoutJavaClassNames() throws Exception {
        Path p = dir.resolve("null-row.json");
        Files.writeString(p, "{\"schema\": \"corescope-results/1\", \"results\": [" + ROW + ", null]}\n");
        CliRun.run("compare", p.toString(), p.toString()).badInput(p + ": results[1]: null where an entry belongs");
        Path q = dir.resolve("null-run.json");
        Files.writeString(q, "{\"schema\": \"corescope-results/1\", \"results\": [" + ROW.replace("}", ", \"runs\": [null]}") + "]}\n");
        CliRun.run("report", q.toString(), "--format", "text").badInput(q + ": results[0].runs[0]: null where an entry belongs");
    }

    @Test
    void aFileAboveTheSizeCapIsRefusedBeforeItIsRead() throws Exception {
        Path p = dir.resolve("huge.json");
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(Json.MAX_INPUT_BYTES + 1); // sparse: no disk space, no time
        }
        CliRun.run("compare", p.toString(), p.toString()).badInput(p + ": 256 MiB; corescope reads results files of at most 256 MiB");
        CliRun.run("report", p.toString(), "--format", "text").badInput("at most 256 MiB");
    }

    @Test
    void aFifoIsReadOnceAndStopsAtTheSizeCap() throws Exception {
        Path fifo = dir.resolve("results.fifo");
        org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "needs mkfifo");
        Path b = file("b.json", "");
        Thread writer = Thread.ofVirtual().start(() -> {
            try (var out = Files.newOutputStream(fifo)) {
                out.write(Files.readAllBytes(b));
            } catch (java.io.IOException ignored) {
                // the reader went away
            }
        });
        CliRun.run("compare", fifo.toString(), b.toString()).succeeded();
        writer.join();

        // more than the cap of white space: JSON that never ends is cut off, not read into the heap
        Thread flood = Thread.ofVirtual().start(() -> {
            byte[] blanks = new byte[1 << 20];
            java.util.Arrays.fill(blanks, (byte) ' ');
            try (var out = Files.newOutputStream(fifo)) {
                for (long n = 0; n <= Json.MAX_INPUT_BYTES; n += blanks.length) out.write(blanks);
            } catch (java.io.IOException ignored) {
                // the reader stopped at the cap and closed its end
            }
        });
        CliRun.run("compare", fifo.toString(), b.toString()).badInput(fifo + ": more than 256 MiB; corescope reads results files of at most 256 MiB");
        flood.join();
    }

    @Test
    void hugeFiguresPrintInAShortForm() throws Exception {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        Files.writeString(a, "{\"schema\": \"corescope-results/1\", \"results\": [" + ROW.replace("\"score\": 1.0", "\"score\": 1e308") + "]}\n");
        Files.writeString(b, "{\"schema\": \"corescope-results/1\", \"results\": [" + ROW.replace("\"score\": 1.0", "\"score\": 1.7e308") + "]}\n");
        for (String out : new String[]{CliRun.run("compare", a.toString(), b.toString()).succeeded().out(),
                CliRun.run("report", a.toString(), "--format", "text").succeeded().out()}) {
            assertFalse(out.replace(dir.toString(), "DIR").matches("(?s).*[0-9]{20,}.*"), "no long digit runs: " + out);
            assertTrue(out.matches("(?s).*\\b1\\.00+e\\+308\\b.*"), "scientific form (compare 4, report 3 significant figures): " + out);
        }
    }

    /** A family's model of the wrong shape, in a real saved c2c run. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a number for the CPU list   | cpus       | 1 | models.c2c.cpus: expected a list, found a number
            a CPU the model never lists | pairs/0/to | 7 | models.c2c: not the shape this corescope reads
            """)
    void aFamilyModelOfTheWrongShapeIsBadInputNamingIt(String what, String field, int value, String fragment) throws Exception {
        var tree = Json.MAPPER.readTree(Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results/c2c-quick.json").toFile());
        String parent = field.contains("/") ? "/models/c2c/" + field.substring(0, field.lastIndexOf('/')) : "/models/c2c";
        ((com.fasterxml.jackson.databind.node.ObjectNode) tree.at(parent)).put(field.substring(field.lastIndexOf('/') + 1), value);
        Path p = dir.resolve("c2c.json");
        Files.writeString(p, Json.write(tree));
        for (String[] args : new String[][]{{"report", p.toString(), "-o", dir.resolve("r.html").toString()},
                {"report", p.toString(), "--format", "text"}, {"compare", p.toString(), p.toString(), "--format", "html"}}) {
            CliRun r = CliRun.run(args).badInput(p + ": " + fragment);
            assertFalse(r.err().contains("dev.corescope") || r.err().contains("Exception"), r.err());
        }
    }
    /**
     * A family's model that is no object, or has a null list, is named in plain words (issue 23
     * point 18): it used to be Jackson's "Cannot construct instance of ... no int/Int-argument
     * constructor" or "Cannot invoke java.util.Collection.isEmpty() because coll is null".
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a number      | 5           | models.c2c: expected an object, found a number
            a string      | "x"         | models.c2c: expected an object, found a string
            a list        | []          | models.c2c: expected an object, found a list
            a null list   | cpus=null   | models.c2c.cpus: null where a value is needed
            a null pairs  | pairs=null  | models.c2c.pairs: null where a value is needed
            """)
    void aFamilyModelThatIsNoObjectOrHasANullListIsNamedInPlainWords(String what, String edit, String fragment) throws Exception {
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(
                Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results/c2c-quick.json").toFile());
        var models = (com.fasterxml.jackson.databind.node.ObjectNode) tree.get("models");
        if (edit.endsWith("=null")) ((com.fasterxml.jackson.databind.node.ObjectNode) models.get("c2c")).putNull(edit.substring(0, edit.indexOf('=')));
        else models.set("c2c", Json.MAPPER.readTree(edit));
        Path p = dir.resolve("c2c.json");
        Files.writeString(p, Json.write(tree));
        for (String[] args : new String[][]{{"report", p.toString(), "--format", "text"}, {"compare", p.toString(), p.toString(), "--format", "html"}}) {
            CliRun r = CliRun.run(args).badInput(p + ": " + fragment);
            for (String java : new String[]{"Cannot", "java.", "instance", "constructor", "deserialize", "Exception"}) {
                assertFalse(r.err().contains(java), r.err());
            }
        }
    }
}
