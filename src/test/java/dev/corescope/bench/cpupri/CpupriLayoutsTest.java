package dev.corescope.bench.cpupri;

import dev.corescope.bench.cpupri.CpupriLayouts.Config;
import dev.corescope.bench.cpupri.CpupriLayouts.Kind;
import dev.corescope.report.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.StructLayout;

import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_NR_PRIORITIES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpupriLayoutsTest {

    private static final Config SEED = Config.offstack(64);

    @Test
    void offstackLayoutsWith64ByteLinesGiveTheSeedsCacheLineCounts() {
        assertEquals(26, CpupriLayouts.report(Kind.PACKED, SEED).cacheLines());
        assertEquals(203, CpupriLayouts.report(Kind.ALIGNED, SEED).cacheLines());
        assertEquals(21, CpupriLayouts.report(Kind.SPLIT, SEED).cacheLines());
    }

    @Test
    void offstackLayoutsHaveTheExactSizesOfTheCStructs() {
        // packed: 101 x {int, 4 pad, ptr} + ptr; aligned: 101 x 128 + 8, rounded to 64;
        // split: 64 (counts[0]) + 400 + 48 pad + 808 + 8, rounded to 64.
        assertEquals(1624, CpupriLayouts.layout(Kind.PACKED, SEED).byteSize());
        assertEquals(12992, CpupriLayouts.layout(Kind.ALIGNED, SEED).byteSize());
        assertEquals(1344, CpupriLayouts.layout(Kind.SPLIT, SEED).byteSize());
    }

    @Test
    void packedPutsCountAndMaskOfEveryPriorityOnOneLine() {
        StructLayout l = CpupriLayouts.layout(Kind.PACKED, SEED);
        for (int p = 0; p < CPUPRI_NR_PRIORITIES; p++) {
            long count = CpupriLayouts.countOffset(l, Kind.PACKED, p);
            long mask = CpupriLayouts.maskOffset(l, Kind.PACKED, p);
            assertEquals(16L * p, count);
            assertEquals(16L * p + 8, mask);
            assertEquals(count / 64, mask / 64, "priority " + p);
        }
    }

    @Test
    void alignedPutsEachMaskOnItsOwnLineAwayFromEveryCount() {
        StructLayout l = CpupriLayouts.layout(Kind.ALIGNED, SEED);
        for (int p = 0; p < CPUPRI_NR_PRIORITIES; p++) {
            long mask = CpupriLayouts.maskOffset(l, Kind.ALIGNED, p);
            assertEquals(128L * p, CpupriLayouts.countOffset(l, Kind.ALIGNED, p));
            assertEquals(128L * p + 64, mask);
            assertEquals(0, mask % 64);
            for (int q = 0; q < CPUPRI_NR_PRIORITIES; q++) {
                assertNotEquals(mask / 64, CpupriLayouts.countOffset(l, Kind.ALIGNED, q) / 64);
            }
        }
    }

    @Test
    void splitKeepsCount0AloneAndMasksAwayFromAllCounts() {
        StructLayout l = CpupriLayouts.layout(Kind.SPLIT, SEED);
        assertEquals(0, CpupriLayouts.countOffset(l, Kind.SPLIT, 0));
        assertEquals(64, CpupriLayouts.countOffset(l, Kind.SPLIT, 1));
        assertEquals(64 + 4 * 99, CpupriLayouts.countOffset(l, Kind.SPLIT, 100));
        assertEquals(512, CpupriLayouts.maskOffset(l, Kind.SPLIT, 0));
        assertEquals(512 + 8 * 100, CpupriLayouts.maskOffset(l, Kind.SPLIT, 100));
        assertEquals(1320, CpupriLayouts.cpuToPriOffset(l));
        long lastCountLine = CpupriLayouts.countOffset(l, Kind.SPLIT, 100) / 64;
        for (int p = 1; p < CPUPRI_NR_PRIORITIES; p++) {
            assertNotEquals(0, CpupriLayouts.countOffset(l, Kind.SPLIT, p) / 64, "counts[" + p + "] shares counts[0]'s line");
            assertTrue(CpupriLayouts.maskOffset(l, Kind.SPLIT, p) / 64 > lastCountLine);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void rowsCoverTheStructWithoutGapsOrOverlaps(Kind kind) {
        for (Config c : new Config[]{SEED, Config.offstack(128), Config.inline(64, 64), Config.inline(64, 8192)}) {
            Layout layout = CpupriLayouts.report(kind, c);
            long next = 0;
            for (Layout.Row r : layout.rows()) {
                assertEquals(next, r.offset(), kind + " " + c + " at " + r);
                assertTrue(r.size() > 0);
                next = r.offset() + r.size();
            }
            assertEquals(layout.sizeBytes(), next, kind + " " + c);
        }
    }

    @Test
    void packedRowsShowPaddingBetweenCountAndPointerAsItsOwnRow() {
        var rows = CpupriLayouts.report(Kind.PACKED, SEED).rows();
        assertEquals(new Layout.Row(0, 4, "field", "pri_to_cpu[0].count"), rows.get(0));
        assertEquals(new Layout.Row(4, 4, "padding", "(padding)"), rows.get(1));
        assertEquals(new Layout.Row(8, 8, "field", "pri_to_cpu[0].mask"), rows.get(2));
        assertTrue(rows.contains(new Layout.Row(32, 97 * 16, "field", "pri_to_cpu[2..98]")), rows.toString());
        assertEquals(new Layout.Row(1616, 8, "field", "cpu_to_pri"), rows.getLast());
    }

    @ParameterizedTest
    @ValueSource(ints = {64, 512, 4096, 8192})
    void inlineMasksGrowWithNrCpus(int nrCpus) {
        long maskBytes = 8L * ((nrCpus + 63) / 64);
        Config c = Config.inline(64, nrCpus);
        assertEquals(CPUPRI_NR_PRIORITIES * (8 + maskBytes) + 8, CpupriLayouts.layout(Kind.PACKED, c).byteSize());
        long alignedVec = 64 + ((maskBytes + 63) / 64) * 64;
        assertEquals(roundUp(CPUPRI_NR_PRIORITIES * alignedVec + 8, 64), CpupriLayouts.layout(Kind.ALIGNED, c).byteSize());
        assertEquals(roundUp(512 + CPUPRI_NR_PRIORITIES * maskBytes + 8, 64), CpupriLayouts.layout(Kind.SPLIT, c).byteSize());
    }

    @Test
    void a128ByteLineAlignsTheMaskTo128() {
        Config c = Config.offstack(128);
        StructLayout l = CpupriLayouts.layout(Kind.ALIGNED, c);
        assertEquals(128, CpupriLayouts.maskOffset(l, Kind.ALIGNED, 0));
        assertEquals(256, CpupriLayouts.countOffset(l, Kind.ALIGNED, 1));
        assertEquals(128, CpupriLayouts.countOffset(CpupriLayouts.layout(Kind.SPLIT, c), Kind.SPLIT, 1));
    }

    private static long roundUp(long v, long to) {
        return (v + to - 1) / to * to;
    }
}
