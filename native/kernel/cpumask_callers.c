/*
 * Seed 000's code size as bloat-o-meter measured it: cpumask_any_but() is __always_inline,
 * so the patch changes the size of its *callers*, not of a function of its own. This file
 * is a set of kernel-like callers modelled on the functions the seed's table lists, each
 * using cpumask_any_but() as the kernel function does (the surrounding work is reduced to
 * calls of external functions, so the compiler cannot see through it):
 *
 *   flush_tlb_mm_range()          arch/x86/mm/tlb.c
 *   arch_tlbbatch_flush()         arch/x86/mm/tlb.c
 *   perf_event_exit_cpu_context() kernel/events/core.c (perf_event_clear_cpumask() inlined)
 *   tmigr_cpu_offline()           kernel/time/timer_migration.c
 *
 * native/build.sh compiles it four times as a relocatable object with kernel-like flags
 * (-O2 -fno-pic -mcmodel=kernel -mno-red-zone -fno-asynchronous-unwind-tables):
 *   -DNR_CPUS=64 or -DNR_CPUS=4096, and -DCS_NEW=0 (cpumask_any_but() as the for_each_cpu
 *   loop, before the patch) or -DCS_NEW=1 (cpumask_first_but(), after it).
 * CpumaskFamily reads each caller's st_size from the four objects' symbol tables and prints
 * bloat-o-meter's table (function, old, new, delta, total).
 */
#include <stdbool.h>

#ifndef NR_CPUS
#error "build with -DNR_CPUS=64 or -DNR_CPUS=4096"
#endif
#ifndef CS_NEW
#error "build with -DCS_NEW=0 (loop) or -DCS_NEW=1 (first_but)"
#endif

#define BITS_PER_LONG 64
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define GENMASK(h, l) (((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely(x) __builtin_expect(!!(x), 1)
#define __always_inline inline __attribute__((always_inline))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

struct cpumask { unsigned long bits[BITS_TO_LONGS(NR_CPUS)]; };
#define cpumask_bits(maskp) ((maskp)->bits)

/* The kernel's nr_cpu_ids: a variable unless NR_CPUS == 1 or CONFIG_FORCE_NR_CPUS. */
extern unsigned int nr_cpu_ids;

/* include/linux/cpumask.h: small_cpumask_bits is NR_CPUS when it fits one word, else nr_cpu_ids */
#if NR_CPUS <= BITS_PER_LONG
#define small_cpumask_bits ((unsigned int)NR_CPUS)
#else
#define small_cpumask_bits nr_cpu_ids
#endif

/* lib/find_bit.c, out of line */
extern unsigned long _find_first_bit(const unsigned long *addr, unsigned long size);
extern unsigned long _find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset);

#define small_const_nbits(nbits) (__builtin_constant_p(nbits) && (nbits) <= BITS_PER_LONG && (nbits) > 0)

static __always_inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

/* include/linux/find.h */
static __always_inline unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{
	if (small_const_nbits(size)) {
		unsigned long val = *addr & GENMASK(size - 1, 0);

		return val ? __ffs(val) : size;
	}
	return _find_first_bit(addr, size);
}

static __always_inline unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{
	if (small_const_nbits(size)) {
		unsigned long val;

		if (unlikely(offset >= size))
			return size;
		val = *addr & GENMASK(size - 1, offset);
		return val ? __ffs(val) : size;
	}
	return _find_next_bit(addr, size, offset);
}

#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) = find_next_bit((addr), (size), (bit)), (bit) < (size); (bit)++)
#define for_each_cpu(cpu, mask) for_each_set_bit(cpu, cpumask_bits(mask), small_cpumask_bits)

static __always_inline unsigned int cpumask_first(const struct cpumask *srcp)
{
	return find_first_bit(cpumask_bits(srcp), small_cpumask_bits);
}

static __always_inline unsigned int cpumask_next(int n, const struct cpumask *srcp)
{
	return find_next_bit(cpumask_bits(srcp), small_cpumask_bits, n + 1);
}

#if CS_NEW
/* after the patch: cpumask_first_but(), and cpumask_any_but() a macro around it */
static __always_inline unsigned int cpumask_first_but(const struct cpumask *mask, unsigned int cpu)
{
	unsigned int i;

	i = cpumask_first(mask);
	if (i == cpu)
		i = cpumask_next(i, mask);
	return i;
}
#define cpumask_any_but(srcp, cpu) cpumask_first_but(srcp, cpu)
#else
/* before the patch */
static __always_inline unsigned int cpumask_any_but(const struct cpumask *mask, unsigned int cpu)
{
	unsigned int i;

	for_each_cpu(i, mask)
		if (i != cpu)
			break;
	return i;
}
#endif

/* The bit operations the callers use besides (arch/x86/include/asm/bitops.h, simplified). */
static __always_inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *dstp)
{
	__asm__ volatile("lock btsq %1,%0" : "+m"(dstp->bits[cpu / BITS_PER_LONG]) : "Ir"((unsigned long)(cpu % BITS_PER_LONG)) : "memory");
}

static __always_inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *dstp)
{
	__asm__ volatile("lock btrq %1,%0" : "+m"(dstp->bits[cpu / BITS_PER_LONG]) : "Ir"((unsigned long)(cpu % BITS_PER_LONG)) : "memory");
}

