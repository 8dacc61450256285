package dev.corescope.bench;

import dev.corescope.bench.cpumask.CpumaskFamily;
import dev.corescope.bench.cpupri.CpupriFamily;
import dev.corescope.bench.locks.LocksFamily;
import dev.corescope.bench.timerbase.TimerbaseFamily;
import dev.corescope.report.MachineCode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * C2's machine code of the Java variants, from HotSpot's PrintAssembly output through hsdis:
 * parsed from a saved output (this JDK's, with the capstone plugin scripts/hsdis.sh builds),
 * and, where a plugin is found, from a live child JVM.
 */
class JavaMachineCodeTest {

    private static final String AFTER = "dev.corescope.bench.timerbase.TimerBases::lockTimerBaseAfter";

    private static String fixture() throws Exception {
        return Files.readString(Path.of("src/test/resources/fixtures/printassembly/timerbase-after-c2.txt"));
    }

    @Test
    void c2sCodeIsReadFromPrintAssemblyAndCountedAsTheCTwinsAre() throws Exception {
        Map<String, JavaMachineCode.Compiled> code = JavaMachineCode.parse(fixture());
        // the file holds a C1 compilation first: only C2's counts
        assertEquals(List.of(AFTER), List.copyOf(code.keySet()));
        JavaMachineCode.Compiled c = code.get(AFTER);
        assertEquals(440, c.bytes(), "main code [0x...c300,0x...c4b8]");
        assertEquals(0x00007f26dbf0c300L, c.start());
        assertEquals(93, c.instructions().size(), "97 lines in the main code, the 4 hlt of filler after it dropped");
        Instruction entryBarrierJump = c.instructions().get(4);
        assertEquals("jne", entryBarrierJump.mnemonic());
        assertEquals(0x7f26dbf0c4aaL, entryBarrierJump.target(), "capstone's 0x-prefixed target");
        assertTrue(c.instructions().stream().anyMatch(i -> i.text().contains("{poll_return}")), "HotSpot's comments kept");
        // the comment lines under a call say what it calls: here the flags re-check's uncommon trap
        assertTrue(c.instructions().stream().anyMatch(i -> i.mnemonic().startsWith("call")
                && i.text().endsWith("; {runtime_call UncommonTrapBlob}")), "a call names its target");
        MachineCode m = MachineCodeReader.facts("timerbase", MeasuredFunction.of("after", null, AFTER), "java", AFTER,
                c.start(), c.bytes(), c.instructions());
        assertEquals("java", m.implementation());
        assertEquals(AFTER, m.symbol());
        assertEquals(85, m.instructions(), "93 less 8 nops (5 post-call nops, 3 alignment)");
        // the retry loop's re-check of timer->flags is an uncommon trap in C2's code: no back edge
        assertNull(m.hotLoop());
        assertTrue(m.disassembly().startsWith("   0:  movl %eax, -0x14000(%rsp)"), m.disassembly().lines().findFirst().orElse(""));
        assertTrue(m.loads() > 0 && m.stores() > 0);
    }

    @Test
    void anOsrCompilationIsNotTheMethodsCode() {
        String osr = """
                Compiled method (c2) 1415  940 %     4       dev.corescope.X::run @ 12 (40 bytes)
                 main code      [0x0000000000001000,0x0000000000001010] = 16
                [Verified Entry Point]
                  0x0000000000001000:   retq\t\t
                [/Disassembly]
                """;
        assertTrue(JavaMachineCode.parse(osr).isEmpty());
        assertEquals(List.of("dev.corescope.X::run"), List.copyOf(JavaMachineCode.parse(osr.replace(" %   ", "     ")
                .replace(" @ 12", "")).keySet()));
    }

    @Test
    void withoutAPluginEachJavaEntrySaysWhyInOneLine() {
        TimerbaseFamily f = new TimerbaseFamily();
        List<MeasuredFunction> java = f.measuredFunctions().stream().filter(m -> m.javaMethod() != null).toList();
        List<MachineCode> code = MachineCodeReader.javaCode("timerbase", java, f.javaCodeBenchmarks(), Optional.empty());
        assertEquals(3, code.size());
        for (MachineCode c : code) {
            assertNull(c.disassembly());
            assertFalse(c.reason().contains("\n"), c.reason());
            assertTrue(c.reason().contains("no hsdis plugin") && c.reason().contains("scripts/hsdis.sh"), c.reason());
        }
    }

    @Test
    void theJavaVariantsOfCpumaskAndTimerbaseAreMeasuredFunctionsWithARun() {
        assertEquals(List.of("dev.corescope.bench.cpumask.CpumaskBenchmark::anyButLoop", "dev.corescope.cpumask.CpuMask::firstBut",
                        "dev.corescope.bench.cpumask.CpumaskBenchmark::anyButLoopFirst"),
                new CpumaskFamily().measuredFunctions().stream().map(MeasuredFunction::javaMethod).filter(m -> m != null).toList());
        assertEquals(Map.of("nrCpus", "64", "online", "16", "mask", "online"), new CpumaskFamily().javaCodeBenchmarks().orElseThrow().params());
        assertTrue(new TimerbaseFamily().javaCodeBenchmarks().isPresent());
    }

    @Test
    void theDisassembliesPutEachCTwinBeforeTheSameVariantsJavaMethod() {
        List<MachineCode> code = List.of(
                new MachineCode("timerbase", "after", "java", Map.of(), AFTER, 440L, 85, 6, 19, null, "   0:  retq\n", null),
                new MachineCode("timerbase", "after", "native", Map.of(), "cs_timerbase_lock_after", 148L, 43, 8, 6,
                        new MachineCode.HotLoop("innermost", 32, 120, 28, 3, 1), "   0:  ret\n", null),
                new MachineCode("timerbase", "before", "java", Map.of(), "X::before", null, null, null, null, null, null, "no hsdis"),
                new MachineCode("cpumask", "first_but", "native", Map.of(), "cs_cpumask_first_but_64", 40L, 10, 1, 0, null, "x\n", null));
        String text = dev.corescope.report.MachineCodeText.disassemblies(code, "timerbase");
        assertEquals("""
                after: C, cs_timerbase_lock_after (objdump -d; 148 bytes, 43 instructions, loop: innermost, 28 instructions)
                   0:  ret

                after: Java, C2's code of dev.corescope.bench.timerbase.TimerBases::lockTimerBaseAfter \
                (-XX:CompileCommand=print through hsdis; 440 bytes, 85 instructions, loop: none)
                   0:  retq

                """, text);
    }

    /** Live: needs the plugin (scripts/hsdis.sh). Whether C2 compiles in time is the JIT's business: either code or that reason. */
    @Test
    void whereAPluginIsFoundTheJavaEntriesHoldC2sCode() {
        Optional<Path> plugin = JavaMachineCode.plugin();
        assumeTrue(plugin.isPresent(), "no hsdis plugin: scripts/hsdis.sh builds one into target/hsdis");
        TimerbaseFamily f = new TimerbaseFamily();
        List<MeasuredFunction> java = f.measuredFunctions().stream().filter(m -> m.javaMethod() != null).toList();
        List<MachineCode> code = MachineCodeReader.javaCode("timerbase", java, f.javaCodeBenchmarks(), plugin);
        assertEquals(3, code.size());
        for (MachineCode c : code) {
            if (c.disassembly() != null) {
                assertNotNull(c.instructions());
                assertNull(c.reason());
                // the base's lock is a call C2 keeps (DONT_INLINE, as JMH's forks run it), in every variant
                assertTrue(c.disassembly().contains("{static_call rawSpinLockIrqsave}"), c.variant() + ":\n" + c.disassembly());
            } else {
                assertTrue(c.reason().startsWith("C2 did not compile"), c.reason());
            }
        }
    }

    /** Each named Java method exists in its class, and the family's run includes the benchmarks that compile it. */
    private static List<String> javaMethodsOf(BenchFamily f) throws Exception {
        List<String> methods = f.measuredFunctions().stream().map(MeasuredFunction::javaMethod).filter(m -> m != null).toList();
        for (String m : methods) {
            String[] cm = m.split("::");
            Class<?> c = Class.forName(cm[0]);
            assertTrue(java.util.Arrays.stream(c.getDeclaredMethods()).anyMatch(x -> x.getName().equals(cm[1])), m);
            assertEquals(1, java.util.Arrays.stream(c.getDeclaredMethods()).filter(x -> x.getName().equals(cm[1])).count(),
                    m + ": one method of that name, so C2's print names one compilation");
        }
        return methods;
    }

    /** Locks and cpupri name the Java functions their rows time, so report --disassembly and the pages show them. */
    @Test
    void theJavaLockVariantsAndCpupriFindAndSetAreMeasuredFunctionsWithARun() throws Exception {
        LocksFamily locks = new LocksFamily();
        assertEquals(List.of("dev.corescope.bench.locks.SpinLockBenchmark::spinLockUnlock",
                "dev.corescope.bench.locks.IrqsaveBenchmark::lockIrqsave",
                "dev.corescope.bench.locks.IrqsaveBenchmark::lockIrqsavePushf"), javaMethodsOf(locks));
        // each Java lock variant is paired with its C twin's loop (same variant)
        assertEquals(List.of("spin_lock_unlock", "spin_lock_irqsave", "spin_lock_irqsave_pushf"), locks.measuredFunctions().stream()
                .filter(m -> m.javaMethod() != null && m.symbol() != null).map(MeasuredFunction::variant).toList());
        java.util.regex.Pattern include = java.util.regex.Pattern.compile(locks.javaCodeBenchmarks().orElseThrow().include());
        assertTrue(include.matcher("dev.corescope.bench.locks.SpinLockBenchmark.spinLockUnlock").matches());
        assertTrue(include.matcher("dev.corescope.bench.locks.IrqsaveBenchmark.spinLockIrqsave").matches());
        assertTrue(include.matcher("dev.corescope.bench.locks.IrqsaveBenchmark.spinLockIrqsavePushf").matches());
        assertFalse(include.matcher("dev.corescope.bench.locks.IrqsaveBenchmark.irqsaveManual").matches());
        assertEquals("SpinLockBenchmark/IrqsaveBenchmark", locks.javaCodeBenchmarks().orElseThrow().names());

        CpupriFamily cpupri = new CpupriFamily();
        assertEquals(List.of("dev.corescope.bench.cpupri.OffHeapCpupri::find", "dev.corescope.bench.cpupri.OffHeapCpupri::toggle"),
                javaMethodsOf(cpupri));
        assertEquals(List.of(Map.of("metric", "find"), Map.of("metric", "set")), cpupri.measuredFunctions().stream()
                .filter(m -> m.javaMethod() != null && m.symbol() != null).map(MeasuredFunction::params).toList());
        JavaMachineCode.JmhSelection run = cpupri.javaCodeBenchmarks().orElseThrow();
        assertTrue(java.util.regex.Pattern.compile(run.include()).matcher("dev.corescope.bench.cpupri.CpupriBenchmark.cpupri").matches());
        assertEquals(Map.of("variant", "packed", "rt", "writers"), run.params());
    }

    /** Without a plugin, locks' and cpupri's Java entries say why in one line, as timerbase's do. */
    @Test
    void withoutAPluginTheLocksAndCpupriJavaEntriesSayWhyInOneLine() {
        for (BenchFamily f : List.of(new LocksFamily(), new CpupriFamily())) {
            List<MeasuredFunction> java = f.measuredFunctions().stream().filter(m -> m.javaMethod() != null).toList();
            List<MachineCode> code = MachineCodeReader.javaCode(f.name(), java, f.javaCodeBenchmarks(), Optional.empty());
            assertEquals(f.name().equals("locks") ? 3 : 2, code.size(), f.name());
            for (MachineCode c : code) {
                assertNull(c.disassembly());
                assertFalse(c.reason().contains("\n"), c.reason());
                assertTrue(c.reason().contains("no hsdis plugin"), c.reason());
            }
        }
    }

    /** Live, where a plugin is found: C2's code of the Java locks and of cpupri's find and set, or that C2 did not compile one. */
    @Test
    void whereAPluginIsFoundTheLocksAndCpupriJavaEntriesHoldC2sCode() {
        Optional<Path> plugin = JavaMachineCode.plugin();
        assumeTrue(plugin.isPresent(), "no hsdis plugin: scripts/hsdis.sh builds one into target/hsdis");
        for (BenchFamily f : List.of(new LocksFamily(), new CpupriFamily())) {
            List<MeasuredFunction> java = f.measuredFunctions().stream().filter(m -> m.javaMethod() != null).toList();
            for (MachineCode c : MachineCodeReader.javaCode(f.name(), java, f.javaCodeBenchmarks(), plugin)) {
                if (c.disassembly() == null) {
                    assertTrue(c.reason().startsWith("C2 did not compile"), c.reason());
                    continue;
                }
                assertNotNull(c.instructions());
                if (c.symbol().endsWith("::spinLockUnlock")) assertTrue(c.disassembly().contains("xchg"), c.disassembly());
                if (c.symbol().endsWith("::lockIrqsavePushf")) {
                    assertTrue(c.disassembly().contains("{static_call linkToNative}"), "the pushf downcall: " + c.disassembly());
                }
            }
        }
    }
}
