package dev.corescope.bench.cpupri;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class HeapLayoutsTest {

    private static final int LINE = 64;

    @Test
    void packedObjectPutsCountAndMaskWithinOneLine() {
        var h = HeapLayouts.of("heap_packed", LINE);
        assertTrue(h.gap() < LINE, "gap " + h.gap());
        assertFalse(h.apart(LINE));
    }

    @Test
    void handPaddedObjectKeepsAWholeLineBetweenCountAndMask() {
        var h = HeapLayouts.of("heap_padded", LINE);
        assertTrue(h.countOffset() < h.maskOffset(), "superclass fields come first");
        assertTrue(h.apart(LINE), "count at " + h.countOffset() + ", mask at " + h.maskOffset());
        assertTrue(h.instanceSize() - h.maskOffset() >= LINE, "padding after the mask, too");
        assertTrue(h.layout().rows().contains(new dev.corescope.report.Layout.Row(16, 64, "padding", "PaddedGap.p01..p08")),
                h.layout().rows().toString());
    }

    @Test
    void contendedObjectIsPaddedWhenRestrictContendedIsOff() {
        assumeTrue(ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:-RestrictContended"),
                "this JVM was started without -XX:-RestrictContended (surefire and run.sh pass it)");
        var h = HeapLayouts.of("heap_contended", LINE);
        assertTrue(h.apart(LINE), "count at " + h.countOffset() + ", mask at " + h.maskOffset());
        assertTrue(h.instanceSize() > HeapLayouts.of("heap_packed", LINE).instanceSize());
    }

    @Test
    void rowsCoverEachObjectExactly() {
        for (String v : HeapLayouts.VARIANTS) {
            var h = HeapLayouts.of(v, LINE);
            long next = 0;
            for (var r : h.layout().rows()) {
                assertEquals(next, r.offset(), v + " " + r);
                next = r.offset() + r.size();
            }
            assertEquals(h.instanceSize(), next, v);
            assertEquals(v, h.layout().name());
            assertEquals(h.countOffset(), ((Number) h.layout().params().get("countOffset")).longValue());
        }
    }
}
