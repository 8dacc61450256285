package dev.corescope.bench.timerbase;

import dev.corescope.bench.Instruction;
import dev.corescope.bench.MachineCodeReader;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The path counts on lock_timer_base() as GCC 12.2 builds it with the lock as an opaque call. */
class DeferrablePathTest {

    private static final String CODE = """
            0000000000005e50 <cs_timerbase_lock_before>:
                5e50:	push   %r15
                5e52:	push   %r14
                5e54:	push   %r13
                5e56:	lea    0x4323(%rip),%r13        # a180 <__per_cpu_offset>
                5e5d:	push   %r12
                5e5f:	mov    %rsi,%r12
                5e62:	push   %rbp
                5e63:	mov    $0x2540,%ebp
                5e68:	push   %rbx
                5e69:	mov    %rdi,%rbx
                5e6c:	sub    $0x8,%rsp
                5e70:	mov    0x20(%rbx),%r14d
                5e74:	test   $0x40000,%r14d
                5e7b:	jne    5ed5 <cs_timerbase_lock_before+0x85>
                5e7d:	mov    %r14d,%eax
                5e80:	shr    $0x14,%eax
                5e83:	xor    $0x1,%eax
                5e86:	and    $0x1,%eax
                5e89:	lea    (%rax,%rax,8),%rdx
                5e8d:	lea    (%rax,%rdx,4),%rax
                5e91:	mov    %r14d,%edx
                5e94:	and    $0x3ffff,%edx
                5e9a:	shl    $0x7,%rax
                5e9e:	mov    0x0(%r13,%rdx,8),%rdx
                5ea3:	add    $0x40,%rax
                5ea7:	lea    (%rdx,%rbp,1),%r15
                5eab:	test   $0x80000,%r14d
                5eb2:	jne    5eb8 <cs_timerbase_lock_before+0x68>
                5eb4:	lea    (%rax,%rdx,1),%r15
                5eb8:	mov    %r15,%rdi
                5ebb:	call   6510 <cs_timerbase_raw_spin_lock_irqsave>
                5ec0:	mov    %rax,(%r12)
                5ec4:	mov    %rax,%rsi
                5ec7:	cmp    %r14d,0x20(%rbx)
                5ecb:	je     5ee0 <cs_timerbase_lock_before+0x90>
                5ecd:	mov    %r15,%rdi
                5ed0:	call   6540 <cs_timerbase_raw_spin_unlock_irqrestore>
                5ed5:	pause
                5ed7:	jmp    5e70 <cs_timerbase_lock_before+0x20>
                5ed9:	nopl   0x0(%rax)
                5ee0:	add    $0x8,%rsp
                5ee4:	mov    %r15,%rax
                5ee7:	pop    %rbx
                5ee8:	pop    %rbp
                5ee9:	pop    %r12
                5eeb:	pop    %r13
                5eed:	pop    %r14
                5eef:	pop    %r15
                5ef1:	ret

            0000000000005fb0 <cs_timerbase_lock_after>:
                5fb0:	push   %r14
                5fb2:	push   %r13
                5fb4:	lea    0x41c5(%rip),%r13        # a180 <__per_cpu_offset>
                5fbb:	push   %r12
                5fbd:	mov    %rsi,%r12
                5fc0:	push   %rbp
                5fc1:	mov    %rdi,%rbp
                5fc4:	push   %rbx
                5fc5:	nopl   (%rax)
                5fc8:	mov    0x20(%rbp),%r14d
                5fcc:	test   $0x40000,%r14d
                5fd3:	jne    602d <cs_timerbase_lock_after+0x7d>
                5fd5:	mov    %r14d,%edx
                5fd8:	mov    $0x2540,%eax
                5fdd:	and    $0x3ffff,%edx
                5fe3:	test   $0x80000,%r14d
                5fea:	jne    6008 <cs_timerbase_lock_after+0x58>
                5fec:	mov    %r14d,%eax
                5fef:	shr    $0x14,%eax
                5ff2:	xor    $0x1,%eax
                5ff5:	and    $0x1,%eax
                5ff8:	lea    (%rax,%rax,8),%rcx
                5ffc:	lea    (%rax,%rcx,4),%rax
                6000:	shl    $0x7,%rax
                6004:	add    $0x40,%rax
                6008:	add    0x0(%r13,%rdx,8),%rax
                600d:	mov    %rax,%rdi
                6010:	mov    %rax,%rbx
                6013:	call   6510 <cs_timerbase_raw_spin_lock_irqsave>
                6018:	mov    %rax,(%r12)
                601c:	mov    %rax,%rsi
                601f:	cmp    %r14d,0x20(%rbp)
                6023:	je     6038 <cs_timerbase_lock_after+0x88>
                6025:	mov    %rbx,%rdi
                6028:	call   6540 <cs_timerbase_raw_spin_unlock_irqrestore>
                602d:	pause
                602f:	jmp    5fc8 <cs_timerbase_lock_after+0x18>
                6031:	nopl   0x0(%rax)
                6038:	mov    %rbx,%rax
                603b:	pop    %rbx
                603c:	pop    %rbp
                603d:	pop    %r12
                603f:	pop    %r13
                6041:	pop    %r14
                6043:	ret
            """;

    private static List<Instruction> body(String symbol) {
        return MachineCodeReader.parse(CODE).get(symbol);
    }

    @Test
    void theDeferrablePathOfAfterSkipsTheEightIndexInstructions() {
        assertEquals(19, DeferrablePath.count(body("cs_timerbase_lock_before"), DeferrablePath.DEFERRABLE).instructions(),
                "5e70 .. 5ebb: both bases computed, one picked");
        assertEquals(12, DeferrablePath.count(body("cs_timerbase_lock_after"), DeferrablePath.DEFERRABLE).instructions(),
                "5fc8 .. 5fea, then 6008 .. 6013: mov/shr/xor/and/lea/lea/shl/add skipped");
    }

    @Test
    void theGlobalPathIsTheSameLengthBeforeAndAfter() {
        assertEquals(20, DeferrablePath.count(body("cs_timerbase_lock_before"), DeferrablePath.GLOBAL).instructions());
        assertEquals(20, DeferrablePath.count(body("cs_timerbase_lock_after"), DeferrablePath.GLOBAL).instructions());
    }

    @Test
    void aBranchOnFlagsItCannotDecideStopsTheCountWithAReason() {
        List<Instruction> code = List.of(
                Instruction.parse(0x0, "mov    0x20(%rdi),%edx"),
                Instruction.parse(0x3, "cmp    $0x5,%edx"),
                Instruction.parse(0x6, "jne    0 <f>"),
                Instruction.parse(0x8, "call   6510 <cs_timerbase_raw_spin_lock_irqsave>"),
                Instruction.parse(0xd, "jmp    0 <f>"));
        DeferrablePath.Count c = DeferrablePath.count(code, DeferrablePath.DEFERRABLE);
        assertNull(c.instructions());
        assertNotNull(c.reason());
    }
}
