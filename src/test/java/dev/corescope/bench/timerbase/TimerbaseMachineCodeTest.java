package dev.corescope.bench.timerbase;

import dev.corescope.bench.Instruction;
import dev.corescope.bench.MachineCodeReader;
import dev.corescope.report.MachineCode;
import dev.corescope.sys.tool.NativeLibrary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The machine code of the built C twins, as {@code bench timerbase} records it: the claim the
 * variants stand for is checked on the instructions, so a compiler that merges the two
 * {@code __per_cpu_offset[cpu]} loads of {@code before_two_loads}, or stops merging those of
 * {@code before}, fails here.
 */
class TimerbaseMachineCodeTest {

    /** A load from a table of 8-byte entries indexed by a register: {@code __per_cpu_offset[cpu]}. */
    private static final Pattern TABLE_LOAD = Pattern.compile("\\(%\\w+,%\\w+,8\\)");

    private static Map<String, MachineCode> code;

    @BeforeAll
    static void read() {
        assumeTrue(NativeLibrary.file().isPresent(), () -> "C twins not built: " + NativeLibrary.unavailableReason().orElse("?"));
        code = MachineCodeReader.read("timerbase", new TimerbaseFamily().measuredFunctions(), Optional.empty()).stream()
                .filter(c -> c.implementation().equals("native"))
                .collect(Collectors.toMap(MachineCode::variant, c -> c));
        assumeTrue(code.values().stream().allMatch(c -> c.disassembly() != null),
                () -> "no disassembly: " + code.values().iterator().next().reason());
    }

    private static long tableLoads(MachineCode c, boolean loopOnly) {
        return c.disassembly().lines()
                .filter(l -> !l.contains("lea "))
                .filter(l -> !loopOnly || inLoop(c, l))
                .filter(l -> TABLE_LOAD.matcher(l).find()).count();
    }

    private static boolean inLoop(MachineCode c, String line) {
        long offset = Long.parseLong(line.strip().substring(0, line.strip().indexOf(':')), 16);
        return offset >= c.hotLoop().fromOffset() && offset <= c.hotLoop().toOffset();
    }

    @Test
    void theCompilerMergesTheTwoLoadsOfBeforeAndKeepsBothInBeforeTwoLoads() {
        assertEquals(1, tableLoads(code.get("before"), false), code.get("before").disassembly());
        assertEquals(2, tableLoads(code.get("before_two_loads"), false), code.get("before_two_loads").disassembly());
        assertEquals(1, tableLoads(code.get("after"), false), code.get("after").disassembly());
    }

    @Test
    void beforeTwoLoadsHasOneLoadMoreThanBeforeAndBothLieInTheRetryLoop() {
        MachineCode before = code.get("before"), twoLoads = code.get("before_two_loads");
        assertEquals(before.loads() + 1, twoLoads.loads(), "\n" + before.disassembly() + "\n" + twoLoads.disassembly());
        assertNotNull(twoLoads.hotLoop());
        assertEquals(2, tableLoads(twoLoads, true), twoLoads.disassembly());
        assertEquals(1, tableLoads(before, true), before.disassembly());
    }

    /**
     * raw_spin_lock_irqsave() is an opaque call inside the retry loop, as in kernel/time/timer.c:
     * each variant's loop calls it, and the table load lies on the way to it, inside the loop
     * (without the lock, GCC sank after's load past the flags re-check and out of the loop).
     */
    @Test
    void theLockIsAnOpaqueCallInTheRetryLoopAndTheTableLoadStaysInTheLoop() throws Exception {
        java.nio.file.Path lib = NativeLibrary.file().orElseThrow();
        for (MachineCode c : code.values()) {
            List<Instruction> body = MachineCodeReader.instructions(lib, c.symbol());
            List<MachineCodeReader.NaturalLoop> loops = MachineCodeReader.naturalLoops(body);
            assertEquals(1, loops.size(), c.variant() + ": one retry loop\n" + c.disassembly());
            MachineCodeReader.NaturalLoop loop = loops.getFirst();
            long lockCalls = loop.members().stream().mapToObj(body::get)
                    .filter(i -> i.mnemonic().startsWith("call") && i.text().contains("<cs_timerbase_raw_spin_lock_irqsave>")).count();
            assertEquals(1, lockCalls, c.variant() + ": the lock is called in the loop\n" + c.disassembly());
            long loadsInLoop = loop.members().stream().mapToObj(body::get)
                    .filter(i -> !i.text().startsWith("lea") && TABLE_LOAD.matcher(i.text()).find()).count();
            long loadsInFunction = body.stream().filter(i -> !i.text().startsWith("lea") && TABLE_LOAD.matcher(i.text()).find()).count();
            assertEquals(loadsInFunction, loadsInLoop, c.variant() + ": every table load is in the loop\n" + c.disassembly());
        }
    }

    @Test
    void theTableIsAnArrayInsideTheLibraryNotAPointerLoadedFirst() {
        for (MachineCode c : code.values()) {
            List<String> viaPointer = c.disassembly().lines()
                    .filter(l -> l.contains("<__per_cpu_offset>") && !l.contains("lea ")).toList();
            assertTrue(viaPointer.isEmpty(), c.variant() + " loads __per_cpu_offset as a pointer: " + viaPointer);
            assertTrue(c.disassembly().contains("<__per_cpu_offset>"), c.variant() + " addresses the array directly:\n" + c.disassembly());
        }
    }
}
