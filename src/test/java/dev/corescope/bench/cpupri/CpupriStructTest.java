package dev.corescope.bench.cpupri;

import dev.corescope.bench.cpupri.CpupriStruct.Rt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.util.List;

import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_NORMAL;
import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_RT99;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The model follows cpupri_set() and cpupri_find(), whatever the layout. */
class CpupriStructTest {

    static final List<String> VARIANTS = CpupriBenchmark.VARIANTS;

    private static int count(CpupriStruct m, int p) {
        return m instanceof OffHeapCpupri o ? o.count(p) : ((HeapCpupri) m).count(p);
    }

    @ParameterizedTest
    @FieldSource("VARIANTS")
    void everyCpuOfTheRunStartsInCpupriAndFindReturnsIndexZero(String variant) {
        try (CpupriStruct m = CpupriBenchmark.create(variant, 130, 64, new int[]{1, 129}, new int[]{0, 1, 129}, Rt.WRITERS)) {
            assertEquals(3, count(m, CPUPRI_NORMAL), "the reader's CPU 0 and the writers' 1 and 129, as rq_online_rt() puts them");
            long[] lowest = new long[m.maskWords()];
            assertEquals(0, m.find(lowest));
            assertEquals(1L | (1L << 1), lowest[0]);
            assertEquals(1L << (129 - 128), lowest[2]);
        }
    }

    /** The old model left the reader's CPU out of cpupri: with the writer at RT99, find read all 99 counts. */
    @ParameterizedTest
    @FieldSource("VARIANTS")
    void withOneWriterAFindReadsOneCountWhereverTheWriterIs(String variant) {
        try (CpupriStruct m = CpupriBenchmark.create(variant, 64, 64, new int[]{1}, new int[]{0, 1}, Rt.WRITERS)) {
            long[] lowest = new long[m.maskWords()];
            for (int i = 0; i < 4; i++) {
                int found = m.find(lowest);
                assertEquals(1, countsRead(found), "toggle " + i + ": stopped at index " + found);
                assertEquals(i % 2 == 0 ? 0b11L : 0b01L, lowest[0], "toggle " + i + ": the CPUs at NORMAL");
                m.toggle(1);
            }
        }
    }

    @ParameterizedTest
    @FieldSource("VARIANTS")
    void rtAllPutsTheReadersCpuAtRt99SoAFindScansEveryCountWhileTheWriterIsThere(String variant) {
        try (CpupriStruct m = CpupriBenchmark.create(variant, 64, 64, new int[]{1}, new int[]{0, 1}, Rt.ALL)) {
            assertEquals(1, count(m, CPUPRI_NORMAL));
            assertEquals(1, count(m, CPUPRI_RT99));
            long[] lowest = new long[m.maskWords()];
            assertEquals(1, countsRead(m.find(lowest)));
            m.toggle(1);
            assertEquals(-1, m.find(lowest), "an RT99 task cannot preempt CPUs that all run RT99");
            assertEquals(99, countsRead(-1));
        }
    }

    @ParameterizedTest
    @FieldSource("VARIANTS")
    void toggleMovesACpuBetweenNormalAndRt99LikeCpupriSet(String variant) {
        try (CpupriStruct m = CpupriBenchmark.create(variant, 64, 64, new int[]{3}, new int[]{0, 3}, Rt.WRITERS)) {
            long[] lowest = new long[m.maskWords()];
            m.toggle(3);
            assertEquals(1, count(m, CPUPRI_NORMAL));
            assertEquals(1, count(m, CPUPRI_RT99));
            assertEquals(0, m.find(lowest));
            assertEquals(1L, lowest[0], "CPU 0 only: CPU 3 runs RT99");
            m.toggle(3);
            assertEquals(2, count(m, CPUPRI_NORMAL));
            assertEquals(0, count(m, CPUPRI_RT99));
            assertEquals(0, m.find(lowest));
            assertEquals(1L | 1L << 3, lowest[0]);
        }
    }

    @ParameterizedTest
    @FieldSource("VARIANTS")
    void findSkipsCpusTheTaskMayNotRunOn(String variant) {
        try (CpupriStruct m = CpupriBenchmark.create(variant, 64, 64, new int[]{5}, new int[]{0}, Rt.ALL)) {
            assertEquals(1, count(m, CPUPRI_NORMAL), "CPU 5 is at NORMAL, but the task may not run there");
            assertEquals(-1, m.find(new long[m.maskWords()]));
        }
    }

    @ParameterizedTest
    @FieldSource("VARIANTS")
    void mechanismOpsLeaveTheCountAsItWasAndReadThePointer(String variant) {
        try (CpupriStruct m = CpupriBenchmark.create(variant, 8, 64, new int[]{1}, new int[]{0, 1}, Rt.WRITERS)) {
            for (int i = 0; i < 1000; i++) m.incDec();
            assertEquals(0, count(m, CpupriStruct.MECHANISM_PRIORITY));
            assertEquals(true, m.readMask() != 0);
        }
    }

    /** The counts a find that returned {@code index} read: index + 1, or all 99 when it found none. */
    private static int countsRead(int index) {
        return index < 0 ? CpupriStruct.TASK_PRIORITY : index + 1;
    }
}
