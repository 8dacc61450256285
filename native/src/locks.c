/*
 * locks.c - the C twin of `bench locks` (seed 004): the lock/unlock kernels of
 * prototype-kernel's time_bench_sample.c, moved to userspace.
 *
 * Each cs_locks_<variant>() runs a loop of `loops` elements inside C, as
 * time_bench_loop() does, and fills a struct cs_locks_record with the elapsed
 * CLOCK_MONOTONIC nanoseconds and TSC cycles around the whole loop, so Java pays
 * one downcall per batch, not per element. The loop overhead is measured by
 * cs_locks_for_loop() and reported, not subtracted (time_bench does the same).
 *
 * The work inside a lock is the Java side's: `++count` on a counter in memory
 * (struct cs_locks_state.work, on a line of its own, as the Java benchmark's field
 * sits apart from the lock word), a load and a store under the lock. time_bench's
 * loops_cnt++ is a register increment; the Java side cannot keep one across JMH's
 * calls, so both sides use memory and loops_cnt only counts the elements.
 *
 * Userspace has no local_irq_save(): the stand-in is pthread_sigmask(), which
 * blocks signals, the userspace analogue of interrupts. It is a system call
 * (rt_sigprocmask), so the irqsave rows cost hundreds of ns here where the
 * kernel's local_irq_save() is a few instructions. The synchronous signals (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGTRAP) are left out of the blocked set, as cli leaves
 * exceptions enabled: blocking them is useless (the kernel forces them through)
 * and fatal in a JVM, whose implicit null checks and safepoint polls raise SIGSEGV.
 *
 * A second stand-in runs what local_irq_save()/local_irq_restore() ran on the seed's
 * kernel (3.17, native_save_fl()/native_restore_fl()): pushfq; pop to save the flags,
 * push; popfq to restore them, around the same xchg spin lock
 * (cs_locks_spin_lock_irqsave_pushf). It omits cli: cli faults in ring 3 (#GP at
 * IOPL 0), so interrupts stay enabled; and popfq in ring 3 leaves IF as it was. What
 * it keeps is the flags register's round trip through the stack, popf's
 * serialising cost included, which is most of what the kernel's save/restore runs.
 *
 * Every lock lives in a struct cs_locks_state allocated here (cs_locks_state_new),
 * each on its own cache line, so Java can share one state between threads for the
 * contended mode and the exclusion tests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <time.h>

#define CS_CACHE_LINE 64
#define CS_ALIGNED __attribute__((aligned(CS_CACHE_LINE)))
#define CS_EXPORT __attribute__((visibility("default")))

/* time_bench's barrier(): the compiler may not move memory accesses across it
 * nor drop the loop. */
#define cs_barrier() __asm__ __volatile__("" ::: "memory")

/* What one batch measured; the Java side reads it as four longs. */
struct cs_locks_record {
	uint64_t invoked;      /* elements actually run (loops_cnt in time_bench) */
	uint64_t ns;           /* CLOCK_MONOTONIC nanoseconds around the loop */
	uint64_t tsc;          /* TSC cycles around the loop; 0 where there is no TSC */
	uint64_t cpu_migrated; /* 1 if the thread ran on another CPU at the end than at the start */
};

struct cs_locks_state {
	CS_ALIGNED int spin;                   /* test-and-set word: 0 free, 1 held */
	CS_ALIGNED pthread_spinlock_t pspin;
	CS_ALIGNED pthread_mutex_t mutex;      /* analogue of an uncontended `synchronized` */
	CS_ALIGNED pthread_mutex_t recursive;  /* analogue of ReentrantLock */
	CS_ALIGNED uint64_t seq;               /* seqlock: analogue of StampedLock's optimistic read */
	uint64_t seq_data;
	CS_ALIGNED uint64_t atomic;            /* analogue of AtomicLong.incrementAndGet */
	CS_ALIGNED uint64_t counter;           /* incremented under a lock by the exclusion check */
	CS_ALIGNED uint64_t work;              /* the uncontended loops' ++count under the lock */
	CS_ALIGNED int stop;                   /* contended mode: set by the first thread past its deadline */
	int ready;                             /* contended mode: threads at the starting line */
	CS_ALIGNED sigset_t blockable;         /* every signal but the synchronous ones */
};

