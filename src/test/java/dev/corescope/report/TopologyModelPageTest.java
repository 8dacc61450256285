package dev.corescope.report;

import dev.corescope.topology.Fixtures;
import dev.corescope.topology.HwlocXmlWriter;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologySvg;
import dev.corescope.topology.TopologyText;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
