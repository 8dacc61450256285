package dev.corescope.topology;

import dev.corescope.testing.Approved;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

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
    void aMultiMachineSystemOfHwloc1IsRefused() throws Exception {
        Path f = TopologyFixturesXml.dir().resolve("v1-8em64t-2mi2ma2c.xml");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HwlocXmlReader.read(f));
        assertTrue(e.getMessage().contains("corescope reads one machine"), e.getMessage());
    }

    /**
     * Each refusal in the reader's words, one line per input (the file's name left out): bad XML,
     * not hwloc's, a bad bitmap, PUs that are no CPU number or share one, a machine without CPUs,
     * negative sizes, and corescope's own infos (the writer's affinity, isolated, nohz_full), which
     * are input too.
     */
    @Test
    void everyRefusalReadsAsApproved() throws Exception {
        String pkg = "<object type=\"Package\"";
        String core = "<object type=\"Core\" os_index=\"0\"";
        Map<String, String> inputs = new LinkedHashMap<>();
        inputs.put("malformed", "<topology version=\"2.0\">\n<object type=\"Machine\" cpuset=\"0x1\">\n</topology>");
        inputs.put("other XML", "<html><body/></html>");
        inputs.put("a bad bitmap", MACHINE.replace("cpuset=\"0x00000003\">", "cpuset=\"zz\">"));
        for (String os : List.of("-1", "65536", "99999999999")) {
            inputs.put("PU os_index " + os, MACHINE.replace("<object type=\"PU\" os_index=\"1\"", "<object type=\"PU\" os_index=\"" + os + "\""));
        }
        inputs.put("one CPU in two PUs", MACHINE.replace("<object type=\"PU\" os_index=\"1\" cpuset=\"0x00000002\"/>",
                "<object type=\"PU\" os_index=\"0\" cpuset=\"0x00000001\"/>"));
        inputs.put("a machine without CPUs", MACHINE.replace("<object type=\"Machine\" cpuset=\"0x00000003\">", "<object type=\"Machine\" cpuset=\"\">"));
        inputs.put("negative memory", MACHINE.replace(core, "<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x00000003\" local_memory=\"-1\"/>" + core));
        inputs.put("negative cache size", MACHINE.replace(core, "<object type=\"L2Cache\" cpuset=\"0x00000001\" cache_size=\"-5\"/>" + core));
        for (String name : List.of("corescope.sched_getaffinity", "corescope.isolated", "corescope.nohz_full")) {
            for (String value : List.of("<script>alert(1)", "0xf...f", "0x" + "1".repeat(9), "0x1,".repeat(20_000) + "0x1")) {
                inputs.put(name + " " + (value.length() > 20 ? "20001 words" : value),
                        MACHINE.replace(pkg, "<info name=\"" + name + "\" value=\"" + value.replace("<", "&lt;") + "\"/>" + pkg));
            }
        }
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> e : inputs.entrySet()) {
            out.append(e.getKey()).append(": ").append(refusal(e.getValue()).substring((tmp.resolve("in.xml") + ": ").length())).append('\n');
        }
        Approved.verify("topology/hwloc-refusals.txt", out.toString());
    }

    @Test
    void aGoodCorescopeInfoReads() throws Exception {
        String at = "<object type=\"Package\"";
        Path f = Files.writeString(tmp.resolve("info.xml"), MACHINE.replace(at, "<info name=\"corescope.sched_getaffinity\" value=\"0x00000002\"/>"
                + "<info name=\"corescope.isolated\" value=\"0x00000002\"/>" + at));
        Topology t = HwlocXmlReader.read(f);
        assertEquals("1", t.allowed().orElseThrow().toList());
        assertEquals("1", t.isolated().toList());
    }

    @Test
    void randomBytesAreOneLineInCorescopesWordsAndNothingFromTheParserOnStderr() throws Exception {
        byte[] noise = new byte[4096];
        new Random(37).nextBytes(noise);
        Path f = Files.write(tmp.resolve("noise.xml"), noise);
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        IllegalArgumentException e;
        try {
            System.setErr(new PrintStream(err, true));
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
    void twoCoresWithOneIdAreWarnedAbout() throws Exception {
        Path f = Files.writeString(tmp.resolve("cores.xml"), MACHINE.replace("<object type=\"Core\" os_index=\"1\"", "<object type=\"Core\" os_index=\"0\""));
        Topology t = HwlocXmlReader.read(f);
        assertEquals(2, t.summary().cores());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("two cores of package 0 have core id 0")), t.warnings().toString());
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