/* ---- clocks: time_bench's tsc_start_clock()/tsc_stop_clock(), with CPUID moved out of the windows ---- */

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define CS_HAVE_TSC 1
/* CPUID serialises, so earlier instructions cannot leak into a timed region or later
 * ones out of it (Intel doc #324264, as time_bench.h). Under a hypervisor it traps
 * and costs microseconds, so the callers keep it outside both clocks' windows. */
static inline void cs_serialize(void)
{
	unsigned a, b, c, d;
	__cpuid(0, a, b, c, d);
	(void)a; (void)b; (void)c; (void)d;
}
static inline uint64_t cs_rdtsc(void)
{
	_mm_lfence(); /* the reads before it (the other clock) finish first */
	return __rdtsc();
}
/* RDTSCP waits for the timed instructions to finish. */
static inline uint64_t cs_rdtscp(void)
{
	unsigned aux;
	return __rdtscp(&aux);
}
static inline void cs_cpu_relax(void) { __builtin_ia32_pause(); }
#else
#define CS_HAVE_TSC 0
static inline void cs_serialize(void) { }
static inline uint64_t cs_rdtsc(void) { return 0; }
static inline uint64_t cs_rdtscp(void) { return 0; }
#if defined(__aarch64__)
static inline void cs_cpu_relax(void) { __asm__ __volatile__("yield" ::: "memory"); }
#else
static inline void cs_cpu_relax(void) { cs_barrier(); }
#endif
#endif

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct cs_clock {
	uint64_t ns;
	uint64_t tsc;
	int cpu;
	int migrated;
};

/*
 * The two clocks nest: CLOCK_MONOTONIC outside, the TSC inside, and the
 * serialising CPUID outside both (before the start, after the stop), so neither
 * window pays for it. The monotonic window holds the two TSC reads, a few ns.
 * `expect_cpu` >= 0: the CPU the thread was pinned to; the record says
 * cpu_migrated if the thread ran anywhere else at the start or at the end.
 */
static inline void bench_start(struct cs_clock *c, int expect_cpu)
{
	c->cpu = expect_cpu >= 0 ? expect_cpu : sched_getcpu();
	c->migrated = sched_getcpu() != c->cpu;
	cs_serialize();
	c->ns = now_ns();
	c->tsc = cs_rdtsc();
}

static inline void bench_stop(const struct cs_clock *start, uint64_t invoked, struct cs_locks_record *rec)
{
	uint64_t tsc = cs_rdtscp();
	uint64_t ns = now_ns();
	cs_serialize();
	rec->invoked = invoked;
	rec->ns = ns - start->ns;
	rec->tsc = CS_HAVE_TSC ? tsc - start->tsc : 0;
	rec->cpu_migrated = start->migrated || sched_getcpu() != start->cpu;
}

/* ---- the locks ---- */

/* Test-and-set with a read-only wait (test-and-test-and-set): the uncontended
 * path is one xchg, like the Java twin's VarHandle.getAndSet. */
static inline void cs_spin_lock(int *lock)
{
	while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(lock, __ATOMIC_RELAXED))
			cs_cpu_relax();
	}
}

