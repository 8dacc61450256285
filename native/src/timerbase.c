/*
 * C twins for seed 001 (bench timerbase): get_timer_cpu_base() from kernel/time/timer.c
 * before and after "timers: Optimize get_timer_cpu_base() to reduce potentially redundant
 * per_cpu_ptr() calls" (Zhongqiu Han, Dec 2024), driven by a lock_timer_base()-like loop.
 *
 * The per-CPU areas, the __per_cpu_offset[] table and the timers are the same off-heap
 * memory the Java side measures (TimerBases.java lays them out and first-touches each area
 * from a thread pinned to its CPU); this file only reads them. The structs below must match
 * TimerBases' MemoryLayouts (the _Static_asserts and TimerBasesTest check both sides).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define TIMER_CPUMASK		0x0003FFFF
#define TIMER_MIGRATING		0x00040000
#define TIMER_DEFERRABLE	0x00080000
#define TIMER_PINNED		0x00100000

/* CONFIG_NO_HZ_COMMON=y, v6.9+: three bases per CPU */
#define NR_BASES	3
#define BASE_LOCAL	0
#define BASE_GLOBAL	1
#define BASE_DEF	2

#define LVL_SIZE	64
#define LVL_DEPTH	9
#define WHEEL_SIZE	(LVL_SIZE * LVL_DEPTH)

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define cpu_relax() __builtin_ia32_pause()
#define CS_NOINLINE __attribute__((noinline, noclone))

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct timer_list {
	struct hlist_node entry;
	unsigned long expires;
	void (*function)(struct timer_list *);
	uint32_t flags;
};

/* kernel/time/timer.c's struct timer_base without PREEMPT_RT's expiry lock */
struct timer_base {
	uint32_t lock;			/* raw_spinlock_t */
	struct timer_list *running_timer;
	unsigned long clk;
	unsigned long next_expiry;
	unsigned int cpu;
	bool next_expiry_recalc;
	bool is_idle;
	bool timers_pending;
	unsigned long pending_map[WHEEL_SIZE / 64];
	struct hlist_head vectors[WHEEL_SIZE];
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct timer_list) == 40, "timer_list as TimerBases.TIMER_LIST");
_Static_assert(offsetof(struct timer_list, flags) == 32, "timer_list.flags as TimerBases");
_Static_assert(offsetof(struct timer_base, cpu) == 32, "timer_base.cpu as TimerBases");
_Static_assert(sizeof(struct timer_base) == 4736, "timer_base as TimerBases.TIMER_BASE");

/*
 * DEFINE_PER_CPU(struct timer_base, timer_bases[NR_BASES]): on x86-64 a per-CPU symbol's
 * address is its offset inside every CPU's per-CPU area, a link-time constant. Here the
 * first 64 bytes of each area stand for the per-CPU variables before it.
 */
#define PCPU_TIMER_BASES 64UL
#define timer_bases ((struct timer_base *)PCPU_TIMER_BASES)

/*
 * __per_cpu_offset[]: in the kernel a global array, `extern unsigned long
 * __per_cpu_offset[NR_CPUS]` (arch/x86/include/asm/percpu.h), so per_cpu_ptr() is one load
 * from a link-time address. The same here: an array inside this library (hidden, so no GOT
 * load in front of it; the kernel is not PIC and needs none), filled from the Java model's
 * table before every batch. 8192 is the NR_CPUS of x86-64 distribution kernels.
 */
#define NR_CPUS 8192
__attribute__((visibility("hidden"))) unsigned long __per_cpu_offset[NR_CPUS];

/*
 * include/linux/compiler-gcc.h. The empty asm hides where the pointer came from, so GCC
 * makes no assumption about which object `ptr + off` points into. It does NOT keep two
 * lookups apart: the asm is not volatile and clobbers no memory, and __per_cpu_offset[cpu]
 * is a plain load, so GCC may load it once for two per_cpu_ptr() of the same CPU, and does
 * (cs_timerbase_lock_before has one load of the table; MachineCode shows it).
 */
#define RELOC_HIDE(ptr, off)						\
({									\
	unsigned long __ptr;						\
	__asm__ ("" : "=r"(__ptr) : "0"(ptr));				\
	(__typeof__(ptr)) (__ptr + (off));				\
})
#define per_cpu_ptr(ptr, cpu) RELOC_HIDE((ptr), __per_cpu_offset[(cpu)])
/* Not the kernel's: each lookup a READ_ONCE of the table, which GCC may neither merge nor drop. */
#define per_cpu_ptr_reload(ptr, cpu) RELOC_HIDE((ptr), READ_ONCE(__per_cpu_offset[(cpu)]))

