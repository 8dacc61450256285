package dev.corescope.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code topology --from} refuses: DTDs with declarations, entities, bad XML, not hwloc's. */
class HwlocXmlRefusalTest {

    @TempDir
    Path tmp;

    private static final String MACHINE = "<topology version=\"2.0\"><object type=\"Machine\" cpuset=\"0x00000003\">"
            + "<object type=\"Package\" os_index=\"0\" cpuset=\"0x00000003\"><object type=\"Core\" os_index=\"0\" cpuset=\"0x00000001\">"
            + "<object type=\"PU\" os_index=\"0\" cpuset=\"0x00000001\"/></object><object type=\"Core\" os_index=\"1\" cpuset=\"0x00000002\">"
            + "<object type=\"PU\" os_index=\"1\" cpuset=\"0x00000002\"/></object></object></object></topology>";

    private String refusal(String xml) throws Exception {
        Path f = Files.writeString(tmp.resolve("in.xml"), xml);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HwlocXmlReader.read(f));
        assertTrue(e.getMessage().startsWith(f.toString()), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        return e.getMessage();
    }

    @Test
    void aPlainMachineReads() throws Exception {
        Path f = Files.writeString(tmp.resolve("ok.xml"), "<?xml version=\"1.0\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n" + MACHINE);
        Topology t = HwlocXmlReader.read(f);
        assertEquals(new Topology.Summary(1, 0, 0, 2, 2, 1), t.summary());
    }

    @Test
    void anExternalDtdIsNeitherFetchedNorNeeded() throws Exception {
        Path f = Files.writeString(tmp.resolve("ext.xml"), "<!DOCTYPE topology SYSTEM \"http://127.0.0.1:9/hwloc2.dtd\">\n" + MACHINE);
        assertEquals(2, HwlocXmlReader.read(f).summary().pus());
    }

    @Test
    void anExternalEntityIsRefusedAndNotRead() throws Exception {
        Path secret = Files.writeString(tmp.resolve("secret"), "TOP-SECRET-VALUE");
        String xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE topology [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]>\n"
                + MACHINE.replace("<object type=\"Package\"", "<info name=\"x\" value=\"&xxe;\"/><object type=\"Package\"");
        String why = refusal(xml);
        assertFalse(why.contains("TOP-SECRET"), why);
        assertTrue(why.contains("DTD") || why.contains("entity"), why);
    }

    @Test
    void anExternalEntityInTextIsRefused() throws Exception {
        Path secret = Files.writeString(tmp.resolve("secret"), "TOP-SECRET-VALUE");
        String xml = "<!DOCTYPE topology [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]>\n"
                + "<topology version=\"2.0\"><object type=\"Machine\" cpuset=\"0x1\"><info name=\"a\">&xxe;</info></object></topology>";
        assertFalse(refusal(xml).contains("TOP-SECRET"));
    }

