package dev.corescope.bench.locks;

import java.util.Map;

/**
 * The lines of the uncontended list, in order: each a Java figure and a native one side by side,
 * where both exist. Several lines can share a {@link Variant}; their {@code params} tell them apart
 * in the JSON results (the variant's main line has none).
 */
enum Line {
    FOR_LOOP(Variant.FOR_LOOP, "for_loop: the loop overhead (java: JMH's loop around an empty method)",
            Map.of(), Map.of()),
    SPIN_LOCK_UNLOCK(Variant.SPIN_LOCK_UNLOCK, "\"clean\" spin_lock_unlock", Map.of(), Map.of()),
    SPIN_LOCK_UNLOCK_BOUNDED(Variant.SPIN_LOCK_UNLOCK, "spin_lock_unlock, the word through its own segment (java only)",
            Map.of("access", "bounded_segment"), null),
    SPIN_LOCK_IRQSAVE(Variant.SPIN_LOCK_IRQSAVE, "spin_lock_irqsave: signals blocked saving the mask + lock, in one helper",
            Map.of(), Map.of()),
    IRQSAVE_MANUAL(Variant.IRQSAVE_MANUAL, "irqsave_manual: the mask saved by hand, then the lock", Map.of(), Map.of()),
    IRQ_DISABLE_SPIN_LOCK(Variant.IRQ_DISABLE_SPIN_LOCK, "irq_disable_spin_lock: block (no save), lock, unlock, unblock",
            Map.of(), Map.of()),
    IRQ_SAVE_RESTORE(Variant.IRQ_SAVE_RESTORE, "irq_save_restore: the mask change alone", Map.of(), Map.of()),
    PTHREAD_SPIN_LOCK(Variant.PTHREAD_SPIN_LOCK, "pthread_spin_lock + unlock (java: two downcalls per element)",
            Map.of(), Map.of()),
    FUNCTION_CALL(Variant.FUNCTION_CALL, "function_call: a call the compiler may not inline", Map.of(), Map.of()),
    FUNCTION_CALL_DOWNCALL(Variant.FUNCTION_CALL, "function_call: a downcall to an empty C function (java only)",
            Map.of("call", "downcall"), null),
    FUNCTION_CALL_CRITICAL(Variant.FUNCTION_CALL, "function_call: the same downcall, critical (java only)",
            Map.of("call", "downcall_critical"), null),
    SYNCHRONIZED(Variant.SYNCHRONIZED, "synchronized (native: a pthread_mutex, the analogue)",
            Map.of(), Map.of("analog", "pthread_mutex")),
    REENTRANT_LOCK(Variant.REENTRANT_LOCK, "reentrant_lock (native: a recursive pthread_mutex, the analogue)",
            Map.of(), Map.of("analog", "pthread_mutex_recursive")),
    STAMPED_LOCK_OPTIMISTIC(Variant.STAMPED_LOCK_OPTIMISTIC, "stamped_lock_optimistic: read + validate (native: a seqlock read)",
            Map.of(), Map.of("analog", "seqlock_read")),
    ATOMIC_LONG_INCREMENT(Variant.ATOMIC_LONG_INCREMENT, "atomic_long_increment (native: __atomic_add_fetch, lock xadd)",
            Map.of(), Map.of("analog", "atomic_add_fetch"));

    private final Variant variant;
    private final String label;
    private final Map<String, Object> javaParams;
    private final Map<String, Object> nativeParams;

    Line(Variant variant, String label, Map<String, Object> javaParams, Map<String, Object> nativeParams) {
        this.variant = variant;
        this.label = label;
        this.javaParams = javaParams;
        this.nativeParams = nativeParams;
    }

    Variant variant() {
        return variant;
    }

    String label() {
        return label;
    }

    /** The JSON {@code params} of a figure on this line from {@code implementation}. */
    Map<String, Object> params(String implementation) {
        Map<String, Object> p = implementation.equals("java") ? javaParams : nativeParams;
        return p == null ? Map.of() : p;
    }

    /** The line that carries the seed's figure for its variant (the first of that variant). */
    boolean showsSeed() {
        for (Line l : values()) if (l.variant == variant) return l == this;
        return false;
    }
}
