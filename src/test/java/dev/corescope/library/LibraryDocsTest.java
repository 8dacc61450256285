package dev.corescope.library;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/library.md's "use it from your code" lines are the ones examples/ compiles and
 * examples/run.sh runs (on the class path and the module path, in CI): a change to one that
 * is not made to the other fails here.
 */
class LibraryDocsTest {

    private static final Path DOCS = Path.of("docs/library.md");
    private static final Path EXAMPLE = Path.of("examples/src/main/java/dev/corescope/examples/UseFromYourCode.java");
    private static final String START = "// --- docs/library.md: use it from your code ---";
    private static final String END = "// --- end ---";

    @Test
    void theDocsExampleIsTheOneExamplesRuns() throws IOException {
        assertEquals(exampleLines(), docsLines());
    }

    @Test
    void theDocsImportsAreTheExamplesImports() throws IOException {
        List<String> imports = Files.readAllLines(EXAMPLE).stream().filter(l -> l.startsWith("import dev.corescope.")).toList();
        List<String> docs = docsBlock().stream().filter(l -> l.startsWith("import ")).toList();
        assertEquals(imports, docs);
    }

    /** The lines between the marks, without the method body's indent. */
    private static List<String> exampleLines() throws IOException {
        List<String> all = Files.readAllLines(EXAMPLE);
        int from = indexOfStripped(all, START), to = indexOfStripped(all, END);
        assertTrue(from >= 0 && to > from, "the marks are in " + EXAMPLE);
        List<String> out = new ArrayList<>();
        for (String l : all.subList(from + 1, to)) out.add(l.startsWith("        ") ? l.substring(8) : l.strip());
        return out;
    }

    /** The docs' code lines after the imports. */
    private static List<String> docsLines() throws IOException {
        return docsBlock().stream().filter(l -> !l.startsWith("import ") && !l.isBlank()).toList();
    }

    /** The java block that follows the sentence naming UseFromYourCode.java. */
    private static List<String> docsBlock() throws IOException {
        List<String> lines = Files.readAllLines(DOCS);
        int named = -1;
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains("examples/UseFromYourCode.java")) { named = i; break; }
        assertTrue(named >= 0, "docs/library.md names the example file");
        int open = named;
        while (open < lines.size() && !lines.get(open).equals("```java")) open++;
        int close = open + 1;
        while (close < lines.size() && !lines.get(close).equals("```")) close++;
        assertTrue(close < lines.size(), "a java block follows");
        return lines.subList(open + 1, close);
    }

    private static int indexOfStripped(List<String> lines, String s) {
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).strip().equals(s)) return i;
        return -1;
    }
}
