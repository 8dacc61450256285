package dev.corescope.bench.cpumask;

import dev.corescope.cpumask.CpuMask;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.InvokeInstruction;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Java variants call what the kernel's code calls, read from their bytecode: the old
 * {@code for_each_cpu} loop is {@code for_each_set_bit}, whose first call is
 * {@code find_next_bit(mask, size, 0)} ({@code next(-1)}), and {@code cpumask_first_but()}
 * calls {@code find_first_bit} ({@code first()}) then {@code find_next_bit}. Corescope's
 * loop once started with {@code first()}, so both variants made the same calls.
 */
class CpumaskCallsTest {

    @Test
    void anyButLoopCallsNextOnlyAsForEachSetBitCallsFindNextBitOnly() throws IOException {
        assertEquals(List.of("nbits", "next", "next"), calls(CpumaskBenchmark.class, "anyButLoop"),
                "for_each_set_bit: find_next_bit(.., 0) to start, find_next_bit(.., i + 1) to go on");
    }

    @Test
    void firstButCallsFirstThenNextAsCpumaskFirstButDoes() throws IOException {
        assertEquals(List.of("first", "next"), calls(CpuMask.class, "firstBut"));
    }

    @Test
    void theSplittingVariantHasFirstButsCallsInTheLoopShape() throws IOException {
        assertEquals(List.of("nbits", "first", "next"), calls(CpumaskBenchmark.class, "anyButLoopFirst"));
        CpuMask m = CpuMask.parseList("3,9", 64);
        for (int cpu = 0; cpu <= 64; cpu++) assertEquals(m.firstBut(cpu), CpumaskBenchmark.anyButLoopFirst(m, cpu));
    }

    @Test
    void theBenchmarkMethodsCallTheirVariant() throws IOException {
        assertEquals(List.of("nextCpu", "anyButLoop"), calls(CpumaskBenchmark.class, "any_but_loop"));
        assertEquals(List.of("nextCpu", "firstBut"), calls(CpumaskBenchmark.class, "first_but"));
        assertEquals(List.of("nextCpu", "anyButLoopFirst"), calls(CpumaskBenchmark.class, "any_but_loop_first"));
    }

    /** The names of the methods {@code method} of {@code owner} invokes, in bytecode order. */
    private static List<String> calls(Class<?> owner, String method) throws IOException {
        ClassModel model;
        try (InputStream in = owner.getResourceAsStream(owner.getSimpleName() + ".class")) {
            model = ClassFile.of().parse(in.readAllBytes());
        }
        MethodModel m = model.methods().stream().filter(x -> x.methodName().equalsString(method)).findFirst().orElseThrow();
        CodeModel code = m.code().orElseThrow();
        return code.elementStream().filter(e -> e instanceof InvokeInstruction)
                .map(e -> ((InvokeInstruction) e).name().stringValue()).toList();
    }
}