/*
 * Before seed 001: a deferrable timer computes per_cpu_ptr() twice. Compiled as the kernel
 * is, GCC loads __per_cpu_offset[cpu] once, computes both addresses and picks one: the
 * compiler's own choice, variant "before".
 */
static inline struct timer_base *get_timer_cpu_base_before(uint32_t tflags, uint32_t cpu)
{
	int index = tflags & TIMER_PINNED ? BASE_LOCAL : BASE_GLOBAL;
	struct timer_base *base;

	base = per_cpu_ptr(&timer_bases[index], cpu);

	/*
	 * If the timer is deferrable and NO_HZ_COMMON is set then we need
	 * to use the deferrable base.
	 */
	if (tflags & TIMER_DEFERRABLE)
		base = per_cpu_ptr(&timer_bases[BASE_DEF], cpu);
	return base;
}

/*
 * The same code with both lookups kept: variant "before_two_loads", what "two per_cpu_ptr()"
 * costs when nothing merges them (a deferrable timer loads __per_cpu_offset[cpu] twice).
 */
static inline struct timer_base *get_timer_cpu_base_before_two_loads(uint32_t tflags, uint32_t cpu)
{
	int index = tflags & TIMER_PINNED ? BASE_LOCAL : BASE_GLOBAL;
	struct timer_base *base;

	base = per_cpu_ptr_reload(&timer_bases[index], cpu);
	if (tflags & TIMER_DEFERRABLE)
		base = per_cpu_ptr_reload(&timer_bases[BASE_DEF], cpu);
	return base;
}

/* After seed 001: pick the index, then one per_cpu_ptr(). */
static inline struct timer_base *get_timer_cpu_base_after(uint32_t tflags, uint32_t cpu)
{
	int index = tflags & TIMER_PINNED ? BASE_LOCAL : BASE_GLOBAL;

	if (tflags & TIMER_DEFERRABLE)
		index = BASE_DEF;

	return per_cpu_ptr(&timer_bases[index], cpu);
}

/* timerbase_lock.c: opaque to this file, as kernel/locking/spinlock.c is to kernel/time/timer.c */
__attribute__((visibility("hidden"))) unsigned long cs_timerbase_raw_spin_lock_irqsave(uint32_t *lock);
__attribute__((visibility("hidden"))) void cs_timerbase_raw_spin_unlock_irqrestore(uint32_t *lock, unsigned long flags);

/*
 * kernel/time/timer.c's lock_timer_base(): read the flags once, skip a migrating timer, find
 * the base, take its lock (an out-of-line call the compiler cannot see into), check the flags
 * did not change, else unlock and retry. The base must be known before the lock call, so the
 * table load stays in the loop, where the kernel has it. Returns with the base locked; the
 * caller unlocks it.
 */
#define DEFINE_LOCK_TIMER_BASE(WHEN)							\
CS_NOINLINE struct timer_base *cs_timerbase_lock_##WHEN(struct timer_list *timer,	\
							 unsigned long *flags)		\
{											\
	for (;;) {									\
		struct timer_base *base;						\
		uint32_t tf = READ_ONCE(timer->flags);					\
											\
		if (!(tf & TIMER_MIGRATING)) {						\
			base = get_timer_cpu_base_##WHEN(tf, tf & TIMER_CPUMASK);	\
			*flags = cs_timerbase_raw_spin_lock_irqsave(&base->lock);	\
			if (timer->flags == tf)						\
				return base;						\
			cs_timerbase_raw_spin_unlock_irqrestore(&base->lock, *flags);	\
		}									\
		cpu_relax();								\
	}										\
}

/* One lock_timer_base() and the caller's unlock, as a mod_timer() that found nothing to do. */
#define LOCK_UNLOCK(WHEN, timer, out)							\
	do {										\
		unsigned long flags_;							\
		struct timer_base *base_ = cs_timerbase_lock_##WHEN((timer), &flags_);	\
		(out) = base_;								\
		cs_timerbase_raw_spin_unlock_irqrestore(&base_->lock, flags_);		\
	} while (0)

DEFINE_LOCK_TIMER_BASE(before)
DEFINE_LOCK_TIMER_BASE(before_two_loads)
DEFINE_LOCK_TIMER_BASE(after)

/* TimerbaseTwins.Variant's ordinals */
enum { EMPTY, BEFORE, AFTER, BEFORE_TWO_LOADS };