static inline void cs_spin_unlock(int *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* The mask change. Its return value is an error number (pthread_sigmask does
 * not set errno); loops stop at the first failure and return it. */
static inline int irq_save(struct cs_locks_state *s, sigset_t *flags)
{
	return pthread_sigmask(SIG_BLOCK, &s->blockable, flags);
}

static inline int irq_restore(const sigset_t *flags)
{
	return pthread_sigmask(SIG_SETMASK, flags, NULL);
}

/* spin_lock_irqsave()/spin_unlock_irqrestore() with the seed's call structure: one out-of-line
 * call per element more than spin_lock()/spin_unlock(). On the seed's 3.17 x86 kernel
 * (kernel/Kconfig.locks, DEBUG_SPINLOCK=n, PREEMPT=n) _raw_spin_lock and _raw_spin_lock_irqsave
 * are both out of line, spin_unlock is inline, and spin_unlock_irqrestore is out of line (it is
 * inlined only where the architecture asks, which x86 does not): one call for the plain lock,
 * two for the irqsave pair. Here the plain lock is inline, so the irqsave lock is inline too and
 * only the unlock is out of line: the difference, one call, is the kernel's. */
static inline int cs_spin_lock_irqsave(struct cs_locks_state *s, sigset_t *flags)
{
	int rc = irq_save(s, flags);
	if (rc == 0)
		cs_spin_lock(&s->spin);
	return rc;
}

static __attribute__((noinline)) int cs_spin_unlock_irqrestore(struct cs_locks_state *s, const sigset_t *flags)
{
	cs_spin_unlock(&s->spin);
	return irq_restore(flags);
}

#if defined(__x86_64__)
/* local_irq_save() without cli, and local_irq_restore() (native_save_fl/native_restore_fl). */
static inline unsigned long cs_irq_save_flags(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq\n\tpopq %0" : "=rm"(flags) : : "memory");
	return flags;
}

static inline void cs_irq_restore_flags(unsigned long flags)
{
	__asm__ __volatile__("pushq %0\n\tpopfq" : : "g"(flags) : "memory", "cc");
}
#define CS_HAVE_PUSHF 1
#else
static inline unsigned long cs_irq_save_flags(void) { cs_barrier(); return 0; }
static inline void cs_irq_restore_flags(unsigned long flags) { (void)flags; cs_barrier(); }
#define CS_HAVE_PUSHF 0
#endif

/* spin_lock_irqsave()/spin_unlock_irqrestore() with the flags stand-in, the same call structure:
 * the lock inline, the unlock one out-of-line helper. */
static inline unsigned long cs_spin_lock_irqsave_pushf(struct cs_locks_state *s)
{
	unsigned long flags = cs_irq_save_flags();

	cs_spin_lock(&s->spin);
	return flags;
}

static __attribute__((noinline)) void cs_spin_unlock_irqrestore_pushf(struct cs_locks_state *s, unsigned long flags)
{
	cs_spin_unlock(&s->spin);
	cs_irq_restore_flags(flags);
}

/* The Java benchmarks' `++count` under the lock: a counter in memory, a load and a
 * store; the barrier keeps the compiler from moving it out of the critical section. */
static inline void cs_locks_work(struct cs_locks_state *s)
{
	s->work++;
	cs_barrier();
}

/* time_bench_sample.c's measured_function(). */
static __attribute__((noinline)) void measured_function(volatile int *var)
{
	*var = 1;
}

/* ---- state ---- */

/* Allocates and initialises a state into *out; returns 0 or an error number. */
CS_EXPORT int cs_locks_state_new(void **out)
{
	*out = NULL;
	struct cs_locks_state *s = aligned_alloc(CS_CACHE_LINE, sizeof(*s));
	if (s == NULL)
		return ENOMEM;
	memset(s, 0, sizeof(*s));
	pthread_mutexattr_t attr;
	int rc;
	if ((rc = pthread_spin_init(&s->pspin, PTHREAD_PROCESS_PRIVATE)) != 0)
		goto fail;
	if ((rc = pthread_mutex_init(&s->mutex, NULL)) != 0)
		goto fail;
	if ((rc = pthread_mutexattr_init(&attr)) != 0)
		goto fail;
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	rc = pthread_mutex_init(&s->recursive, &attr);
	pthread_mutexattr_destroy(&attr);
	if (rc != 0)
		goto fail;
	sigfillset(&s->blockable);
	sigdelset(&s->blockable, SIGSEGV);
	sigdelset(&s->blockable, SIGBUS);
	sigdelset(&s->blockable, SIGFPE);
	sigdelset(&s->blockable, SIGILL);
	sigdelset(&s->blockable, SIGTRAP);
	*out = s;
	return 0;
fail:
	free(s);
	return rc;
}

CS_EXPORT void cs_locks_state_free(void *state)
{
	struct cs_locks_state *s = state;
	if (s == NULL)
		return;
	pthread_spin_destroy(&s->pspin);
	pthread_mutex_destroy(&s->mutex);
	pthread_mutex_destroy(&s->recursive);
	free(s);
}

/* ---- the time_bench loops, one per variant ---- */

CS_EXPORT int cs_locks_for_loop(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	(void)state;
	uint64_t loops_cnt = 0;
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		loops_cnt++;
		cs_barrier();
	}
	bench_stop(&c, loops_cnt, rec);
	return 0;
}

CS_EXPORT int cs_locks_spin_lock_unlock(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		cs_spin_lock(&s->spin);
		cs_locks_work(s);
		cs_spin_unlock(&s->spin);
		loops_cnt++;
	}
	bench_stop(&c, loops_cnt, rec);
	return 0;
}

