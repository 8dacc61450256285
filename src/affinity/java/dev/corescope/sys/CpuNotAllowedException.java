package dev.corescope.sys;

import dev.corescope.cpumask.CpuMask;

/**
 * A request for CPUs outside the set this process may use. Its message is the one line the
 * command line prints: {@code CPU 99 is not in the allowed set 0-1}.
 */
public final class CpuNotAllowedException extends IllegalArgumentException {

    /** The CPUs asked for that are not allowed. */
    private final CpuMask refused;
    /** The CPUs that are. */
    private final CpuMask allowed;

    /**
     * A refused request.
     *
     * @param refused the CPUs asked for that are not in {@code allowed}, not empty
     * @param allowed the CPUs this process may use
     */
    public CpuNotAllowedException(CpuMask refused, CpuMask allowed) {
        super((refused.weight() == 1 ? "CPU " + refused.toList() + " is" : "CPUs " + refused.toList() + " are")
                + " not in the allowed set " + allowed.toList());
        this.refused = refused;
        this.allowed = allowed;
    }

    /** {@return the CPUs asked for that are not allowed, not empty} */
    public CpuMask refused() {
        return refused;
    }

    /** {@return the CPUs this process may be pinned to (see {@code ThreadAffinity.pinnable()}), not empty} */
    public CpuMask allowed() {
        return allowed;
    }
}
