package dev.corescope.bench.locks;

/**
 * The rows of {@code bench locks}, in the seed's order, with the CONTRACT's variant names and,
 * where seed 004 measured one, its figure: i7-2620M @ 2.70GHz, kernel 3.17.8-200.fc20, 2015,
 * through time_bench_sample.c. For reference only: another CPU, a kernel, ten years ago.
 */
enum Variant {
    FOR_LOOP("for_loop", null, false),
    SPIN_LOCK_UNLOCK("spin_lock_unlock", 12.775, false),
    SPIN_LOCK_IRQSAVE("spin_lock_irqsave", 21.099, false),
    IRQSAVE_MANUAL("irqsave_manual", 22.808, false),
    IRQ_DISABLE_SPIN_LOCK("irq_disable_spin_lock", 14.618, false),
    IRQ_SAVE_RESTORE("irq_save_restore", 13.256, false),
    PTHREAD_SPIN_LOCK("pthread_spin_lock", null, false),
    /** The seed's figure is a difference it attributed to "approx the cost of an extra function call". */
    FUNCTION_CALL("function_call", 1.709, true),
    SYNCHRONIZED("synchronized", null, false),
    REENTRANT_LOCK("reentrant_lock", null, false),
    STAMPED_LOCK_OPTIMISTIC("stamped_lock_optimistic", null, false),
    ATOMIC_LONG_INCREMENT("atomic_long_increment", null, false);

    private final String contractName;
    private final Double seedNs;
    private final boolean seedFigureIsDerived;

    Variant(String contractName, Double seedNs, boolean seedFigureIsDerived) {
        this.contractName = contractName;
        this.seedNs = seedNs;
        this.seedFigureIsDerived = seedFigureIsDerived;
    }

    /** The CONTRACT's name, e.g. {@code spin_lock_unlock}. */
    String contractName() {
        return contractName;
    }

    /** The seed's ns per element, or null where the seed has none. */
    Double seedNs() {
        return seedNs;
    }

    /** Whether the seed's figure is a difference of two of its rows, not a measurement of its own. */
    boolean seedFigureIsDerived() {
        return seedFigureIsDerived;
    }
}
