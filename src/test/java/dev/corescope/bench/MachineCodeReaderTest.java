package dev.corescope.bench;

import dev.corescope.report.MachineCode;
import dev.corescope.sys.tool.NativeLibrary;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** How objdump's AT&T lines are classified, and what happens without objdump. */
class MachineCodeReaderTest {

    private static int[] access(String text) {
        Instruction i = Instruction.parse(0x100, text);
        return new int[]{i.loads(), i.stores()};
    }

    @Test
    void aMemorySourceIsALoadAndAMemoryDestinationAStore() {
        assertArrayEquals(new int[]{1, 0}, access("mov    0x20(%rcx),%edx"));
        assertArrayEquals(new int[]{1, 0}, access("mov    0x3a43(%rip),%rsi        # 9190 <__per_cpu_offset>"));
        assertArrayEquals(new int[]{1, 0}, access("add    (%rcx,%rdx,8),%rax"));
        assertArrayEquals(new int[]{0, 1}, access("mov    %eax,(%rdi)"));
        assertArrayEquals(new int[]{0, 1}, access("movq   $0x0,0x8(%rsp)"));
        assertArrayEquals(new int[]{0, 1}, access("sete   (%rdi)"));
    }

    @Test
    void readModifyWriteIsBothAndCompareIsOnlyALoad() {
        assertArrayEquals(new int[]{1, 1}, access("add    %eax,(%rdi)"));
        assertArrayEquals(new int[]{1, 1}, access("lock cmpxchg %edx,(%rdi)"));
        assertArrayEquals(new int[]{1, 1}, access("lock incl (%rdi)"));
        assertArrayEquals(new int[]{1, 0}, access("cmpl   $0x0,(%rdi)"));
        assertArrayEquals(new int[]{1, 0}, access("testb  $0x1,0x20(%rdi)"));
    }

    @Test
    void leaNopAndRegistersTouchNoMemoryWhilePushAndPopUseTheStack() {
        assertArrayEquals(new int[]{0, 0}, access("lea    0x3b89(%rip),%r8        # 9180 <__per_cpu_offset>"));
        assertArrayEquals(new int[]{0, 0}, access("lea    (%rax,%rax,8),%rsi"));
        assertArrayEquals(new int[]{0, 0}, access("nopl   0x0(%rax)"));
        assertArrayEquals(new int[]{0, 0}, access("add    $0x40,%rax"));
        assertArrayEquals(new int[]{0, 0}, access("jmp    5600 <cs_timerbase_lock_before+0x10>"));
        assertArrayEquals(new int[]{0, 1}, access("push   %rbx"));
        assertArrayEquals(new int[]{1, 0}, access("pop    %rbx"));
        assertArrayEquals(new int[]{1, 0}, access("call   *0x10(%rax)"));
        assertArrayEquals(new int[]{1, 0}, access("mov    %fs:0x28,%rax"));
        assertTrue(Instruction.parse(0, "data16 cs nopw 0x0(%rax,%rax,1)").padding());
    }

    /** cs_timerbase_lock_after as GCC 12 builds it: two backward branches; the shorter is the loop. */
    private static final String AFTER = """
            00000000000056d0 <cs_timerbase_lock_after>:
                56d0:	mov    0x20(%rdi),%edx
                56d3:	test   $0x40000,%edx
                56d9:	jne    56ef <cs_timerbase_lock_after+0x1f>
                56db:	mov    $0x2540,%eax
                56e0:	test   $0x80000,%edx
                56e6:	je     56f8 <cs_timerbase_lock_after+0x28>
                56e8:	mov    0x20(%rdi),%ecx
                56eb:	cmp    %edx,%ecx
                56ed:	je     571a <cs_timerbase_lock_after+0x4a>
                56ef:	pause
                56f1:	jmp    56d0 <cs_timerbase_lock_after>
                56f3:	nopl   0x0(%rax,%rax,1)
                56f8:	mov    %edx,%eax
                56fa:	shr    $0x14,%eax
                56fd:	xor    $0x1,%eax
                5700:	and    $0x1,%eax
                5703:	lea    (%rax,%rax,8),%rcx
                5707:	lea    (%rax,%rcx,4),%rax
                570b:	mov    0x20(%rdi),%ecx
                570e:	shl    $0x7,%rax
                5712:	add    $0x40,%rax
                5716:	cmp    %edx,%ecx
                5718:	jne    56ef <cs_timerbase_lock_after+0x1f>
                571a:	and    $0x3ffff,%edx
                5720:	lea    0x3a59(%rip),%rcx        # 9180 <__per_cpu_offset>
                5727:	add    (%rcx,%rdx,8),%rax
                572b:	ret
                572c:	nopl   0x0(%rax)

            0000000000005730 <cs_timerbase_batch>:
                5730:	push   %r15
            """;

    @Test
    void factsCountTheFunctionWithoutPaddingAndTheNaturalLoopFromTheControlFlowGraph() {
        List<Instruction> body = MachineCodeReader.parse(AFTER).get("cs_timerbase_lock_after").stream()
                .filter(i -> i.address() < 0x56d0 + 0x5c).toList();
        MachineCode c = MachineCodeReader.facts("timerbase", MeasuredFunction.of("after", "cs_timerbase_lock_after", null),
                "native", "cs_timerbase_lock_after", 0x56d0, 0x5c, body);
        assertEquals(26, c.instructions(), c.disassembly());
        assertEquals(4, c.loads(), "three reads of timer->flags and one of __per_cpu_offset[]");
        assertEquals(0, c.stores());
        MachineCode.HotLoop loop = c.hotLoop();
        assertNotNull(loop);
        assertEquals("innermost", loop.kind());
        assertEquals(0, loop.fromOffset(), "the header: the entry, which every path back to it passes");
        assertEquals(0x21, loop.toOffset(), "the one back edge: jmp 56d0 at 56f1");
        assertEquals(22, loop.instructions(), "the whole retry loop, both paths (the padding nop at 56f3 is unreachable)");
        assertEquals(3, loop.loads(), "the three reads of timer->flags; the table load is after the loop");
        assertTrue(c.disassembly().contains("   0:  mov    0x20(%rdi),%edx"), c.disassembly());
        assertNull(c.reason());
    }

