package dev.corescope.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28: {@code report} and {@code compare} read a good results file straight into its model,
 * without the whole JSON tree (about ten times the file in the heap, 19-54x the input at peak);
 * a file with something wrong still gets the tree path's exact message. Counts trees read, not memory.
 */
class ReadWithoutTreeTest {

    @TempDir
    Path dir;

    private Path file(int rows) throws Exception {
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            results.add(Result.builder().benchmark("cpumask").variant("v" + (i % 7)).implementation(i % 2 == 0 ? "java" : "native")
                    .metric("op").unit("ns").score(1 + i).error(0.5).samples(10).param("copy", i).build());
        }
        Path f = dir.resolve("r" + rows + ".json");
        Files.writeString(f, Json.write(ResultsFile.builder().results(results).build()));
        return f;
    }

    @Test
    void aGoodFileIsReadWithoutItsTreeAndAsTheTreePathReadsIt() throws Exception {
        Path f = file(2000);
        long trees = Json.TREES_READ.sum();
        ResultsFile streamed = Json.readResultsChecked(f);
        ResultsFile rows = RowIdentity.read(f);
        assertEquals(trees, Json.TREES_READ.sum(), "report and compare built a JSON tree of a good file");
        ResultsFile viaTree = Json.readResultsChecked(f, Json.readTreeChecked(f));
        assertEquals(Json.write(viaTree), Json.write(streamed));
        assertEquals(Json.write(viaTree), Json.write(rows));
        assertEquals(2000, streamed.results().size());
    }

    @Test
    void aBadFileStillGetsTheTreePathsMessage() throws Exception {
        Path nullRow = dir.resolve("null-row.json");
        Files.writeString(nullRow, "{\"schema\": \"corescope-results/1\", \"results\": [null]}");
        var e = assertThrows(BadResultsFileException.class, () -> Json.readResultsChecked(nullRow));
        assertTrue(e.getMessage().contains("results[0]: null where an entry belongs"), e.getMessage());

        Path nullLayoutRow = dir.resolve("null-layout-row.json");
        Files.writeString(nullLayoutRow, "{\"schema\": \"corescope-results/1\", \"results\": [{\"benchmark\": \"c\", \"variant\": \"v\","
                + " \"implementation\": \"java\", \"metric\": \"m\", \"unit\": \"ns\", \"score\": 1}],"
                + " \"layouts\": [{\"name\": \"x\", \"rows\": [null]}]}");
        e = assertThrows(BadResultsFileException.class, () -> Json.readResultsChecked(nullLayoutRow));
        assertTrue(e.getMessage().contains("layouts[0].rows[0]: null where an entry belongs"), e.getMessage());

        Path wrongType = dir.resolve("wrong-type.json");
        Files.writeString(wrongType, "{\"schema\": \"corescope-results/1\", \"results\": [{\"benchmark\": \"c\", \"score\": \"fast\"}]}");
        e = assertThrows(BadResultsFileException.class, () -> Json.readResultsChecked(wrongType));
        assertTrue(e.getMessage().contains("results[0].score: expected a number, found a string"), e.getMessage());

        Path otherSchema = dir.resolve("other.json");
        Files.writeString(otherSchema, "{\"schema\": \"x/1\", \"results\": []}");
        e = assertThrows(BadResultsFileException.class, () -> RowIdentity.read(otherSchema));
        assertTrue(e.getMessage().contains("schema 'x/1'"), e.getMessage());
    }
}
