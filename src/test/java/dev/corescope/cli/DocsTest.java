package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The documentation cannot drift from the repository: every relative link of README.md and
 * docs/ resolves inside it (file and heading), and every JSON field the code writes is named in
 * docs/.
 */
class DocsTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$", Pattern.MULTILINE);
    private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");

    @TempDir
    Path dir;

    static List<Path> markdownFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        files.add(ROOT.resolve("CHANGELOG.md"));
        try (Stream<Path> s = Files.walk(ROOT.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        return files;
    }

    /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
    static String slug(String heading) {
        String s = heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "");
        return s.replace(' ', '-');
    }

    static Set<String> anchors(Path md) throws IOException {
        String text = FENCE.matcher(Files.readString(md)).replaceAll("");
        Set<String> out = new TreeSet<>();
        Matcher m = HEADING.matcher(text);
        while (m.find()) out.add(slug(m.group(1)));
        return out;
    }

    @Test
    void everyRelativeLinkInTheReadmeAndDocsResolvesInsideTheRepository() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path md : markdownFiles()) {
            String text = FENCE.matcher(Files.readString(md)).replaceAll("");
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) continue;                 // https:, mailto:
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path resolved = file.isEmpty() ? md : md.getParent().resolve(file).normalize();
                String where = ROOT.relativize(md) + ": " + target;
                if (!resolved.startsWith(ROOT)) { broken.add(where + " (outside the repository)"); continue; }
                if (!Files.exists(resolved)) { broken.add(where + " (no such file)"); continue; }
                if (anchor != null && resolved.toString().endsWith(".md") && !anchors(resolved).contains(anchor)) {
                    broken.add(where + " (no such heading)");
                }
            }
        }
        assertEquals(List.of(), broken);
    }

    private static String allDocs() throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> s = Files.walk(ROOT.resolve("docs"))) {
            for (Path p : s.filter(p -> p.toString().endsWith(".md")).toList()) sb.append(Files.readString(p));
        }
        return sb.toString();
    }

    /** Every object key below {@code node}, except the names inside {@code params} (a benchmark's own). */
    private static void keys(JsonNode node, Set<String> out) {
        if (node.isArray()) node.forEach(n -> keys(n, out));
        if (!node.isObject()) return;
        node.properties().forEach(e -> {
            out.add(e.getKey());
            if (!e.getKey().equals("params")) keys(e.getValue(), out);
        });
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(new StringWriter(), true));
        cl.execute(args);
        return out.toString();
    }

    @Test
    void everyJsonFieldTheCodeWritesIsNamedInTheDocs() throws IOException {
        Set<String> fields = new TreeSet<>();
        keys(Json.MAPPER.readTree(run("mask", "--format", "json", "0-3")), fields);
        keys(Json.MAPPER.readTree(run("affinity", "--format", "json")), fields);
        String fixtures = ROOT.resolve("src/test/resources/results").toString();
        try (Stream<Path> s = Files.list(Path.of(fixtures))) {
            for (Path p : s.filter(p -> p.toString().endsWith(".json")).toList()) {
                JsonNode file = Json.MAPPER.readTree(p.toFile());
                if (file.path("schema").asText().startsWith("corescope-results/")) keys(file, fields);  // not JMH's own files
            }
        }
        CommandLine bench = Main.commandLine(() -> List.of(new TestFamilies.Sleeping("sleeping")), dir.resolve("tour.json"));
        StringWriter benchOut = new StringWriter();
        bench.setOut(new PrintWriter(benchOut, true));
        bench.setErr(new PrintWriter(new StringWriter(), true));
        bench.execute("bench", "all", "--quick", "--format", "json");
        keys(Json.MAPPER.readTree(benchOut.toString()), fields);
        if (Files.isDirectory(Path.of("/sys/devices/system/cpu"))) {
            keys(Json.MAPPER.readTree(run("topology", "--format", "json")), fields);
        }
        assertTrue(fields.size() > 40, "read the fields of real output: " + fields);
        String docs = allDocs();
        List<String> missing = fields.stream().filter(f -> !docs.contains("`" + f + "`") && !docs.contains("\"" + f + "\"")).toList();
        assertEquals(List.of(), missing, "JSON fields written by the code but named nowhere in docs/");
    }
}