static __always_inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *mask)
{
	return (mask->bits[cpu / BITS_PER_LONG] >> (cpu % BITS_PER_LONG)) & 1;
}

static __always_inline bool cpumask_test_and_clear_cpu(unsigned int cpu, struct cpumask *mask)
{
	bool old;

	__asm__ volatile("lock btrq %2,%1" : "=@ccc"(old), "+m"(mask->bits[cpu / BITS_PER_LONG])
			 : "Ir"((unsigned long)(cpu % BITS_PER_LONG)) : "memory");
	return old;
}

static __always_inline void cpumask_clear(struct cpumask *dstp)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		dstp->bits[i] = 0;
}

/* Everything else the callers do, out of line. */
struct mm_struct {
	unsigned long tlb_gen;
	unsigned long global_asid;
	struct cpumask cpu_bitmap;
};
struct flush_tlb_info {
	struct mm_struct *mm;
	unsigned long start, end, new_tlb_gen;
	unsigned int initiating_cpu;
	unsigned char stride_shift, freed_tables, trim_cpumask;
};
struct arch_tlbflush_unmap_batch {
	struct cpumask cpumask;
	bool unmapped_pages;
};

extern int smp_processor_id(void);
extern void preempt_disable(void);
extern void preempt_enable(void);
extern unsigned long inc_mm_tlb_gen(struct mm_struct *mm);
extern struct flush_tlb_info *get_flush_tlb_info(struct mm_struct *mm, unsigned long start, unsigned long end,
						 unsigned int stride_shift, bool freed_tables, unsigned long new_tlb_gen);
extern void put_flush_tlb_info(void);
extern void broadcast_tlb_flush(struct flush_tlb_info *info);
extern bool should_trim_cpumask(struct mm_struct *mm);
extern void flush_tlb_multi(const struct cpumask *cpumask, const struct flush_tlb_info *info);
extern void consider_global_asid(struct mm_struct *mm);
extern struct mm_struct *this_cpu_loaded_mm(void);
extern void local_irq_disable(void);
extern void local_irq_enable(void);
extern void flush_tlb_func(void *info);
extern void mmu_notifier_arch_invalidate_secondary_tlbs(struct mm_struct *mm, unsigned long start, unsigned long end);
extern bool cpu_feature_enabled_invlpgb(void);
extern void invlpgb_flush_all_nonglobals(void);

/* arch/x86/mm/tlb.c */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned int stride_shift,
			bool freed_tables)
{
	struct flush_tlb_info *info;
	int cpu;
	unsigned long new_tlb_gen;

	preempt_disable();
	cpu = smp_processor_id();
	new_tlb_gen = inc_mm_tlb_gen(mm);
	info = get_flush_tlb_info(mm, start, end, stride_shift, freed_tables, new_tlb_gen);

	if (READ_ONCE(mm->global_asid)) {
		broadcast_tlb_flush(info);
	} else if (cpumask_any_but(&mm->cpu_bitmap, cpu) < nr_cpu_ids) {
		info->trim_cpumask = should_trim_cpumask(mm);
		flush_tlb_multi(&mm->cpu_bitmap, info);
		consider_global_asid(mm);
	} else if (mm == this_cpu_loaded_mm()) {
		local_irq_disable();
		flush_tlb_func(info);
		local_irq_enable();
	}

	put_flush_tlb_info();
	preempt_enable();
	mmu_notifier_arch_invalidate_secondary_tlbs(mm, start, end);
}

