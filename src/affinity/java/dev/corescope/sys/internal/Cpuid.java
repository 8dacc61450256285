package dev.corescope.sys.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * The x86 {@code CPUID} instruction, for the caches where sysfs has no {@code cpuN/cache/}
 * (some VM kernels). CPUID is an instruction, not a library function: the library artifact
 * has no C library of its own, so this writes the eleven instructions of a
 * {@code void cpuid(uint32 leaf, uint32 subleaf, uint32 out[4])} into a page of its own
 * ({@code mmap} read-write, then {@code mprotect} read-execute: never writable and executable
 * at once) and calls it through FFM, linked with the raw {@code syscall}'s shape (the same
 * registers carry the three arguments), so it links no downcall stub of its own. Elsewhere than x86-64 Linux, or where the kernel refuses an
 * executable page, {@link #available()} is false. The answer is the calling thread's CPU's:
 * pin first.
 */
public final class Cpuid {

    /** One answer: the four registers. */
    public record Regs(int eax, int ebx, int ecx, int edx) {
    }

    /**
     * {@code push rbx; mov eax,edi; mov ecx,esi; mov r8,rdx; cpuid; mov [r8],eax; mov [r8+4],ebx;
     * mov [r8+8],ecx; mov [r8+12],edx; pop rbx; ret} (System V: leaf in edi, subleaf in esi, out in
     * rdx; rbx is callee-saved).
     */
    private static final byte[] CODE = {
        0x53, (byte) 0x89, (byte) 0xf8, (byte) 0x89, (byte) 0xf1, 0x49, (byte) 0x89, (byte) 0xd0, 0x0f, (byte) 0xa2,
        0x41, (byte) 0x89, 0x00, 0x41, (byte) 0x89, 0x58, 0x04, 0x41, (byte) 0x89, 0x48, 0x08,
        0x41, (byte) 0x89, 0x50, 0x0c, 0x5b, (byte) 0xc3};

    private static final int PROT_READ = 1, PROT_WRITE = 2, PROT_EXEC = 4, MAP_PRIVATE = 2, MAP_ANONYMOUS = 0x20;
    private static final long PAGE = 4096;

    private Cpuid() {
    }

    /** Whether CPUID can be executed here: true on x86-64 Linux once the stub is in place. */
    public static boolean available() {
        return Stub.HANDLE != null;
    }

    /** {@code CPUID(leaf, subleaf)} on the CPU the calling thread runs on; throws where {@link #available()} is false. */
    public static Regs cpuid(int leaf, int subleaf) {
        if (Stub.HANDLE == null) throw new UnsupportedOperationException("CPUID is not available here (" + Stub.WHY + ")");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(16, 4);
            long unused = (long) Stub.HANDLE.invokeExact(Libc.callState(a), (long) leaf, (long) subleaf, out.address(), 0L, 0L, 0L, 0L);
            return new Regs(out.get(ValueLayout.JAVA_INT, 0), out.get(ValueLayout.JAVA_INT, 4),
                    out.get(ValueLayout.JAVA_INT, 8), out.get(ValueLayout.JAVA_INT, 12));
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** The stub, made on first use; its page lives as long as the JVM (global by design). */
    private static final class Stub {
        static String WHY = "";
        static final MethodHandle HANDLE = make();

        private static MethodHandle make() {
            String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
            if (!(arch.equals("amd64") || arch.equals("x86_64")) || !System.getProperty("os.name", "").startsWith("Linux")) {
                WHY = "not x86-64 Linux";
                return null;
            }
            try {
                // mmap (9) and mprotect (10) of x86-64, through the raw call every reader shares
                MemorySegment state = Libc.callState(Arena.global());  // global by design: one segment, once
                long page = Libc.syscall(state, 9, 0, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (page == -1L || page == 0L) {
                    WHY = "mmap refused a page";
                    return null;
                }
                MemorySegment code = MemorySegment.ofAddress(page).reinterpret(PAGE);
                MemorySegment.copy(CODE, 0, code, ValueLayout.JAVA_BYTE, 0, CODE.length);
                if (Libc.syscall(state, 10, page, PAGE, PROT_READ | PROT_EXEC, 0, 0) != 0) {
                    WHY = "the kernel refused an executable page (mprotect)";
                    return null;
                }
                return Libc.syscallShaped(code);
            } catch (Throwable t) {
                WHY = String.valueOf(t.getMessage());
                return null;
            }
        }
    }
}
