package dev.corescope.sys.internal;

import dev.corescope.sys.Pinning;

/**
 * Run in a child JVM by {@link CurrentCpuTest}: prints whether the calling thread's
 * {@link CurrentCpu} reads the rseq area, why not, and whether its value agrees with
 * {@code sched_getcpu()} while the thread is pinned to each allowed CPU.
 */
public final class CurrentCpuProbe {

    private CurrentCpuProbe() {
    }

    public static void main(String[] args) {
        CurrentCpu reader = CurrentCpu.forThisThread();
        System.out.println("usesRseq " + reader.usesRseq());
        System.out.println("reason " + reader.fallbackReason().orElse("-"));
        boolean[] agrees = {true};
        Affinity.allowed().forEachCpu(cpu -> {
            try (Pinning p = Affinity.pin(cpu)) {
                agrees[0] &= reader.read() == cpu && Affinity.currentCpu() == cpu;
            }
        });
        System.out.println("agrees " + agrees[0]);
    }
}
