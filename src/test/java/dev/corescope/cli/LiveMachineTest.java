package dev.corescope.cli;

import dev.corescope.report.MachineTopology;
import dev.corescope.topology.HwlocXmlReader;
import dev.corescope.topology.TopologyText;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What a results file keeps of this machine: the model the page draws from, not a drawn picture. */
class LiveMachineTest {

    @Test
    void theResultsFileKeepsTheMachineAsAModelThatReadsBackAsThisMachine() {
        LiveMachine live = LiveMachine.read();
        assumeTrue(live.topology() != null, () -> "this machine's topology cannot be read: " + live.error());
        MachineTopology saved = live.forResults();
        assertNull(saved.svg(), "no picture is saved; the page draws one from the model");
        assertNotNull(saved.hwlocXml());
        assertEquals(TopologyText.summaryLine(live.topology()), TopologyText.summaryLine(HwlocXmlReader.read(saved.hwlocXml(), "saved")));
        assertEquals(saved.summary(), TopologyText.summaryLine(live.topology()));
    }
}
