package dev.corescope.sys;

import dev.corescope.cpumask.CpuMask;

/**
 * A request for CPUs outside the set this process may use. Its message is the one line the
 * command line prints: {@code CPU 99 is not in the allowed set 0-1}.
 */
public final class CpuNotAllowedException extends IllegalArgumentException {

    private final CpuMask refused;
    private final CpuMask allowed;

    public CpuNotAllowedException(CpuMask refused, CpuMask allowed) {
        super((refused.weight() == 1 ? "CPU " + refused.toList() + " is" : "CPUs " + refused.toList() + " are")
                + " not in the allowed set " + allowed.toList());
        this.refused = refused;
        this.allowed = allowed;
    }

    public CpuMask refused() {
        return refused;
    }

    public CpuMask allowed() {
        return allowed;
    }
}
