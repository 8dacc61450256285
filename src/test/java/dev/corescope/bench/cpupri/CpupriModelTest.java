package dev.corescope.bench.cpupri;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.util.List;

import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_NORMAL;
import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_RT99;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The model follows cpupri_set() and cpupri_find(), whatever the layout. */
class CpupriModelTest {

    static final List<String> VARIANTS = CpupriBenchmark.VARIANTS;

    private static int count(CpupriModel m, int p) {
        return m instanceof OffHeapCpupri o ? o.count(p) : ((HeapCpupri) m).count(p);
    }

    @ParameterizedTest
    @FieldSource("VARIANTS")
    void writersStartAtNormalAndFindReturnsIndexZero(String variant) {
        try (CpupriModel m = CpupriBenchmark.create(variant, 130, 64, new int[]{1, 129}, new int[]{0, 1, 129})) {
            assertEquals(2, count(m, CPUPRI_NORMAL));
            long[] lowest = new long[m.maskWords()];
            assertEquals(0, m.find(lowest));
            assertEquals((1L << 1), lowest[0]);
            assertEquals(1L << (129 - 128), lowest[2]);
        }
    }

    @ParameterizedTest
    @FieldSource("VARIANTS")
    void toggleMovesACpuBetweenNormalAndRt99LikeCpupriSet(String variant) {
        try (CpupriModel m = CpupriBenchmark.create(variant, 64, 64, new int[]{3}, new int[]{0, 3})) {
            long[] lowest = new long[m.maskWords()];
            m.toggle(3);
            assertEquals(0, count(m, CPUPRI_NORMAL));
            assertEquals(1, count(m, CPUPRI_RT99));
            assertEquals(-1, m.find(lowest), "an RT99 task cannot preempt the only CPU, which runs RT99");
            m.toggle(3);
            assertEquals(1, count(m, CPUPRI_NORMAL));
            assertEquals(0, count(m, CPUPRI_RT99));
            assertEquals(0, m.find(lowest));
            assertEquals(1L << 3, lowest[0]);
        }
    }

    @ParameterizedTest
    @FieldSource("VARIANTS")
    void findSkipsCpusTheTaskMayNotRunOn(String variant) {
        try (CpupriModel m = CpupriBenchmark.create(variant, 64, 64, new int[]{5}, new int[]{0})) {
            assertEquals(-1, m.find(new long[m.maskWords()]));
        }
    }

    @ParameterizedTest
    @FieldSource("VARIANTS")
    void mechanismOpsLeaveTheCountAsItWasAndReadThePointer(String variant) {
        try (CpupriModel m = CpupriBenchmark.create(variant, 8, 64, new int[]{1}, new int[]{0, 1})) {
            for (int i = 0; i < 1000; i++) m.incDec();
            assertEquals(0, count(m, CpupriModel.MECHANISM_PRIORITY));
            assertEquals(true, m.readMask() != 0);
        }
    }
}
