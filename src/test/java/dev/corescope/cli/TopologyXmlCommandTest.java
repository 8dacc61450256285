package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.corescope.testing.TopologyFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code topology --format hwloc-xml} and {@code topology --from FILE.xml} from the command line. */
class TopologyXmlCommandTest {

    @TempDir
    Path tmp;

    private static Path hwlocFile(String name) {
        return TopologyFixtures.dir().resolveSibling("hwloc-xml").resolve(name);
    }

    private static void assertOneLineError(CliRun r, String startsWith) {
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith(startsWith), r.err());
    }

    @Test
    void everyViewWorksOnHwlocXml() throws Exception {
        Path f = hwlocFile("v2-96em64t-4n4d3ca2co-pci.xml");
        CliRun text = CliRun.run("topology", "--from", f.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("16 packages, 96 cores, 96 PUs, 4 NUMA nodes"), text.out());
        CliRun json = CliRun.run("topology", "--from", f.toString(), "--format", "json");
        JsonNode j = new ObjectMapper().readTree(json.out());
        assertEquals(96, j.path("summary").path("pus").asInt());
        CliRun svg = CliRun.run("topology", "--from", f.toString(), "--format", "svg");
        assertTrue(svg.out().startsWith("<svg") || svg.out().contains("<svg"), svg.err());
        CliRun again = CliRun.run("topology", "--from", f.toString(), "--format", "hwloc-xml");
        Path back = Files.writeString(tmp.resolve("back.xml"), again.out());
        assertEquals(text.out().replace(f.toString(), "X"), CliRun.run("topology", "--from", back.toString()).out().replace(back.toString(), "X"));
    }

    @Test
    void hwlocXmlOfTheLiveMachineStartsAsHwlocWritesIt() {
        CliRun r = CliRun.run("topology", "--format", "hwloc-xml");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n<topology version=\"2.0\">"));
    }

    @Test
    void badXmlIsOneLineExit2() throws Exception {
        Path f = Files.writeString(tmp.resolve("bad.xml"), "<topology version=\"2.0\"><object type=\"Machine\"");
        assertOneLineError(CliRun.run("topology", "--from", f.toString()), "corescope: --from " + f + ": not well-formed XML");
    }

    @Test
    void aMissingFileIsOneLineExit2() {
        assertOneLineError(CliRun.run("topology", "--from", tmp.resolve("none.xml").toString()), "corescope: --from " + tmp.resolve("none.xml"));
    }

    @Test
    void rootAndFromTogetherAreRefused() {
        assertOneLineError(CliRun.run("topology", "--root", tmp.toString(), "--from", hwlocFile("v2-fakecpukinds.xml").toString()), "corescope: --from");
    }

    @Test
    void anUnknownFormatNamesTheFour() {
        CliRun r = CliRun.run("topology", "--format", "xml");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("text, json, svg or hwloc-xml"), r.err());
    }
}