    /** jne 56ef at 5718 jumps backward, but 56ef does not dominate 5718 (5718 is reached past it): not a back edge. */
    @Test
    void aBackwardJumpThatIsNotABackEdgeMakesNoLoopOfItsOwn() {
        List<Instruction> body = MachineCodeReader.parse(AFTER).get("cs_timerbase_lock_after");
        List<MachineCodeReader.NaturalLoop> loops = MachineCodeReader.naturalLoops(body);
        assertEquals(1, loops.size(), loops.toString());
        MachineCode.HotLoop timed = MachineCodeReader.loop(0x56d0, body, MeasuredFunction.Loop.TIMED);
        assertEquals("timed", timed.kind());
        assertEquals(22, timed.instructions());
    }

    /** cs_locks_for_loop as GCC 12 builds it: the timed add/cmp/jne, and a block after the return that jumps back into the epilogue. */
    private static final String FOR_LOOP = """
            0000000000003f50 <cs_locks_for_loop>:
                3fa9:	or     %rdx,%r15
                3fac:	test   %rbp,%rbp
                3faf:	je     3fc1 <cs_locks_for_loop+0x71>
                3fb1:	xor    %eax,%eax
                3fb3:	nopl   0x0(%rax,%rax,1)
                3fb8:	add    $0x1,%rax
                3fbc:	cmp    %rax,%rbp
                3fbf:	jne    3fb8 <cs_locks_for_loop+0x68>
                3fc1:	mov    %r8,0x8(%rsp)
                3fc6:	rdtscp
                4019:	cmp    %r13d,%r12d
                401c:	je     4038 <cs_locks_for_loop+0xe8>
                401e:	mov    %rax,0x18(%r14)
                4022:	add    $0x28,%rsp
                4026:	xor    %eax,%eax
                4028:	pop    %rbx
                4029:	pop    %rbp
                402a:	pop    %r12
                402c:	pop    %r13
                402e:	pop    %r14
                4030:	pop    %r15
                4032:	ret
                4033:	nopl   0x0(%rax,%rax,1)
                4038:	call   2200 <sched_getcpu@plt>
                403d:	cmp    %eax,%r12d
                4040:	setne  %al
                4043:	movzbl %al,%eax
                4046:	jmp    401e <cs_locks_for_loop+0xce>
            """;

    @Test
    void theTimedLoopOfAHarnessIsItsLoopNotTheEpilogueABackwardJumpReaches() {
        List<Instruction> body = MachineCodeReader.parse(FOR_LOOP).get("cs_locks_for_loop");
        MachineCode.HotLoop timed = MachineCodeReader.loop(0x3f50, body, MeasuredFunction.Loop.TIMED);
        assertNotNull(timed);
        assertEquals(0x68, timed.fromOffset());
        assertEquals(0x6f, timed.toOffset());
        assertEquals(3, timed.instructions(), "add, cmp, jne");
        assertEquals(1, MachineCodeReader.naturalLoops(body).size(), "jmp 401e is backward but no back edge");
    }

    @Test
    void straightLineCodeHasNoLoop() {
        List<Instruction> body = List.of(Instruction.parse(0x10, "mov    (%rdi),%rax"),
                Instruction.parse(0x13, "ret"));
        assertNull(MachineCodeReader.loop(0x10, body, MeasuredFunction.Loop.INNERMOST));
    }

    @Test
    void withoutADisassemblerTheSizeAloneIsKeptWithTheReason() {
        Path lib = NativeLibrary.file().orElse(null);
        assumeTrue(lib != null, () -> "C twins not built: " + NativeLibrary.unavailableReason().orElse("?"));
        MachineCode c = MachineCodeReader.nativeCode("timerbase", MeasuredFunction.of("after", "cs_timerbase_lock_after", null),
                lib, "corescope-no-such-objdump");
        assertTrue(c.bytes() != null && c.bytes() > 0, c.toString());
        assertNull(c.instructions());
        assertNull(c.disassembly());
        assertTrue(c.reason().contains("could not be started") && c.reason().contains("ELF symbol table"), c.reason());
    }

    @Test
    void aSymbolThatIsNotInTheLibrarySaysSo() {
        Path lib = NativeLibrary.file().orElse(null);
        assumeTrue(lib != null, () -> "C twins not built: " + NativeLibrary.unavailableReason().orElse("?"));
        MachineCode c = MachineCodeReader.nativeCode("x", new MeasuredFunction("v", "cs_no_such_function", null, Map.of()), lib, "objdump");
        assertNull(c.bytes());
        assertTrue(c.reason().contains("cs_no_such_function is not a function"), c.reason());
    }

    @Test
    void theJavaSideSaysWhyC2sCodeIsOrIsNotShown() {
        List<MachineCode> code = MachineCodeReader.read("timerbase",
                List.of(MeasuredFunction.of("after", null, "dev.corescope.bench.timerbase.TimerBases::lockTimerBaseAfter")), Optional.empty());
        assertEquals(1, code.size());
        assertEquals("java", code.getFirst().implementation());
        // no JMH run named: with or without a plugin, the reason says what is missing
        assertTrue(code.getFirst().reason().contains("hsdis"), code.getFirst().reason());
        assertFalse(code.getFirst().reason().contains("\n"), code.getFirst().reason());
    }
}