CS_EXPORT int cs_locks_pthread_spin_lock(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	int rc = 0;
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		rc = pthread_spin_lock(&s->pspin);
		if (rc != 0)
			break;
		cs_locks_work(s);
		pthread_spin_unlock(&s->pspin);
		loops_cnt++;
	}
	bench_stop(&c, loops_cnt, rec);
	return rc;
}

CS_EXPORT int cs_locks_spin_lock_irqsave(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	int rc = 0;
	sigset_t flags;
	sigset_t original;
	pthread_sigmask(SIG_BLOCK, NULL, &original);
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		if ((rc = cs_spin_lock_irqsave(s, &flags)) != 0)
			break;
		cs_locks_work(s);
		if ((rc = cs_spin_unlock_irqrestore(s, &flags)) != 0)
			break;
		loops_cnt++;
	}
	bench_stop(&c, loops_cnt, rec);
	pthread_sigmask(SIG_SETMASK, &original, NULL); /* whatever happened in the loop */
	return rc;
}

/* spin_lock_irqsave with pushfq; pop / push; popfq as the flags save and restore (no cli). */
CS_EXPORT int cs_locks_spin_lock_irqsave_pushf(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	struct cs_clock c;

	if (!CS_HAVE_PUSHF)
		return ENOTSUP;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		unsigned long flags = cs_spin_lock_irqsave_pushf(s);

		cs_locks_work(s);
		cs_spin_unlock_irqrestore_pushf(s, flags);
		loops_cnt++;
	}
	bench_stop(&c, loops_cnt, rec);
	return 0;
}

/* For the Java row of the same stand-in: the flags save and restore alone, one downcall each. */
CS_EXPORT unsigned long cs_locks_local_irq_save(void)
{
	return cs_irq_save_flags();
}

CS_EXPORT void cs_locks_local_irq_restore(unsigned long flags)
{
	cs_irq_restore_flags(flags);
}

CS_EXPORT int cs_locks_irqsave_manual(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	int rc = 0;
	sigset_t flags;
	sigset_t original;
	pthread_sigmask(SIG_BLOCK, NULL, &original);
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		if ((rc = irq_save(s, &flags)) != 0)
			break;
		cs_spin_lock(&s->spin);
		cs_locks_work(s);
		cs_spin_unlock(&s->spin);
		loops_cnt++;
		if ((rc = irq_restore(&flags)) != 0)
			break;
	}
	bench_stop(&c, loops_cnt, rec);
	pthread_sigmask(SIG_SETMASK, &original, NULL); /* whatever happened in the loop */
	return rc;
}

/* local_irq_disable() + spin_lock(): no flags saved; "enable" unblocks the
 * whole set, as local_irq_enable() sets IF whatever it was before. */
CS_EXPORT int cs_locks_irq_disable_spin_lock(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	int rc = 0;
	sigset_t original;
	pthread_sigmask(SIG_BLOCK, NULL, &original);
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		if ((rc = pthread_sigmask(SIG_BLOCK, &s->blockable, NULL)) != 0)
			break;
		cs_spin_lock(&s->spin);
		cs_locks_work(s);
		cs_spin_unlock(&s->spin);
		loops_cnt++;
		if ((rc = pthread_sigmask(SIG_UNBLOCK, &s->blockable, NULL)) != 0)
			break;
	}
	bench_stop(&c, loops_cnt, rec);
	pthread_sigmask(SIG_SETMASK, &original, NULL); /* whatever happened in the loop */
	return rc;
}

CS_EXPORT int cs_locks_irq_save_restore(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	int rc = 0;
	sigset_t flags;
	sigset_t original;
	pthread_sigmask(SIG_BLOCK, NULL, &original);
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		if ((rc = irq_save(s, &flags)) != 0)
			break;
		cs_locks_work(s);
		if ((rc = irq_restore(&flags)) != 0)
			break;
		loops_cnt++;
	}
	bench_stop(&c, loops_cnt, rec);
	pthread_sigmask(SIG_SETMASK, &original, NULL); /* whatever happened in the loop */
	return rc;
}

CS_EXPORT int cs_locks_function_call(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	(void)state;
	uint64_t loops_cnt = 0;
	int tmp;
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		measured_function(&tmp);
		loops_cnt++;
	}
	bench_stop(&c, loops_cnt, rec);
	return 0;
}