/* The Java model's table into __per_cpu_offset[]; false when it has more than NR_CPUS entries. */
static bool load_offsets(const unsigned long *per_cpu_offset, uint32_t nr_cpu_ids)
{
	if (nr_cpu_ids > NR_CPUS)
		return false;
	for (uint32_t cpu = 0; cpu < nr_cpu_ids; cpu++)
		__per_cpu_offset[cpu] = per_cpu_offset[cpu];
	return true;
}

static inline uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/*
 * `calls` lock_timer_base() calls, each followed by the unlock, over timers[0 .. ntimers-1]
 * (ntimers a power of two),
 * timed as one batch, after copying per_cpu_offset[0 .. nr_cpu_ids-1] into __per_cpu_offset[].
 * Returns the elapsed nanoseconds (-1: unknown variant, -2: nr_cpu_ids above NR_CPUS);
 * *cpu_ns gets the thread's CPU time over the same span, so the caller can tell a batch during
 * which the thread was descheduled; adds every base's address to *sink.
 */
int64_t cs_timerbase_batch(int variant, const unsigned long *per_cpu_offset, uint32_t nr_cpu_ids,
			   struct timer_list *timers, uint32_t ntimers, int64_t calls, uint64_t *sink,
			   int64_t *cpu_ns)
{
	uint64_t sum = 0, start, end, cpu_start, cpu_end;

	if (variant != BEFORE && variant != AFTER && variant != BEFORE_TWO_LOADS)
		return -1;
	if (!load_offsets(per_cpu_offset, nr_cpu_ids))
		return -2;
	cpu_start = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	start = now_ns();
	if (variant == BEFORE) {
		for (int64_t n = 0; n < calls; n++) {
			struct timer_base *base;

			LOCK_UNLOCK(before, &timers[n & (ntimers - 1)], base);
			sum += (uintptr_t)base;
		}
	} else if (variant == BEFORE_TWO_LOADS) {
		for (int64_t n = 0; n < calls; n++) {
			struct timer_base *base;

			LOCK_UNLOCK(before_two_loads, &timers[n & (ntimers - 1)], base);
			sum += (uintptr_t)base;
		}
	} else {
		for (int64_t n = 0; n < calls; n++) {
			struct timer_base *base;

			LOCK_UNLOCK(after, &timers[n & (ntimers - 1)], base);
			sum += (uintptr_t)base;
		}
	}
	end = now_ns();
	cpu_end = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	*sink += sum;
	*cpu_ns = (int64_t)(cpu_end - cpu_start);
	return (int64_t)(end - start);
}

/*
 * The seed's way: clock_gettime() before and after every lock_timer_base() call (the lock
 * taken inside, the unlock after the second clock read), `samples` times, each latency in ns
 * into out_ns[]. EMPTY times nothing between the two clock reads: the
 * clock's own cost. Returns the sum of the bases' ->cpu (0 for EMPTY), -1 for an unknown
 * variant, -2 for nr_cpu_ids above NR_CPUS.
 */
int64_t cs_timerbase_samples(int variant, const unsigned long *per_cpu_offset, uint32_t nr_cpu_ids,
			     struct timer_list *timers, uint32_t ntimers, uint32_t *out_ns, int64_t samples)
{
	int64_t cpus = 0;

	if (variant != EMPTY && variant != BEFORE && variant != AFTER && variant != BEFORE_TWO_LOADS)
		return -1;
	if (!load_offsets(per_cpu_offset, nr_cpu_ids))
		return -2;
	for (int64_t n = 0; n < samples; n++) {
		struct timer_list *timer = &timers[n & (ntimers - 1)];
		struct timer_base *base = NULL;
		unsigned long flags = 0;
		uint64_t t0, t1;

		switch (variant) {
		case EMPTY:
			t0 = now_ns();
			t1 = now_ns();
			break;
		case BEFORE:
			t0 = now_ns();
			base = cs_timerbase_lock_before(timer, &flags);
			t1 = now_ns();
			break;
		case BEFORE_TWO_LOADS:
			t0 = now_ns();
			base = cs_timerbase_lock_before_two_loads(timer, &flags);
			t1 = now_ns();
			break;
		default:
			t0 = now_ns();
			base = cs_timerbase_lock_after(timer, &flags);
			t1 = now_ns();
			break;
		}
		out_ns[n] = (uint32_t)(t1 - t0 > UINT32_MAX ? UINT32_MAX : t1 - t0);
		if (base) {
			cpus += READ_ONCE(base->cpu);
			cs_timerbase_raw_spin_unlock_irqrestore(&base->lock, flags);
		}
	}
	return cpus;
}
