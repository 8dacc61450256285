package dev.corescope.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.corescope.report.Json;
import dev.corescope.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code export}: its real consumers are the test (STYLE 16). promtool checks the metrics;
 * node_exporter, started on a loopback port with its textfile collector at our output, serves
 * every corescope series with its value; the NFD file follows node-feature-discovery's rules
 * for feature files and Kubernetes' for labels.
 */
class ExportCommandTest {

    @TempDir
    Path tmp;

    /**
     * A results file with every part export reads: c2c-quick.json's c2c model, plus a jitter run
     * and claim findings in the shape their writers give them (jitter.rows[], claims[]). Synthetic
     * where marked.
     */
    Path results() throws Exception {
        Path saved = Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results/c2c-quick.json");
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(saved.toFile());
        ObjectNode jitter = root.putObject("jitter");
        jitter.put("mode", "synthetic");
        jitter.put("secondsPerCpu", 2.0);
        ArrayNode rows = jitter.putArray("rows");
        for (int cpu = 0; cpu < 2; cpu++) {
            ObjectNode r = rows.addObject();
            r.put("cpu", cpu).put("rank", cpu + 1).put("batch", Integer.toString(cpu)).put("seconds", 2.0).put("clockCostNs", 20)
                    .put("thresholdNs", 1000).put("gaps", 500 + cpu * 100).put("over1usPerSecond", 250.0).put("over10usPerSecond", 3.0)
                    .put("over100usPerSecond", 0.5).put("p99Ns", 4000).put("p9999Ns", 40000).put("maxNs", 120000 + cpu * 1000)
                    .put("lostPercent", 0.01);
        }
        jitter.put("quietest", "0,1");
        ArrayNode claims = root.putArray("claims");
        ObjectNode c = claims.addObject();
        c.put("id", "cpumask.time-per-call").put("family", "cpumask").put("seed", "synthetic seed").put("claim", "synthetic")
                .put("quantity", "time").put("unit", "ns per call").put("direction", "less").put("scale", "relative")
                .put("finding", "supports").put("effect", -2.5).put("effectPercent", -25.0).put("measured", true);
        ObjectNode d = claims.addObject();
        d.put("id", "locks.irqsave").put("family", "locks").put("seed", "synthetic seed").put("claim", "synthetic")
                .put("quantity", "time").put("unit", "ns").put("direction", "less").put("scale", "absolute")
                .put("finding", "not testable here").put("reason", "synthetic").put("measured", false);
        Path f = tmp.resolve("results.json");
        Files.writeString(f, Json.MAPPER.writeValueAsString(root));
        return f;
    }

    @Test
    void promtoolAcceptsTheMetricsOfTheMachineAndOfAResultsFile() throws Exception {
        Path promtool = Tools.require("promtool", "prometheus");
        for (List<String> args : List.of(List.of("export"), List.of("export", results().toString()))) {
            Path out = tmp.resolve("m.prom");
            List<String> all = new ArrayList<>(args);
            all.addAll(List.of("-o", out.toString()));
            CliRun.run(all.toArray(String[]::new)).succeeded();
            String text = Files.readString(out);
            Tools.Output o = Tools.run(List.of("sh", "-c", promtool + " check metrics < " + out), Map.of(), 60);
            assertEquals(0, o.exitCode(), args + ": promtool says " + o.out() + o.err() + "\n" + text);
            assertEquals("", (o.out() + o.err()).strip(), "no lint warnings");
        }
    }