/* Analogue of an uncontended `synchronized`: the default (non-recursive) mutex. */
CS_EXPORT int cs_locks_mutex(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	int rc = 0;
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		if ((rc = pthread_mutex_lock(&s->mutex)) != 0)
			break;
		cs_locks_work(s);
		pthread_mutex_unlock(&s->mutex);
		loops_cnt++;
	}
	bench_stop(&c, loops_cnt, rec);
	return rc;
}

/* Analogue of ReentrantLock: a recursive mutex (owner and count, like AQS's state). */
CS_EXPORT int cs_locks_recursive_mutex(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	int rc = 0;
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		if ((rc = pthread_mutex_lock(&s->recursive)) != 0)
			break;
		cs_locks_work(s);
		pthread_mutex_unlock(&s->recursive);
		loops_cnt++;
	}
	bench_stop(&c, loops_cnt, rec);
	return rc;
}

/* Analogue of StampedLock.tryOptimisticRead() + validate(): a seqlock read,
 * which writes nothing. */
CS_EXPORT int cs_locks_seqlock_read(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0, sum = 0;
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		uint64_t start, value;
		do {
			start = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
			value = __atomic_load_n(&s->seq_data, __ATOMIC_RELAXED);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
		} while ((start & 1) || __atomic_load_n(&s->seq, __ATOMIC_RELAXED) != start);
		sum += value;
		loops_cnt++;
		cs_barrier();
	}
	bench_stop(&c, loops_cnt, rec);
	__atomic_store_n(&s->seq_data, sum, __ATOMIC_RELAXED); /* keeps the reads alive */
	return 0;
}

/* Analogue of AtomicLong.incrementAndGet(): lock xadd on x86. */
CS_EXPORT int cs_locks_atomic_increment(void *state, uint64_t loops, struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	uint64_t loops_cnt = 0;
	struct cs_clock c;
	bench_start(&c, -1);
	for (uint64_t i = 0; i < loops; i++) {
		__atomic_add_fetch(&s->atomic, 1, __ATOMIC_SEQ_CST);
		loops_cnt++;
	}
	bench_stop(&c, loops_cnt, rec);
	return 0;
}

/* ---- the cost of crossing from Java ---- */

/* Empty: a downcall to it costs only the FFM transition. */
CS_EXPORT void cs_locks_empty(void)
{
}

/* ---- exclusion check: `increments` times counter++ under the spinlock ---- */

CS_EXPORT void cs_locks_spin_increment(void *state, uint64_t increments)
{
	struct cs_locks_state *s = state;
	volatile uint64_t *counter = &s->counter;
	for (uint64_t i = 0; i < increments; i++) {
		cs_spin_lock(&s->spin);
		*counter = *counter + 1; /* a plain read-modify-write: only the lock keeps it whole */
		cs_spin_unlock(&s->spin);
	}
}

CS_EXPORT uint64_t cs_locks_counter(void *state)
{
	return ((struct cs_locks_state *)state)->counter;
}

/* The uncontended loops' memory counter: one increment per element under a lock. */
CS_EXPORT uint64_t cs_locks_work_done(void *state)
{
	return ((struct cs_locks_state *)state)->work;
}

/* ---- contended mode ---- */

enum cs_locks_contended_kind {
	CS_CONTENDED_SPIN = 0,
	CS_CONTENDED_PTHREAD_SPIN = 1,
	CS_CONTENDED_MUTEX = 2,
	CS_CONTENDED_ATOMIC = 3,
};

/*
 * One of `threads` threads hammering the state's lock: waits until all are at
 * the starting line, then lock/counter++/unlock until any thread has run for
 * `duration_ns`; the first past its deadline stops everyone, so all threads
 * stop contending at the same moment. rec->invoked is this thread's share.
 * `cpu`: where the caller pinned this thread; rec->cpu_migrated says if
 * sched_getcpu() found it anywhere else at the start or the end (-1: not pinned).
 */
CS_EXPORT int cs_locks_contend(void *state, int kind, int threads, int cpu, uint64_t duration_ns,
			     struct cs_locks_record *rec)
{
	struct cs_locks_state *s = state;
	volatile uint64_t *counter = &s->counter;
	uint64_t ops = 0;
	int rc = 0;

