package dev.corescope.bench;

import dev.corescope.testing.SavedRuns;
import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One home per datum: a family's model points at its rows ({@code results[]}), layouts and
 * histograms, it holds no copy of them. Files from before, which hold copies, still read and
 * render as they did.
 */
class ModelPointersTest {

    private static final Path BASE = Path.of(System.getProperty("corescope.basedir", "."));

    /** The results files this version writes (the {@code before-*} folders keep older shapes on purpose). */
    static Stream<Path> committedFiles() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path dir : List.of(BASE.resolve("docs/results"), BASE.resolve("docs/results/repeat"), BASE.resolve("src/test/resources/results"),
                BASE.resolve("src/test/resources/results/machines"))) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.toString().endsWith(".json")).sorted().forEach(out::add);
            }
        }
        return out.stream().filter(ModelPointersTest::isResultsFile);
    }

    private static boolean isResultsFile(Path p) {
        try {
            return Json.MAPPER.readTree(p.toFile()).has("schema");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The files written before models pointed at their rows. */
    static Stream<Path> filesWithCopies() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path dir : List.of(BASE.resolve("src/test/resources/results/before-round3"),
                BASE.resolve("src/test/resources/results/before-notes-as-data"))) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.toString().endsWith(".json")).sorted().forEach(out::add);
            }
        }
        return out.stream();
    }

    /** Where in {@code file}'s models an object equals a row, a layout or a histogram of the file ({@code models.cpupri.heap[0].layout}). */
    static List<String> copies(JsonNode file) {
        Set<JsonNode> rows = new HashSet<>();
        for (String section : List.of("results", "layouts", "histograms")) file.path(section).forEach(rows::add);
        List<String> out = new ArrayList<>();
        walk(file.path("models"), "models", rows, out);
        return out;
    }

    private static void walk(JsonNode node, String at, Set<JsonNode> rows, List<String> out) {
        if (node.isObject()) {
            if (rows.contains(node)) {
                out.add(at);
                return;
            }
            node.properties().forEach(e -> walk(e.getValue(), at + "." + e.getKey(), rows, out));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) walk(node.get(i), at + "[" + i + "]", rows, out);
        }
    }

    /** {@code file} with each family's model written again by this version. */
    static ResultsFile rewritten(ResultsFile file) {
        ResultsFile.Builder b = file.toBuilder();
        for (BenchFamily f : Families.all()) f.model(file).ifPresent(m -> b.model(f.name(), Json.MAPPER.valueToTree(m)));
        return b.build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("committedFiles")
    void aModelHoldsNoCopyOfARow(Path file) throws IOException {
        assertEquals(List.of(), copies(Json.MAPPER.readTree(file.toFile())), file + ": these parts of its models copy a row");
    }

    @Test
    void theWalkFindsACopy() throws IOException {
        JsonNode file = Json.MAPPER.readTree(BASE.resolve("src/test/resources/results/before-round3/bench-all-full.json").toFile());
        List<String> found = copies(file);
        assertTrue(found.contains("models.cpupri.structs[0].layout"), found.toString());
        assertTrue(found.contains("models.timerbase.columns[0].histogram"), found.toString());
        assertTrue(found.contains("models.c2c.jmh"), found.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filesWithCopies")
    void aFileWithCopiesReadsAndItsModelWrittenAgainPointsAndRendersTheSame(Path path, @TempDir Path dir) throws IOException {
        ResultsFile old = SavedRuns.lenient(path);
        Path again = dir.resolve("again.json");
        Files.writeString(again, Json.write(rewritten(old)));
        JsonNode tree = Json.MAPPER.readTree(again.toFile());
        assertEquals(List.of(), copies(tree));
        ResultsFile now = SavedRuns.lenient(again);
        int rendered = 0;
        for (BenchFamily f : Families.all()) {
            assertEquals(f.text(old), f.text(now), f.name() + ": the same text from the file written again");
            if (f.text(old).isPresent()) rendered++;
        }
        assertTrue(rendered > 0, "some family has a model in " + path);
        assertFalse(Files.size(again) > Files.size(path), "no bigger than before");
    }
}
