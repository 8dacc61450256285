/*
 * raw_spin_lock_irqsave() and raw_spin_unlock_irqrestore() for seed 001's lock_timer_base()
 * (timerbase.c), in a translation unit of their own and noinline, as in the kernel
 * (_raw_spin_lock_irqsave() is out of line in kernel/locking/spinlock.c unless
 * CONFIG_INLINE_SPIN_LOCK_IRQSAVE): to the caller they are opaque calls, so the compiler must
 * compute the base before the call, and cannot sink the __per_cpu_offset[] load past the flags
 * re-check and out of the retry loop, as it did when the lock was left out.
 *
 * What they run, in user space: local_irq_save()'s pushf; pop (its cli faults in ring 3 and is
 * left out), then the queued spinlock's uncontended fast path (one lock cmpxchg, acquire);
 * unlocking is a release store, then local_irq_restore()'s test of the saved IF bit (its sti
 * is left out). Not modelled: preempt_disable()/enable(), lockdep, the contended slow path.
 */
#include <stdint.h>

#define X86_EFLAGS_IF 0x200UL
#define CS_HIDDEN_NOINLINE __attribute__((noinline, noclone, visibility("hidden")))

CS_HIDDEN_NOINLINE unsigned long cs_timerbase_raw_spin_lock_irqsave(uint32_t *lock)
{
	unsigned long flags;
	uint32_t expected = 0;

	__asm__ volatile("pushfq\n\tpopq %0" : "=r"(flags) : : "memory");
	while (!__atomic_compare_exchange_n(lock, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		while (__atomic_load_n(lock, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
		expected = 0;
	}
	return flags;
}

CS_HIDDEN_NOINLINE void cs_timerbase_raw_spin_unlock_irqrestore(uint32_t *lock, unsigned long flags)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
	if (flags & X86_EFLAGS_IF)
		__asm__ volatile("" : : : "memory"); /* sti, left out in ring 3 */
}