	__atomic_add_fetch(&s->ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE) < threads)
		cs_cpu_relax();

	struct cs_clock c;
	bench_start(&c, cpu);
	uint64_t deadline = c.ns + duration_ns;
	while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
		switch (kind) {
		case CS_CONTENDED_SPIN:
			cs_spin_lock(&s->spin);
			*counter = *counter + 1;
			cs_spin_unlock(&s->spin);
			break;
		case CS_CONTENDED_PTHREAD_SPIN:
			pthread_spin_lock(&s->pspin);
			*counter = *counter + 1;
			pthread_spin_unlock(&s->pspin);
			break;
		case CS_CONTENDED_MUTEX:
			pthread_mutex_lock(&s->mutex);
			*counter = *counter + 1;
			pthread_mutex_unlock(&s->mutex);
			break;
		case CS_CONTENDED_ATOMIC:
			__atomic_add_fetch(&s->atomic, 1, __ATOMIC_SEQ_CST);
			break;
		default:
			rc = EINVAL;
			__atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
			continue;
		}
		ops++;
		if ((ops & 1023) == 0 && now_ns() >= deadline)
			__atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
	}
	bench_stop(&c, ops, rec);
	return rc;
}

/* Rearms the starting line and clears the counters before another contended run. */
CS_EXPORT void cs_locks_contend_reset(void *state)
{
	struct cs_locks_state *s = state;
	__atomic_store_n(&s->ready, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->counter, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->atomic, 0, __ATOMIC_RELEASE);
}

/* ---- the TSC rate ---- */

CS_EXPORT int cs_locks_has_tsc(void)
{
	return CS_HAVE_TSC;
}

/*
 * TSC cycles per microsecond (= MHz) over `window_ns` of CLOCK_MONOTONIC,
 * spinning on the clock; the caller pins the thread and repeats it for an error.
 * Returns 0 where there is no TSC.
 */
CS_EXPORT double cs_locks_calibrate_tsc_mhz(uint64_t window_ns)
{
	if (!CS_HAVE_TSC)
		return 0;
	cs_serialize();
	uint64_t t0 = now_ns();
	uint64_t c0 = cs_rdtsc();
	uint64_t t1;
	do {
		t1 = now_ns();
	} while (t1 - t0 < window_ns);
	uint64_t c1 = cs_rdtscp();
	t1 = now_ns();
	cs_serialize();
	return (double)(c1 - c0) * 1000.0 / (double)(t1 - t0);
}

/*
 * The rate the kernel settled on, from its log (klogctl(SYSLOG_ACTION_READ_ALL),
 * what dmesg reads): "tsc: Refined TSC clocksource calibration: X MHz" if
 * present, else "tsc: Detected X MHz processor". Returns kHz; 0 when neither line
 * is in the log (the ring buffer wrapped, or another architecture); -errno when
 * the log cannot be read (EPERM without CAP_SYSLOG under kernel.dmesg_restrict=1).
 * *which is 1 for the refined line, 2 for the detected one.
 */
CS_EXPORT long cs_locks_kernel_tsc_khz(int *which)
{
	*which = 0;
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (size < 0)
		return -errno;
	char *buf = malloc((size_t)size + 1);
	if (buf == NULL)
		return -ENOMEM;
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		int e = errno;
		free(buf);
		return -e;
	}
	buf[n] = '\0';
	long khz = 0;
	static const char *const keys[] = {
		"tsc: Refined TSC clocksource calibration: ",
		"tsc: Detected ",
	};
	for (int k = 0; k < 2 && khz == 0; k++) {
		/* the last occurrence wins: a re-calibration replaces the first one */
		for (char *p = strstr(buf, keys[k]); p != NULL; p = strstr(p + 1, keys[k])) {
			unsigned long mhz, frac = 0;
			char fracs[8] = "";
			if (sscanf(p + strlen(keys[k]), "%lu.%7[0-9] MHz", &mhz, fracs) >= 1) {
				int digits = 0;
				for (const char *f = fracs; *f && digits < 3; f++, digits++)
					frac = frac * 10 + (unsigned long)(*f - '0');
				for (; digits < 3; digits++)
					frac *= 10;
				khz = (long)(mhz * 1000 + frac);
				*which = k + 1;
			}
		}
	}
	free(buf);
	return khz;
}