    @Test
    void nodeExporterServesEverySeriesWithItsValue() throws Exception {
        Path exporter = Tools.require("prometheus-node-exporter", "prometheus-node-exporter");
        Path dir = Files.createDirectories(tmp.resolve("textfile"));
        // two results files merged (the same runs twice: every series of the second is a duplicate)
        CliRun.run("export", results().toString(), results().toString(), "-o", dir.resolve("corescope.prom").toString()).succeeded();
        List<String> ours = Files.readAllLines(dir.resolve("corescope.prom")).stream().filter(l -> !l.startsWith("#")).toList();
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Process p = new ProcessBuilder(exporter.toString(), "--web.listen-address=127.0.0.1:" + port,
                "--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory=" + dir)
                .redirectErrorStream(true).redirectOutput(tmp.resolve("exporter.log").toFile()).start();
        try {
            String metrics = scrape(port, p);
            for (String line : ours) {
                assertTrue(metrics.lines().anyMatch(m -> sameSample(line, m)), "node_exporter serves " + line);
            }
            assertTrue(metrics.lines().anyMatch("node_textfile_scrape_error 0"::equals), "the textfile collector read our file without error");
        } finally {
            p.destroy();
            if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) p.destroyForcibly().waitFor();
        }
    }

    /** The same series (name and labels, in any order) with the same value. */
    private static boolean sameSample(String ours, String served) {
        int a = ours.lastIndexOf(' ');
        int b = served.lastIndexOf(' ');
        if (b < 0) return false;
        if (Double.parseDouble(ours.substring(a + 1)) != parseValue(served.substring(b + 1))) return false;
        return series(ours.substring(0, a)).equals(series(served.substring(0, b)));
    }

    private static double parseValue(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static List<String> series(String s) {
        int brace = s.indexOf('{');
        List<String> parts = new ArrayList<>();
        parts.add(brace < 0 ? s : s.substring(0, brace));
        if (brace >= 0) {
            List<String> labels = new ArrayList<>(List.of(s.substring(brace + 1, s.length() - 1).split(",(?=[a-z_]+=\")")));
            labels.sort(null);
            parts.addAll(labels);
        }
        return parts;
    }

    private static String scrape(int port, Process p) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) fail("node_exporter exited " + p.exitValue());
            try {
                HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && r.body().contains("corescope_")) return r.body();
            } catch (java.io.IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("node_exporter did not serve /metrics on 127.0.0.1:" + port + " within 30 s");
    }

    // ---- node-feature-discovery ------------------------------------------------------------

    /** Kubernetes' label name (the part after the prefix) and value: at most 63, alphanumeric at both ends, -_. inside. */
    static final Pattern LABEL = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");

    @Test
    void theNfdFileFollowsTheFeatureFileAndLabelRules() throws Exception {
        Path out = tmp.resolve("corescope");
        CliRun.run("export", results().toString(), "--format", "nfd", "-o", out.toString()).succeeded();
        List<String> lines = Files.readAllLines(out);
        boolean c2c = false;
        for (String line : lines) {
            if (line.startsWith("#")) continue;
            int eq = line.indexOf('=');
            assertTrue(eq > 0, "key=value: " + line);
            String name = line.substring(0, eq);
            String value = line.substring(eq + 1);
            // prefixed: NFD's DisableAutoPrefix gate stops adding it to unprefixed names
            assertTrue(name.startsWith("feature.node.kubernetes.io/"), name);
            String key = name.substring("feature.node.kubernetes.io/".length());
            assertTrue(key.length() <= 63 && !key.isEmpty() && LABEL.matcher(key).matches(), "label name " + key);
            assertTrue(value.length() <= 63 && LABEL.matcher(value).matches(), "label value " + line);
            assertTrue(key.startsWith("corescope-"), key);
            assertEquals(key.toLowerCase(java.util.Locale.ROOT), key);
            if (key.startsWith("corescope-c2c-")) {
                c2c = true;
                assertTrue(value.matches("\\d+-(\\d+|plus)"), "a bucket, not a measurement: " + line);
            }
        }
        assertTrue(c2c, "the results file's c2c is bucketed into a label");
        assertTrue(lines.contains("feature.node.kubernetes.io/corescope-jitter-max-gap-us=100-1000"), lines.toString());
    }

    @Test
    void theNfdPrefixIsAnOption() throws Exception {
        String none = CliRun.run("export", "--format", "nfd", "--nfd-prefix", "").succeeded().out();
        assertTrue(none.lines().anyMatch(l -> l.startsWith("corescope-packages=")), none);
        String own = CliRun.run("export", "--format", "nfd", "--nfd-prefix", "corescope.example.org/").succeeded().out();
        assertTrue(own.lines().anyMatch(l -> l.startsWith("corescope.example.org/corescope-packages=")), own);
        CliRun.run("export", "--format", "nfd", "--nfd-prefix", "Not A Prefix").badInput("is not a label prefix");
    }

    /**
     * A benchmark run and a jitter run into one .prom file, with the NFD file from the same start:
     * each series once (node_exporter refuses the file otherwise), the later file's value.
     */
    @Test
    void severalResultsFilesMergeIntoOneFileWithEachSeriesOnce() throws Exception {
        Path first = results();
        Path second = tmp.resolve("second.json");
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(first.toFile());
        ((ObjectNode) root.get("jitter").get("rows").get(0)).put("maxNs", 7_000_000);
        Files.writeString(second, Json.MAPPER.writeValueAsString(root));
        Path prom = tmp.resolve("m.prom");
        Path nfd = tmp.resolve("nfd");
        CliRun.run("export", first.toString(), second.toString(), "-o", prom.toString(), "--nfd-output", nfd.toString()).succeeded();
        List<String> samples = Files.readAllLines(prom).stream().filter(l -> !l.startsWith("#")).toList();
        List<String> series = samples.stream().map(l -> l.substring(0, l.lastIndexOf(' '))).toList();
        assertEquals(series.size(), series.stream().distinct().count(), "each series once: " + samples);
        assertTrue(samples.contains("corescope_jitter_max_gap_seconds{cpu=\"0\"} 0.007"), "the last file's value: " + samples);
        assertEquals(1, samples.stream().filter(l -> l.startsWith("corescope_claim_finding{claim=\"cpumask.time-per-call\"")).count());
        assertTrue(samples.stream().anyMatch(l -> l.startsWith("corescope_cpu_isolated{cpu=\"0\"} ")), "isolation per CPU: " + samples);
        assertTrue(Files.readString(nfd).contains("feature.node.kubernetes.io/corescope-jitter-worst-max-gap-us=1000-plus"), Files.readString(nfd));
        Path promtool = Tools.require("promtool", "prometheus");
        Tools.Output o = Tools.run(List.of("sh", "-c", promtool + " check metrics < " + prom), Map.of(), 60);
        assertEquals(0, o.exitCode(), "promtool says " + o.out() + o.err());
    }

    // ---- the file ---------------------------------------------------------------------------

    @Test
    void theOutputReplacesTheOldFileWholeAndLeavesNoTemporaryFile() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("tf"));
        Path f = Files.writeString(dir.resolve("corescope.prom"), "old\n");
        CliRun.run("export", "-o", f.toString()).succeeded();
        assertTrue(Files.readString(f).startsWith("# HELP corescope_cpus "));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(f), s.toList(), "only the .prom file: the temporary file was renamed");
        }
    }

    @Test
    void aBadFormatOrResultsFileIsOneLineExit2() throws Exception {
        CliRun.run("export", "--format", "json").badInput("expected prometheus or nfd but was 'json'");
        Path bad = Files.writeString(tmp.resolve("bad.json"), "{");
        CliRun.run("export", bad.toString()).badInput(bad.toString());
    }

    @Test
    void aSavedTreeExportsItsCounts() {
        Path root = dev.corescope.topology.Fixtures.root("16amd64-8n2c");
        String out = CliRun.run("export", "--root", root.toString()).succeeded().out();
        // the one line that depends on the moment: when the machine was read
        CliRun.assertApproved("cli/export-16amd64-8n2c.prom", out.replaceAll("(?m)^(corescope_probe_timestamp_seconds) \\S+$", "$1 {now}"), Map.of());
        assertFalse(out.contains("state=\"allowed\""), "a saved tree has no process to ask");
    }
}