/* arch/x86/mm/tlb.c */
void arch_tlbbatch_flush(struct arch_tlbflush_unmap_batch *batch)
{
	struct flush_tlb_info *info;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	info = get_flush_tlb_info(0, 0, ~0UL, 0, false, 0);
	if (cpu_feature_enabled_invlpgb() && batch->unmapped_pages) {
		invlpgb_flush_all_nonglobals();
		batch->unmapped_pages = false;
	} else if (cpumask_any_but(&batch->cpumask, cpu) < nr_cpu_ids) {
		flush_tlb_multi(&batch->cpumask, info);
	} else if (cpumask_test_cpu(cpu, &batch->cpumask)) {
		local_irq_disable();
		flush_tlb_func(info);
		local_irq_enable();
	}

	cpumask_clear(&batch->cpumask);
	put_flush_tlb_info();
	preempt_enable();
}

/* kernel/events/core.c: perf_event_exit_cpu_context() with perf_event_clear_cpumask() inlined */
#define PERF_PMU_MAX_SCOPE 6
struct pmu {
	struct pmu *next;
	int scope;
};
extern struct pmu *pmus;
extern struct cpumask *perf_online_mask;
extern const struct cpumask *perf_scope_cpu_topology_cpumask(unsigned int scope, int cpu);
extern struct cpumask *perf_scope_cpumask(unsigned int scope);
extern void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu);
extern void mutex_lock_pmus(void);
extern void mutex_unlock_pmus(void);
extern void perf_event_exit_cpu_contexts(int cpu);

void perf_event_exit_cpu_context(int cpu)
{
	int target[PERF_PMU_MAX_SCOPE];
	unsigned int scope;
	struct pmu *pmu;

	mutex_lock_pmus();
	cpumask_clear_cpu(cpu, perf_online_mask);
	for (scope = 1; scope < PERF_PMU_MAX_SCOPE; scope++) {
		const struct cpumask *cpumask = perf_scope_cpu_topology_cpumask(scope, cpu);
		struct cpumask *pmu_cpumask = perf_scope_cpumask(scope);

		target[scope] = -1;
		if (unlikely(!pmu_cpumask || !cpumask))
			continue;
		if (!cpumask_test_and_clear_cpu(cpu, pmu_cpumask))
			continue;
		target[scope] = cpumask_any_but(cpumask, cpu);
		if (target[scope] < (int)nr_cpu_ids)
			cpumask_set_cpu(target[scope], pmu_cpumask);
	}
	for (pmu = pmus; pmu; pmu = pmu->next) {
		if (pmu->scope == 0 || unlikely(pmu->scope >= PERF_PMU_MAX_SCOPE))
			continue;
		if (target[pmu->scope] >= 0 && target[pmu->scope] < (int)nr_cpu_ids)
			perf_pmu_migrate_context(pmu, cpu, target[pmu->scope]);
	}
	perf_event_exit_cpu_contexts(cpu);
	mutex_unlock_pmus();
}

/* kernel/time/timer_migration.c */
struct tmigr_cpu {
	int lock;
	bool online;
	unsigned long wakeup;
};
#define KTIME_MAX ((long)(~0UL >> 1))
extern struct tmigr_cpu *this_cpu_tmigr_cpu(void);
extern struct cpumask *tmigr_available_cpumask;
extern void raw_spin_lock_irq(int *lock);
extern void raw_spin_unlock_irq(int *lock);
extern unsigned long __tmigr_cpu_deactivate(struct tmigr_cpu *tmc, unsigned long nextexp);
extern void trace_tmigr_cpu_offline(struct tmigr_cpu *tmc);
extern long work_on_cpu(int cpu, long (*fn)(void *), void *arg);
extern long tmigr_trigger_active(void *unused);

int tmigr_cpu_offline(unsigned int cpu)
{
	struct tmigr_cpu *tmc = this_cpu_tmigr_cpu();
	int migrator;
	unsigned long firstexp;

	cpumask_clear_cpu(cpu, tmigr_available_cpumask);
	raw_spin_lock_irq(&tmc->lock);
	tmc->online = false;
	WRITE_ONCE(tmc->wakeup, KTIME_MAX);
	firstexp = __tmigr_cpu_deactivate(tmc, KTIME_MAX);
	trace_tmigr_cpu_offline(tmc);
	raw_spin_unlock_irq(&tmc->lock);

	if (firstexp != (unsigned long)KTIME_MAX) {
		migrator = cpumask_any_but(tmigr_available_cpumask, cpu);
		work_on_cpu(migrator, tmigr_trigger_active, 0);
	}
	return 0;
}
