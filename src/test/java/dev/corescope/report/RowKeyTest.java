package dev.corescope.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** One recipe for a row's identity, and builders that name every part of a row and a file. */
class RowKeyTest {

    private static Result.Builder row() {
        return Result.builder().benchmark("cpumask").variant("first_but").implementation("java").metric("op").unit("ns/op")
                .score(1.5).error(0.01).samples(10).cpus("0");
    }

    @Test
    void aParamReadBackAsALongIsTheSameKeyAsTheIntWritten() {
        RowKey written = row().param("nrCpus", 64).build().key();
        RowKey read = row().param("nrCpus", 64L).build().key();
        assertEquals(written, read);
        assertEquals("cpumask first_but java op nrCpus=64", written.label());
    }

    @Test
    void javaAndCOfOneMeasurementShareTheKeyWithoutImplementation() {
        RowKey java = row().build().key();
        RowKey c = row().implementation("native").build().key();
        assertNotEquals(java, c);
        assertEquals(java.withoutImplementation(), c.withoutImplementation());
    }

    @Test
    void aRowWithoutItsIdentityIsNotBuilt() {
        assertThrows(NullPointerException.class, () -> Result.builder().benchmark("cpumask").variant("x").build());
    }

    @Test
    void anUnknownErrorIsAbsentNotNaN() {
        assertEquals(null, row().error(Double.NaN).build().error());
    }

    @Test
    void toBuilderKeepsEveryPartOfAFile() {
        ResultsFile f = ResultsFile.builder().results(List.of(row().build())).failures(List.of(new ResultsFile.Failure("locks", "boom")))
                .model("cpumask", Json.MAPPER.valueToTree(Map.of("a", 1))).build();
        assertEquals(f, f.toBuilder().build());
        assertEquals(ResultsFile.SCHEMA, f.schema());
        assertEquals(1, f.toBuilder().results(null).build().failures().size());
    }
}