    @Test
    void billionLaughsIsRefusedQuickly() throws Exception {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE topology [<!ENTITY lol0 \"lol\">");
        for (int i = 1; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"");
            for (int j = 0; j < 10; j++) dtd.append("&lol").append(i - 1).append(';');
            dtd.append("\">");
        }
        dtd.append("]>\n");
        String why = refusal(dtd + "<topology version=\"2.0\"><object type=\"Machine\" cpuset=\"0x1\"><info name=\"a\" value=\"&lol9;\"/></object></topology>");
        assertTrue(why.contains("DTD") || why.contains("entity"), why);
    }

    @Test
    void anUndeclaredEntityIsRefused() throws Exception {
        refusal(MACHINE.replace("<object type=\"Package\"", "<info name=\"a\" value=\"&nope;\"/><object type=\"Package\""));
    }

    @Test
    void malformedXmlNamesTheLine() throws Exception {
        String why = refusal("<topology version=\"2.0\">\n<object type=\"Machine\" cpuset=\"0x1\">\n</topology>");
        assertTrue(why.contains("not well-formed XML: line"), why);
    }

    @Test
    void otherXmlIsNotATopology() throws Exception {
        assertTrue(refusal("<html><body/></html>").contains("not hwloc's <topology>"));
    }

    @Test
    void aBadBitmapIsNamed() throws Exception {
        assertTrue(refusal(MACHINE.replace("cpuset=\"0x00000003\">", "cpuset=\"zz\">")).contains("not an hwloc bitmap"));
    }

    @Test
    void aMultiMachineSystemOfHwloc1IsRefused() throws Exception {
        Path f = TopologyFixturesXml.dir().resolve("v1-8em64t-2mi2ma2c.xml");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HwlocXmlReader.read(f));
        assertTrue(e.getMessage().contains("corescope reads one machine"), e.getMessage());
    }

    /** corescope's own infos (the writer's affinity, isolated, nohz_full) are input too: a bad one is refused in one line naming it. */
    @Test
    void aBadCorescopeInfoIsRefusedNamingItAndAGoodOneReads() throws Exception {
        String at = "<object type=\"Package\"";
        for (String name : new String[] {"corescope.sched_getaffinity", "corescope.isolated", "corescope.nohz_full"}) {
            for (String value : new String[] {"<script>alert(1)", "0xf...f", "0x" + "1".repeat(9), "0x1,".repeat(20_000) + "0x1"}) {
                String xml = MACHINE.replace(at, "<info name=\"" + name + "\" value=\"" + value.replace("<", "&lt;") + "\"/>" + at);
                String why = refusal(xml);
                assertTrue(why.contains(name), name + " named: " + why);
                assertFalse(why.contains("\u001b") || why.length() > 400, "short and without control characters: " + why);
            }
        }
        Path f = Files.writeString(tmp.resolve("info.xml"), MACHINE.replace(at, "<info name=\"corescope.sched_getaffinity\" value=\"0x00000002\"/>"
                + "<info name=\"corescope.isolated\" value=\"0x00000002\"/>" + at));
        Topology t = HwlocXmlReader.read(f);
        assertEquals("1", t.allowed().orElseThrow().toList());
        assertEquals("1", t.isolated().toList());
    }

    @Test
    void randomBytesAreOneLineInCorescopesWordsAndNothingFromTheParserOnStderr() throws Exception {
        byte[] noise = new byte[4096];
        new java.util.Random(37).nextBytes(noise);
        Path f = Files.write(tmp.resolve("noise.xml"), noise);
        java.io.PrintStream saved = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        IllegalArgumentException e;
        try {
            System.setErr(new java.io.PrintStream(err, true));
            e = assertThrows(IllegalArgumentException.class, () -> HwlocXmlReader.read(f));
        } finally {
            System.setErr(saved);
        }
        assertEquals("", err.toString(), "the parser printed to stderr");
        assertEquals(f + ": not UTF-8 text, so not hwloc's XML (which is UTF-8)", e.getMessage());
    }

    /** The JDK's limits (depth 100, 200 attributes) would speak JAXP's words; the reader's own apply. */
    @Test
    void wellFormedXmlPastTheJdksLimitsMeetsTheReadersOwn() throws Exception {
        String at = "<object type=\"Package\"";
        Path deep = Files.writeString(tmp.resolve("deep.xml"), MACHINE.replace(at, "<x>".repeat(101) + "</x>".repeat(101) + at));
        assertEquals(2, HwlocXmlReader.read(deep).summary().pus(), "depth 101 is within the reader's 128");
        String tooDeep = refusal(MACHINE.replace(at, "<x>".repeat(130) + "</x>".repeat(130) + at));
        assertTrue(tooDeep.endsWith("nested deeper than 128 elements"), tooDeep);
        StringBuilder attrs = new StringBuilder("<x");
        for (int i = 0; i < 201; i++) attrs.append(" a").append(i).append("=\"1\"");
        String many = refusal(MACHINE.replace(at, attrs + "/>" + at));
        assertTrue(many.contains("an element with 201 attributes, more than the 64"), many);
        for (String why : List.of(tooDeep, many)) assertFalse(why.contains("JAXP") || why.contains("jdk.xml"), why);
    }

    @Test
    void aPuIsACpuNumberThatATreeCouldHave() throws Exception {
        for (String os : List.of("-1", "65536", "99999999999")) {
            String why = refusal(MACHINE.replace("<object type=\"PU\" os_index=\"1\"", "<object type=\"PU\" os_index=\"" + os + "\""));
            assertTrue(why.contains("os_index=\"" + os + "\">: not a CPU number (0 to 65535"), why);
        }
    }

    @Test
    void eachCpuIsOnePuAndTwoCoresWithOneIdAreWarnedAbout() throws Exception {
        String twice = refusal(MACHINE.replace("<object type=\"PU\" os_index=\"1\" cpuset=\"0x00000002\"/>",
                "<object type=\"PU\" os_index=\"0\" cpuset=\"0x00000001\"/>"));
        assertTrue(twice.endsWith("CPU 0 is in two PUs; each CPU is one PU"), twice);
        Path f = Files.writeString(tmp.resolve("cores.xml"), MACHINE.replace("<object type=\"Core\" os_index=\"1\"", "<object type=\"Core\" os_index=\"0\""));
        Topology t = HwlocXmlReader.read(f);
        assertEquals(2, t.summary().cores());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("two cores of package 0 have core id 0")), t.warnings().toString());
    }

    @Test
    void aMachineWithoutCpusAndANegativeSizeAreRefused() throws Exception {
        String empty = refusal(MACHINE.replace("<object type=\"Machine\" cpuset=\"0x00000003\">", "<object type=\"Machine\" cpuset=\"\">"));
        assertTrue(empty.contains("hold no CPU"), empty);
        String at = "<object type=\"Core\" os_index=\"0\"";
        String memory = refusal(MACHINE.replace(at, "<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x00000003\" local_memory=\"-1\"/>" + at));
        assertTrue(memory.contains("local_memory=\"-1\" of <object type=\"NUMANode\">: not a size"), memory);
        String cache = refusal(MACHINE.replace(at, "<object type=\"L2Cache\" cpuset=\"0x00000001\" cache_size=\"-5\"/>" + at));
        assertTrue(cache.contains("cache_size=\"-5\""), cache);
    }

    @Test
    void aLongCpuModelIsCutAsAnyNameIs() throws Exception {
        String model = "M".repeat(20_000_000);
        Path f = Files.writeString(tmp.resolve("model.xml"), MACHINE.replace("<object type=\"Core\" os_index=\"0\"",
                "<info name=\"CPUModel\" value=\"" + model + "\"/><object type=\"Core\" os_index=\"0\""));
        String got = HwlocXmlReader.read(f).cpuModel().orElseThrow();
        assertEquals(Topology.MAX_NAME, got.length());
        assertTrue(got.endsWith("MMM..."), got.substring(got.length() - 10));
    }
}
