package dev.corescope.bench.c2c;

import dev.corescope.report.Matrix;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class C2cHeatmapTest {

    /** Two packages of two cores: fast inside a package, slow across. */
    static final Matrix FOUR = new Matrix(new int[]{0, 1, 2, 3}, "ns",
            new Double[][]{{null, 48.2, 131.0, 129.5}, {47.9, null, 130.2, 133.3},
                    {130.8, 131.1, null, 50.4}, {128.7, 132.0, 49.9, null}},
            new Double[][]{{null, 0.4, 1.1, 0.9}, {0.5, null, 1.0, 1.2}, {0.8, 1.0, null, 0.6}, {1.3, 0.9, 0.4, null}});

    static final List<C2cModel.Cpu> PLACES = List.of(
            new C2cModel.Cpu(0, 0, "L3#0", 0),
            new C2cModel.Cpu(1, 1, "L3#0", 0),
            new C2cModel.Cpu(2, 0, "L3#1", 1),
            new C2cModel.Cpu(3, 1, "L3#1", 1));

    @Test
    void heatmapMatchesTheApprovedFile() throws IOException {
        String svg = C2cHeatmap.svg(FOUR, PLACES, "Core-to-core latency <test>");
        dev.corescope.testing.Approved.verify("c2c/heatmap-2x2.svg", svg);
    }

    @Test
    void heatmapLabelsCpusEscapesTextAndMarksThePackageBoundary() {
        String svg = C2cHeatmap.svg(FOUR, PLACES, "a & b");
        assertTrue(svg.contains("a &amp; b"));
        assertTrue(svg.contains("cpu2 c0 L3#1 p1"));
        assertTrue(svg.contains("CPU 0 \u2192 CPU 2: 131.0 \u00b1 1.1 ns"));
        assertTrue(svg.contains("stroke-width=\"2.5\""), "a thick line between the packages");
        assertTrue(svg.contains("same CPU"));
    }

    @Test
    void nearlyEqualLatenciesGetNearlyEqualColoursNotTheTwoEnds() {
        Matrix two = new Matrix(new int[]{0, 1}, "ns", new Double[][]{{null, 26.55}, {26.46, null}}, null);
        String svg = C2cHeatmap.svg(two, PLACES.subList(0, 2), "t");
        assertTrue(svg.contains("fill=\"#fde725\""), "the fastest pair is the light end");
        assertTrue(!svg.contains("fill=\"#440154\" stroke"), "the other is not painted the dark end");
    }

    @Test
    void theLegendRunsFromTheFastestCellToTheSlowest() {
        Matrix two = new Matrix(new int[]{0, 1}, "ns", new Double[][]{{null, 26.55}, {26.46, null}}, null);
        String svg = C2cHeatmap.svg(two, PLACES.subList(0, 2), "t");
        assertTrue(svg.contains(">26.5 ns</text>") && svg.contains(">26.6 ns</text>"), svg);
        assertTrue(!svg.contains(">29.2 ns</text>"), "no end at a value no cell has (26.46 + 10% of 26.55)");
    }

    @Test
    void heatmapRefusesLabelsThatDoNotMatchTheCpus() {
        assertThrows(IllegalArgumentException.class, () -> C2cHeatmap.svg(FOUR, PLACES.subList(0, 3), "x"));
    }
}
