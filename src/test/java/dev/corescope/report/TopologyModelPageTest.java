package dev.corescope.report;

import dev.corescope.topology.Fixtures;
import dev.corescope.topology.HwlocXmlWriter;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologySvg;
import dev.corescope.topology.TopologyText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The page draws the topology from the model a results file saved (hwloc XML), not from a saved picture. */
class TopologyModelPageTest {

    static List<String> trees() {
        return List.of("16amd64-8n2c", "16em64t-4s2c2t-offlines", "20em64t-hybrid-1p6c2t+2ca4co1t", "128arm-2pa2n8cluster4co");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void thePictureDrawnFromTheSavedModelIsThePictureOfTheMachine(String name) {
        Topology t = Topology.read(Fixtures.root(name));
        MachineTopology saved = MachineTopology.of(TopologyText.summaryLine(t), null, HwlocXmlWriter.write(t));
        assertEquals(SvgSanitizer.embed(TopologySvg.render(t), "topology picture"), MachineHtml.picture(saved).orElseThrow());
    }

    /** The PUs drawn hatched (not allowed) and all PUs drawn, from a page's topology picture. */
    private static List<TreeSet<Integer>> pus(String svg) {
        TreeSet<Integer> hatched = new TreeSet<>(), all = new TreeSet<>();
        Matcher m = Pattern.compile("<rect [^>]*fill=\"([^\"]*)\"[^>]*>(?:</rect>)?\\s*<text[^>]*>PU (\\d+)</text>").matcher(svg);
        while (m.find()) {
            all.add(Integer.parseInt(m.group(2)));
            if (m.group(1).equals("url(#disallowed)")) hatched.add(Integer.parseInt(m.group(2)));
        }
        return List.of(hatched, all);
    }

    /**
     * A model saved by a process pinned to some CPUs (HwlocXmlWriter's corescope.sched_getaffinity
     * info) is drawn with exactly the other PUs hatched, as the live picture was; a model without
     * the info (a saved tree, hwloc's own XML) draws every PU allowed.
     */
    @Test
    void aRestrictedModelsPictureHatchesExactlyTheNotAllowedPus() {
        Topology t = Topology.read(Fixtures.root("16amd64-8n2c"));
        String xml = HwlocXmlWriter.write(t);
        String mark = "<info name=\"WrittenBy\" value=\"corescope\"/>";
        assertTrue(xml.contains(mark), xml);
        // CPUs 4-7 and 12 allowed
        String restricted = xml.replace(mark, mark + "<info name=\"corescope.sched_getaffinity\" value=\"0x000010f0\"/>");
        String picture = MachineHtml.picture(MachineTopology.of(TopologyText.summaryLine(t), null, restricted)).orElseThrow();
        List<TreeSet<Integer>> pus = pus(picture);
        assertEquals(16, pus.get(1).size(), "every PU drawn: " + pus);
        TreeSet<Integer> expected = new TreeSet<>(List.of(0, 1, 2, 3, 8, 9, 10, 11, 13, 14, 15));
        assertEquals(expected, pus.get(0));
        assertTrue(picture.contains("PU not allowed (sched_getaffinity)"), "the legend says what the hatching means");

        String unrestricted = MachineHtml.picture(MachineTopology.of(TopologyText.summaryLine(t), null, xml)).orElseThrow();
        assertEquals(List.of(), List.copyOf(pus(unrestricted).get(0)), "no info: every PU allowed");
        assertEquals(16, pus(unrestricted).get(1).size());
        assertFalse(unrestricted.contains("not allowed"), unrestricted);
    }
}
