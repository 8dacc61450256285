package dev.corescope.bench.locks;

import java.util.Map;

/**
 * The lines of the uncontended list, in order, each with the JMH method and the C loop that
 * measure it: the one list of lock rows, from which the family's plan, the text list and the
 * JSON rows derive. Each line is a Java figure and a native one side by side, where both exist. Several lines can share a {@link Variant}; their {@code params} tell them apart
 * in the JSON results (the variant's main line has none).
 */
enum Line {
    FOR_LOOP(Variant.FOR_LOOP, "for_loop: the loop overhead (java: JMH's loop around an empty method)",
            Map.of(), java(SpinLockBenchmark.class, "forLoop"), Map.of(), LocksTwins.Loop.FOR_LOOP),
    SPIN_LOCK_UNLOCK(Variant.SPIN_LOCK_UNLOCK, "\"clean\" spin_lock_unlock",
            Map.of(), java(SpinLockBenchmark.class, "spinLockUnlock"), Map.of(), LocksTwins.Loop.SPIN_LOCK_UNLOCK),
    SPIN_LOCK_UNLOCK_BOUNDED(Variant.SPIN_LOCK_UNLOCK, "spin_lock_unlock, the word through its own segment (java only)",
            Map.of("access", "bounded_segment"), java(SpinLockBenchmark.class, "spinLockUnlockBoundedSegment").notInQuick(),
            null, null),
    SPIN_LOCK_IRQSAVE_PUSHF(Variant.SPIN_LOCK_IRQSAVE, "spin_lock_irqsave: pushfq; pop + lock, unlock + push; popfq "
            + "(local_irq_save/restore's flags round trip, no cli; java: two critical downcalls)",
            Map.of(LocksClaims.STAND_IN, "pushf_popf"), java(IrqsaveBenchmark.class, "spinLockIrqsavePushf").callsC(),
            Map.of(LocksClaims.STAND_IN, "pushf_popf"), LocksTwins.Loop.SPIN_LOCK_IRQSAVE_PUSHF),
    SPIN_LOCK_IRQSAVE(Variant.SPIN_LOCK_IRQSAVE, "spin_lock_irqsave: signals blocked saving the mask + lock, unlock + restore",
            Map.of(), java(IrqsaveBenchmark.class, "spinLockIrqsave"), Map.of(), LocksTwins.Loop.SPIN_LOCK_IRQSAVE),
    IRQSAVE_MANUAL(Variant.IRQSAVE_MANUAL, "irqsave_manual: the mask saved by hand, then the lock",
            Map.of(), java(IrqsaveBenchmark.class, "irqsaveManual"), Map.of(), LocksTwins.Loop.IRQSAVE_MANUAL),
    IRQ_DISABLE_SPIN_LOCK(Variant.IRQ_DISABLE_SPIN_LOCK, "irq_disable_spin_lock: block (no save), lock, unlock, unblock",
            Map.of(), java(IrqsaveBenchmark.class, "irqDisableSpinLock"), Map.of(), LocksTwins.Loop.IRQ_DISABLE_SPIN_LOCK),
    IRQ_SAVE_RESTORE(Variant.IRQ_SAVE_RESTORE, "irq_save_restore: the mask change alone",
            Map.of(), java(IrqsaveBenchmark.class, "irqSaveRestore"), Map.of(), LocksTwins.Loop.IRQ_SAVE_RESTORE),
    PTHREAD_SPIN_LOCK(Variant.PTHREAD_SPIN_LOCK, "pthread_spin_lock + unlock (java: two downcalls per element)",
            Map.of(), java(SpinLockBenchmark.class, "pthreadSpinLock"), Map.of(), LocksTwins.Loop.PTHREAD_SPIN_LOCK),
    FUNCTION_CALL(Variant.FUNCTION_CALL, "function_call: a call the compiler may not inline",
            Map.of(), java(FunctionCallBenchmark.class, "javaCall"), Map.of(), LocksTwins.Loop.FUNCTION_CALL),
    FUNCTION_CALL_DOWNCALL(Variant.FUNCTION_CALL, "function_call: a downcall to an empty C function (java only)",
            Map.of("call", "downcall"), java(FunctionCallBenchmark.class, "downcall").callsC(), null, null),
    FUNCTION_CALL_CRITICAL(Variant.FUNCTION_CALL, "function_call: the same downcall, critical (java only)",
            Map.of("call", "downcall_critical"), java(FunctionCallBenchmark.class, "downcallCritical").callsC().notInQuick(),
            null, null),
    SYNCHRONIZED(Variant.SYNCHRONIZED, "synchronized (native: a pthread_mutex, the analogue)",
            Map.of(), java(JavaLocksBenchmark.class, "synchronizedBlock"), Map.of("analog", "pthread_mutex"), LocksTwins.Loop.MUTEX),
    REENTRANT_LOCK(Variant.REENTRANT_LOCK, "reentrant_lock (native: a recursive pthread_mutex, the analogue)",
            Map.of(), java(JavaLocksBenchmark.class, "reentrantLock"), Map.of("analog", "pthread_mutex_recursive"),
            LocksTwins.Loop.RECURSIVE_MUTEX),
    STAMPED_LOCK_OPTIMISTIC(Variant.STAMPED_LOCK_OPTIMISTIC, "stamped_lock_optimistic: read + validate (native: a seqlock read)",
            Map.of(), java(JavaLocksBenchmark.class, "stampedLockOptimistic"), Map.of("analog", "seqlock_read"),
            LocksTwins.Loop.SEQLOCK_READ),
    ATOMIC_LONG_INCREMENT(Variant.ATOMIC_LONG_INCREMENT, "atomic_long_increment (native: __atomic_add_fetch, lock xadd)",
            Map.of(), java(JavaLocksBenchmark.class, "atomicLongIncrement"), Map.of("analog", "atomic_add_fetch"),
            LocksTwins.Loop.ATOMIC_INCREMENT);

    /**
     * The JMH method that measures a line in Java: in {@code --quick} unless said otherwise, and
     * whether it calls into the C library (so it needs the twin).
     */
    record Java(Class<?> benchmark, String method, boolean inQuick, boolean needsTwin) {
        Java notInQuick() {
            return new Java(benchmark, method, false, needsTwin);
        }

        Java callsC() {
            return new Java(benchmark, method, inQuick, true);
        }
    }

    private static Java java(Class<?> benchmark, String method) {
        return new Java(benchmark, method, true, false);
    }

    private final Variant variant;
    private final String label;
    private final Map<String, Object> javaParams;
    private final Map<String, Object> nativeParams;
    private final Java java;
    private final LocksTwins.Loop loop;

    Line(Variant variant, String label, Map<String, Object> javaParams, Java java, Map<String, Object> nativeParams,
         LocksTwins.Loop loop) {
        this.variant = variant;
        this.label = label;
        this.javaParams = javaParams;
        this.java = java;
        this.nativeParams = nativeParams;
        this.loop = loop;
    }

    /** How Java measures this line (every line has a Java figure). */
    Java java() {
        return java;
    }

    /** The C loop that measures this line, or null for a Java-only line. */
    LocksTwins.Loop loop() {
        return loop;
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
