package dev.corescope.bench;

import dev.corescope.bench.cpumask.CpumaskFamily;
import dev.corescope.bench.locks.LocksFamily;
import dev.corescope.bench.timerbase.TimerbaseFamily;
import dev.corescope.report.MachineCode;
import dev.corescope.sys.tool.ElfSymbolTable;
import dev.corescope.sys.tool.NativeLibrary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Loops found from the control-flow graph of the built library ({@code libcorescope.so},
 * disassembled with objdump): straight-line code has none, each family's timed loop is found
 * and holds the code it times.
 */
class MachineCodeLoopsTest {

    private static Path lib;
    private static Map<String, List<Instruction>> all;
    private static ElfSymbolTable elf;

    @BeforeAll
    static void read() throws Exception {
        lib = NativeLibrary.file().orElse(null);
        assumeTrue(lib != null, () -> "C twins not built: " + NativeLibrary.unavailableReason().orElse("?"));
        try {
            all = MachineCodeReader.disassembly(lib, MachineCodeReader.OBJDUMP);
        } catch (java.io.IOException e) {
            assumeTrue(false, "no objdump: " + e.getMessage());
        }
        elf = ElfSymbolTable.read(lib);
    }

    private static List<Instruction> body(String symbol) {
        ElfSymbolTable.Symbol s = elf.function(symbol).orElseThrow(() -> new AssertionError(symbol + " not in the library"));
        return all.get(symbol).stream().filter(i -> i.address() >= s.value() && i.address() < s.value() + s.size()).toList();
    }

    private static long start(String symbol) {
        return elf.function(symbol).orElseThrow().value();
    }

    /** The loops whose instructions include a call of {@code callee}. */
    private static long loopsCalling(String harness, String callee) {
        List<Instruction> body = body(harness);
        return MachineCodeReader.naturalLoops(body).stream().filter(l -> l.members().stream()
                .anyMatch(k -> body.get(k).mnemonic().startsWith("call") && body.get(k).text().contains("<" + callee + ">"))).count();
    }

    @Test
    void straightLineCodeReportsNoLoopAndTheOldLoopReportsOne() {
        for (String layout : List.of("", "_align32")) {
            String first = "cs_cpumask_first_but_64" + layout;
            assertNull(MachineCodeReader.loop(start(first), body(first), MeasuredFunction.Loop.INNERMOST), first);
            assertTrue(MachineCodeReader.naturalLoops(body(first)).isEmpty(), first);
            String loop = "cs_cpumask_any_but_loop_64" + layout;
            assertNotNull(MachineCodeReader.loop(start(loop), body(loop), MeasuredFunction.Loop.INNERMOST), loop);
        }
        MachineCode c = MachineCodeReader.nativeCode("cpumask", new CpumaskFamily().measuredFunctions().stream()
                .filter(f -> f.symbol().equals("cs_cpumask_first_but_64")).findFirst().orElseThrow(), lib, MachineCodeReader.OBJDUMP);
        assertNull(c.hotLoop(), "the recorded entry has no loop either");
        assertNotNull(c.instructions());
    }

    @Test
    void everyFamilysTimedLoopIsFoundAroundTheCodeItTimes() {
        for (String layout : List.of("", "_align32")) {
            for (String v : List.of("any_but_loop_64", "first_but_64", "any_but_loop_4096", "first_but_4096")) {
                assertEquals(1, loopsCalling("cs_cpumask_batch" + layout, "cs_cpumask_" + v + layout), v + layout);
            }
        }
        for (MeasuredFunction f : new TimerbaseFamily().measuredFunctions()) {
            assertEquals(1, loopsCalling("cs_timerbase_batch", f.symbol()), f.symbol());
        }
        for (MeasuredFunction f : new LocksFamily().measuredFunctions()) {
            MachineCode.HotLoop timed = MachineCodeReader.loop(start(f.symbol()), body(f.symbol()), f.loop());
            assertNotNull(timed, f.symbol() + " has a timed loop");
            assertEquals("timed", timed.kind());
        }
        MachineCode.HotLoop forLoop = MachineCodeReader.loop(start("cs_locks_for_loop"), body("cs_locks_for_loop"), MeasuredFunction.Loop.TIMED);
        assertEquals(3, forLoop.instructions(), "add/cmp/jne, not the epilogue");
        MachineCode.HotLoop call = MachineCodeReader.loop(start("cs_locks_function_call"), body("cs_locks_function_call"), MeasuredFunction.Loop.TIMED);
        assertTrue(call.instructions() <= 6, "the call loop: call, add, cmp, jne (and a move of the argument): " + call);
        assertEquals(1, loopsCalling("cs_locks_function_call", "measured_function"));
        assertNotNull(MachineCodeReader.loop(start("cs_cpupri_run"), body("cs_cpupri_run"), MeasuredFunction.Loop.TIMED));
    }
}
