/*
 * Seed 000's code size as bloat-o-meter measured it: cpumask_any_but() is __always_inline,
 * so the patch changes the size of its *callers*, not of a function of its own. This file
 * models all ten functions of the seed's bloat-o-meter table, each using cpumask_any_but()
 * the way the kernel function does (v6.15/v6.16-era sources): where the mask comes from
 * (a per-CPU cpumask_var_t, mm_cpumask(), a global mask, an IRQ's affinity), what is done
 * with the answer (compared with nr_cpu_ids, used as an index, passed on), and the branches
 * around the call. The rest of each function's work is reduced to calls of external
 * functions, so the compiler cannot see through it; the shapes are written here in our own
 * words, not copied, and name the kernel file each follows:
 *
 *   irq_migrate_all_off_this_cpu()    kernel/irq/cpuhotplug.c (migrate_one_irq() and
 *                                     irq_needs_fixup() inlined, as they are static)
 *   try_to_unmap_one()                mm/rmap.c (should_defer_flush() ->
 *   try_to_migrate_one()              mm/rmap.c  arch_tlbbatch_should_defer(), inlined)
 *   uncore_event_cpu_offline()        arch/x86/events/intel/uncore.c
 *   calibrate_delay_is_known()        arch/x86/kernel/tsc.c
 *   tsc_store_and_check_tsc_adjust()  arch/x86/kernel/tsc_sync.c
 *   arch_tlbbatch_flush()             arch/x86/mm/tlb.c
 *   tmigr_cpu_offline()               kernel/time/timer_migration.c
 *   perf_event_exit_cpu_context()     kernel/events/core.c (perf_event_clear_cpumask() inlined)
 *   flush_tlb_mm_range()              arch/x86/mm/tlb.c
 *
 * NR_CPUS=4096 on x86-64 needs CONFIG_CPUMASK_OFFSTACK (without it NR_CPUS stops at 512),
 * so there cpumask_var_t is a pointer the callers load and may test; at 64 it is an array.
 *
 * native/build.sh compiles it as relocatable objects over a matrix of builds (the kernel's
 * x86-64 flags at -O2 and -Os, with ftrace's -pg -mfentry, with frame pointers), each at
 * -DNR_CPUS=64 and 4096, -DCS_NEW=0 (cpumask_any_but() as the for_each_cpu loop, before
 * the patch) and -DCS_NEW=1 (cpumask_first_but(), after it). CpumaskFamily reads each
 * function's st_size from the objects' symbol tables, as bloat-o-meter reads vmlinux's.
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

/* include/linux/cpumask.h: cpumask_empty() and cpumask_any_and() (= cpumask_first_and()). */
extern unsigned long _find_first_and_bit(const unsigned long *a, const unsigned long *b, unsigned long size);
extern void __bitmap_or(unsigned long *dst, const unsigned long *a, const unsigned long *b, unsigned int nbits);

static __always_inline bool cpumask_empty(const struct cpumask *srcp)
{
	return find_first_bit(cpumask_bits(srcp), small_cpumask_bits) >= small_cpumask_bits;
}

static __always_inline unsigned int cpumask_any_and(const struct cpumask *a, const struct cpumask *b)
{
	if (small_const_nbits(small_cpumask_bits)) {
		unsigned long val = a->bits[0] & b->bits[0] & GENMASK(small_cpumask_bits - 1, 0);

		return val ? __ffs(val) : small_cpumask_bits;
	}
	return _find_first_and_bit(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits);
}

static __always_inline void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	if (small_const_nbits(small_cpumask_bits))
		dst->bits[0] = a->bits[0] | b->bits[0];
	else
		__bitmap_or(dst->bits, a->bits, b->bits, small_cpumask_bits);
}

/* cpumask_var_t: a pointer with CONFIG_CPUMASK_OFFSTACK (which NR_CPUS > 512 needs on x86-64), else an array. */
#if NR_CPUS > 512
typedef struct cpumask *cpumask_var_t;
#define cpumask_var_ptr(v) (v)
#else
typedef struct cpumask cpumask_var_t[1];
#define cpumask_var_ptr(v) (&(v)[0])
#endif

/* Per-CPU data (include/linux/percpu-defs.h, arch/x86/include/asm/percpu.h, simplified): this CPU's
 * copies through %gs, another CPU's through __per_cpu_offset[]. */
extern unsigned long __per_cpu_offset[NR_CPUS];
#define per_cpu_ptr(var, cpu) ((__typeof__(var) *)((unsigned long)&(var) + __per_cpu_offset[(cpu)]))
#define per_cpu(var, cpu) (*per_cpu_ptr(var, cpu))
extern unsigned long this_cpu_off;
#define this_cpu_ptr(var) ({ unsigned long __o; __asm__("movq %%gs:this_cpu_off(%%rip), %0" : "=r"(__o)); \
			     (__typeof__(var) *)((unsigned long)&(var) + __o); })

extern int cpu_number;
static __always_inline int smp_processor_id(void)
{
	int cpu;

	__asm__("movl %%gs:cpu_number(%%rip), %0" : "=r"(cpu));
	return cpu;
}

/* preempt_disable()/preempt_enable() (arch/x86/include/asm/preempt.h): a per-CPU count, and a call
 * of the scheduler's thunk when it drops to zero with a reschedule pending. */
extern int __preempt_count;
extern void preempt_schedule_thunk(void);
static __always_inline void preempt_disable(void)
{
	__asm__ volatile("addl $1, %%gs:__preempt_count(%%rip)" ::: "memory");
}

static __always_inline void preempt_enable(void)
{
	bool zero;

	__asm__ volatile("decl %%gs:__preempt_count(%%rip)" : "=@ccz"(zero) : : "memory");
	if (unlikely(zero))
		preempt_schedule_thunk();
}

#define get_cpu() ({ preempt_disable(); smp_processor_id(); })
#define put_cpu() preempt_enable()

static __always_inline void local_irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static __always_inline void local_irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

static __always_inline unsigned long long rdmsr(unsigned int msr)
{
	unsigned int lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((unsigned long long)hi << 32) | lo;
}

static __always_inline void wrmsr(unsigned int msr, unsigned long long v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((unsigned int)v), "d"((unsigned int)(v >> 32)) : "memory");
}

/* Everything else the callers do, out of line. */
extern void _printk(const char *fmt, ...);
extern int ___ratelimit(void *state, const char *func);

struct mm_struct {
	unsigned long tlb_gen;
	unsigned long global_asid;
	struct cpumask cpu_bitmap;
};
#define mm_cpumask(mm) (&(mm)->cpu_bitmap)

static __always_inline unsigned long inc_mm_tlb_gen(struct mm_struct *mm)
{
	return __atomic_add_fetch(&mm->tlb_gen, 1, __ATOMIC_SEQ_CST);
}

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

extern struct flush_tlb_info *get_flush_tlb_info(struct mm_struct *mm, unsigned long start, unsigned long end,
						 unsigned int stride_shift, bool freed_tables, unsigned long new_tlb_gen);
extern void put_flush_tlb_info(void);
extern void broadcast_tlb_flush(struct flush_tlb_info *info);
extern bool should_trim_cpumask(struct mm_struct *mm);
extern void flush_tlb_multi(const struct cpumask *cpumask, const struct flush_tlb_info *info);
extern void consider_global_asid(struct mm_struct *mm);
extern struct mm_struct *this_cpu_loaded_mm(void);
extern void flush_tlb_func(void *info);
extern void mmu_notifier_arch_invalidate_secondary_tlbs(struct mm_struct *mm, unsigned long start, unsigned long end);
extern bool cpu_feature_enabled_invlpgb(void);
extern void invlpgb_flush_all_nonglobals(void);

/* arch/x86/mm/tlb.c: flush remotely when another CPU has the mm loaded, else locally. */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned int stride_shift,
			bool freed_tables)
{
	struct flush_tlb_info *info;
	int cpu = get_cpu();
	unsigned long new_tlb_gen = inc_mm_tlb_gen(mm);

	info = get_flush_tlb_info(mm, start, end, stride_shift, freed_tables, new_tlb_gen);

	if (READ_ONCE(mm->global_asid)) {
		broadcast_tlb_flush(info);
	} else if (cpumask_any_but(mm_cpumask(mm), cpu) < nr_cpu_ids) {
		info->trim_cpumask = should_trim_cpumask(mm);
		flush_tlb_multi(mm_cpumask(mm), info);
		consider_global_asid(mm);
	} else if (mm == this_cpu_loaded_mm()) {
		local_irq_disable();
		flush_tlb_func(info);
		local_irq_enable();
	}

	put_flush_tlb_info();
	put_cpu();
	mmu_notifier_arch_invalidate_secondary_tlbs(mm, start, end);
}

/* arch/x86/mm/tlb.c: the deferred flush of a batch of unmaps. */
void arch_tlbbatch_flush(struct arch_tlbflush_unmap_batch *batch)
{
	struct flush_tlb_info *info;
	int cpu = get_cpu();

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
	put_cpu();
}

/* kernel/events/core.c: perf_event_exit_cpu_context() with perf_event_clear_cpumask() inlined:
 * for each PMU scope this CPU reads for, hand the reading to another CPU of the scope. */
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

/* kernel/time/timer_migration.c: a CPU going offline hands its timer duty to another available one. */
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

/*
 * kernel/irq/cpuhotplug.c: irq_migrate_all_off_this_cpu() walks every active interrupt under its
 * descriptor's lock; migrate_one_irq() (static, inlined) moves one off the outgoing CPU, and its
 * irq_needs_fixup() (static, inlined) is where cpumask_any_but() is: with an effective affinity
 * (CONFIG_GENERIC_IRQ_EFFECTIVE_AFF_MASK, x86 has it), an empty one falls back to the affinity
 * mask, and an interrupt whose mask holds another CPU but no online one is reported and needs
 * moving; otherwise it needs moving when the mask holds this CPU.
 */
struct irq_chip {
	int (*irq_set_affinity)(void *data, const struct cpumask *dest, bool force);
	void (*irq_mask)(void *data);
	void (*irq_unmask)(void *data);
};
struct irq_data {
	unsigned int irq;
	unsigned int state;
	struct irq_chip *chip;
	cpumask_var_t affinity;
	cpumask_var_t effective_affinity;
};
struct irq_desc {
	struct irq_data irq_data;
	int lock;
	void *affinity_notify;
	cpumask_var_t pending_mask;
};
#define IRQD_PER_CPU (1u << 0)
#define IRQD_IRQ_STARTED (1u << 1)
#define IRQD_MOVE_PCNTXT (1u << 2)
#define IRQD_IRQ_MASKED (1u << 3)
#define IRQD_AFFINITY_MANAGED (1u << 4)
#define IRQD_MANAGED_SHUTDOWN (1u << 5)

extern struct cpumask *cpu_online_mask;
extern unsigned int nr_irqs;
extern unsigned int irq_get_next_irq(unsigned int offset);
extern struct irq_desc *irq_to_desc(unsigned int irq);
extern void raw_spin_lock(int *lock);
extern void raw_spin_unlock(int *lock);
extern bool irq_fixup_move_pending(struct irq_desc *desc, bool force_clear);
extern void irq_force_complete_move(struct irq_desc *desc);
extern void irq_shutdown_and_deactivate(struct irq_desc *desc);
extern int irq_do_set_affinity(struct irq_data *data, const struct cpumask *mask, bool force);
extern void irq_affinity_schedule_notify_work(struct irq_desc *desc);
extern char irq_migrate_ratelimit[];

static __always_inline bool irq_needs_fixup(struct irq_data *d)
{
	const struct cpumask *m = cpumask_var_ptr(d->effective_affinity);
	unsigned int cpu = smp_processor_id();

	if (cpumask_empty(m))
		m = cpumask_var_ptr(d->affinity);
	if (cpumask_any_but(m, cpu) < nr_cpu_ids && cpumask_any_and(m, cpu_online_mask) >= nr_cpu_ids) {
		_printk("IRQ%u: no online CPU in its affinity, moving it\n", d->irq);
		return true;
	}
	return cpumask_test_cpu(cpu, m);
}

static __always_inline bool migrate_one_irq(struct irq_desc *desc)
{
	struct irq_data *d = &desc->irq_data;
	struct irq_chip *chip = d->chip;
	bool maskchip = !(d->state & IRQD_MOVE_PCNTXT) && !(d->state & IRQD_IRQ_MASKED);
	const struct cpumask *affinity;
	bool brokeaff = false;
	int err;

	if (!chip || !chip->irq_set_affinity)
		return false;
	if ((d->state & IRQD_PER_CPU) || !(d->state & IRQD_IRQ_STARTED) || !irq_needs_fixup(d)) {
		irq_fixup_move_pending(desc, false);
		return false;
	}
	irq_force_complete_move(desc);
	affinity = irq_fixup_move_pending(desc, true) ? cpumask_var_ptr(desc->pending_mask) : cpumask_var_ptr(d->affinity);
	if (maskchip && chip->irq_mask)
		chip->irq_mask(d);
	if (cpumask_any_and(affinity, cpu_online_mask) >= nr_cpu_ids) {
		if (d->state & IRQD_AFFINITY_MANAGED) {
			d->state |= IRQD_MANAGED_SHUTDOWN;
			irq_shutdown_and_deactivate(desc);
			return false;
		}
		affinity = cpu_online_mask;
		brokeaff = true;
	}
	err = irq_do_set_affinity(d, affinity, false);
	if (err)
		_printk("IRQ%u: set affinity failed (%d)\n", d->irq, err);
	if (maskchip && chip->irq_unmask)
		chip->irq_unmask(d);
	return brokeaff;
}

void irq_migrate_all_off_this_cpu(void)
{
	unsigned int irq;

	for (irq = irq_get_next_irq(0); irq < nr_irqs; irq = irq_get_next_irq(irq + 1)) {
		struct irq_desc *desc = irq_to_desc(irq);
		bool affinity_broken;

		raw_spin_lock(&desc->lock);
		affinity_broken = migrate_one_irq(desc);
		if (affinity_broken && desc->affinity_notify)
			irq_affinity_schedule_notify_work(desc);
		raw_spin_unlock(&desc->lock);

		if (affinity_broken && ___ratelimit(irq_migrate_ratelimit, __func__))
			_printk("IRQ %u: no longer affine to CPU%u\n", irq, smp_processor_id());
	}
}

/*
 * mm/rmap.c: try_to_unmap_one() and try_to_migrate_one() clear a folio's page table entries one
 * by one. For each, should_defer_flush() (static, inlined) asks x86's arch_tlbbatch_should_defer()
 * (inline): is the mm loaded on a CPU other than this one (get_cpu(), cpumask_any_but() on
 * mm_cpumask(), put_cpu())? If so the entry is cleared and the flush deferred into the batch
 * (set_tlb_ubc_flush_pending(), static, inlined: arch_tlbbatch_add_pending() ORs mm_cpumask() into
 * the batch's mask), else it is cleared and flushed at once. The rest of each walk (rmap and
 * folio bookkeeping, swap entries, hugetlb, device-private pages) is reduced to calls.
 */
struct vm_area_struct {
	struct mm_struct *vm_mm;
	unsigned long vm_flags;
};
struct page_vma_mapped_walk {
	unsigned long address;
	unsigned long *pte;
	void *pmd;
	unsigned int flags;
};
struct tlbflush_unmap_batch {
	struct arch_tlbflush_unmap_batch arch;
	bool flush_required;
	bool writable;
};
#define TTU_BATCH_FLUSH (1u << 5)
#define TTU_SYNC (1u << 4)
#define VM_LOCKED (1ul << 13)
#define PTE_DIRTY (1ul << 6)
#define PTE_ACCESSIBLE 0x21ul

extern struct tlbflush_unmap_batch *current_tlb_ubc(void);
extern bool page_vma_mapped_walk(struct page_vma_mapped_walk *pvmw);
extern void page_vma_mapped_walk_done(struct page_vma_mapped_walk *pvmw);
extern void mmu_notifier_range_init(void *range, struct vm_area_struct *vma, unsigned long start, unsigned long end);
extern void mmu_notifier_invalidate_range_start(void *range);
extern void mmu_notifier_invalidate_range_end(void *range);
extern bool folio_test_hugetlb(void *folio);
extern bool folio_test_anon(void *folio);
extern bool folio_test_swapbacked(void *folio);
extern void mlock_vma_folio(void *folio, struct vm_area_struct *vma);
extern unsigned long *ptep_clear_flush(struct vm_area_struct *vma, unsigned long address, unsigned long *pte);
extern unsigned long ptep_get_and_clear_full(struct mm_struct *mm, unsigned long address, unsigned long *pte);
extern void folio_mark_dirty(void *folio);
extern bool try_to_unmap_anon(void *folio, struct vm_area_struct *vma, struct page_vma_mapped_walk *pvmw, unsigned long pteval);
extern bool make_migration_entry(void *folio, struct vm_area_struct *vma, struct page_vma_mapped_walk *pvmw, unsigned long pteval);
extern void set_pte_at(struct mm_struct *mm, unsigned long address, unsigned long *pte, unsigned long pte_val);
extern void update_hiwater_rss(struct mm_struct *mm);
extern void dec_mm_counter(struct mm_struct *mm, int member);
extern void folio_remove_rmap_pte(void *folio, void *page, struct vm_area_struct *vma);
extern void folio_put(void *folio);
extern void *folio_page_of(void *folio, unsigned long pfn);
extern bool hugetlb_unshare(struct vm_area_struct *vma, struct page_vma_mapped_walk *pvmw);

static __always_inline bool should_defer_flush(struct mm_struct *mm, unsigned int flags)
{
	bool should_defer = false;

	if (!(flags & TTU_BATCH_FLUSH))
		return false;
	if (cpumask_any_but(mm_cpumask(mm), get_cpu()) < nr_cpu_ids)
		should_defer = true;
	put_cpu();
	return should_defer;
}

static __always_inline void set_tlb_ubc_flush_pending(struct mm_struct *mm, unsigned long pteval, unsigned long address)
{
	struct tlbflush_unmap_batch *tlb_ubc = current_tlb_ubc();

	if (!(pteval & PTE_ACCESSIBLE))
		return;
	inc_mm_tlb_gen(mm);
	cpumask_or(&tlb_ubc->arch.cpumask, &tlb_ubc->arch.cpumask, mm_cpumask(mm));
	mmu_notifier_arch_invalidate_secondary_tlbs(mm, address, address + 4096);
	tlb_ubc->flush_required = true;
	if (pteval & PTE_DIRTY)
		tlb_ubc->writable = true;
}

/* One page table entry cleared, deferred or flushed: the part of both walks around cpumask_any_but(). */
static __always_inline unsigned long clear_pte(struct vm_area_struct *vma, struct page_vma_mapped_walk *pvmw,
					       unsigned int flags)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long pteval;

	if (should_defer_flush(mm, flags)) {
		pteval = ptep_get_and_clear_full(mm, pvmw->address, pvmw->pte);
		set_tlb_ubc_flush_pending(mm, pteval, pvmw->address);
	} else {
		pteval = *ptep_clear_flush(vma, pvmw->address, pvmw->pte);
	}
	return pteval;
}

bool try_to_unmap_one(void *folio, struct vm_area_struct *vma, unsigned long address, void *arg)
{
	struct mm_struct *mm = vma->vm_mm;
	struct page_vma_mapped_walk pvmw = { .address = address };
	unsigned int flags = (unsigned int)(unsigned long)arg;
	char range[64];
	bool ret = true;

	if (flags & TTU_SYNC)
		pvmw.flags = 1;
	mmu_notifier_range_init(range, vma, address, address + 4096);
	mmu_notifier_invalidate_range_start(range);
	while (page_vma_mapped_walk(&pvmw)) {
		unsigned long pteval;
		void *page;

		if (!(flags & 1) && (vma->vm_flags & VM_LOCKED)) {
			mlock_vma_folio(folio, vma);
			goto walk_abort;
		}
		if (!pvmw.pte) {
			if (hugetlb_unshare(vma, &pvmw))
				goto walk_done;
			goto walk_abort;
		}
		page = folio_page_of(folio, *pvmw.pte >> 12);
		if (folio_test_hugetlb(folio)) {
			pteval = *ptep_clear_flush(vma, pvmw.address, pvmw.pte);
		} else {
			pteval = clear_pte(vma, &pvmw, flags);
		}
		if (pteval & PTE_DIRTY)
			folio_mark_dirty(folio);
		update_hiwater_rss(mm);
		if (folio_test_anon(folio)) {
			if (!try_to_unmap_anon(folio, vma, &pvmw, pteval)) {
				set_pte_at(mm, pvmw.address, pvmw.pte, pteval);
				goto walk_abort;
			}
			dec_mm_counter(mm, 1);
		} else {
			dec_mm_counter(mm, folio_test_swapbacked(folio) ? 2 : 0);
		}
		folio_remove_rmap_pte(folio, page, vma);
		folio_put(folio);
		continue;
walk_abort:
		ret = false;
walk_done:
		page_vma_mapped_walk_done(&pvmw);
		break;
	}
	mmu_notifier_invalidate_range_end(range);
	return ret;
}

bool try_to_migrate_one(void *folio, struct vm_area_struct *vma, unsigned long address, void *arg)
{
	struct mm_struct *mm = vma->vm_mm;
	struct page_vma_mapped_walk pvmw = { .address = address };
	unsigned int flags = (unsigned int)(unsigned long)arg;
	char range[64];
	bool ret = true;

	if (flags & TTU_SYNC)
		pvmw.flags = 1;
	mmu_notifier_range_init(range, vma, address, address + 4096);
	mmu_notifier_invalidate_range_start(range);
	while (page_vma_mapped_walk(&pvmw)) {
		unsigned long pteval;
		void *page;

		if (!pvmw.pte) {
			if (hugetlb_unshare(vma, &pvmw))
				goto walk_done;
			goto walk_abort;
		}
		page = folio_page_of(folio, *pvmw.pte >> 12);
		if (folio_test_hugetlb(folio))
			pteval = *ptep_clear_flush(vma, pvmw.address, pvmw.pte);
		else
			pteval = clear_pte(vma, &pvmw, flags);
		if (pteval & PTE_DIRTY)
			folio_mark_dirty(folio);
		update_hiwater_rss(mm);
		if (!make_migration_entry(folio, vma, &pvmw, pteval)) {
			set_pte_at(mm, pvmw.address, pvmw.pte, pteval);
			goto walk_abort;
		}
		folio_remove_rmap_pte(folio, page, vma);
		folio_put(folio);
		continue;
walk_abort:
		ret = false;
walk_done:
		page_vma_mapped_walk_done(&pvmw);
		break;
	}
	mmu_notifier_invalidate_range_end(range);
	return ret;
}

/*
 * arch/x86/events/intel/uncore.c: when the CPU that reads a die's uncore counters goes offline,
 * another CPU of the die (topology_die_cpumask(), a per-CPU cpumask_var_t) takes over, or none (-1).
 */
extern cpumask_var_t cpu_die_map;
extern struct cpumask uncore_cpu_mask;
extern void *uncore_msr_uncores, *uncore_mmio_uncores, *uncore_pci_uncores;
extern void uncore_change_context(void *uncores, int old_cpu, int new_cpu);
extern void uncore_box_unref(void *uncores, int id);
extern int topology_logical_die_id(unsigned int cpu);

int uncore_event_cpu_offline(unsigned int cpu)
{
	int die, target;

	if (!cpumask_test_and_clear_cpu(cpu, &uncore_cpu_mask))
		goto unref;
	target = cpumask_any_but(cpumask_var_ptr(per_cpu(cpu_die_map, cpu)), cpu);
	if (target < (int)nr_cpu_ids)
		cpumask_set_cpu(target, &uncore_cpu_mask);
	else
		target = -1;

	uncore_change_context(uncore_msr_uncores, cpu, target);
	uncore_change_context(uncore_mmio_uncores, cpu, target);
	uncore_change_context(uncore_pci_uncores, cpu, target);

unref:
	die = topology_logical_die_id(cpu);
	uncore_box_unref(uncore_msr_uncores, die);
	uncore_box_unref(uncore_mmio_uncores, die);
	return 0;
}

/*
 * arch/x86/kernel/tsc.c: a CPU coming up may reuse the delay-loop calibration of CPU 0 (constant,
 * stable TSC) or of a sibling in its package (topology_core_cpumask(), a per-CPU cpumask_var_t
 * that may not be allocated yet); the answer indexes the sibling's per-CPU cpu_info.
 */
struct cpuinfo_x86 {
	unsigned int x86_capability[24];
	unsigned long loops_per_jiffy;
};
#define X86_FEATURE_CONSTANT_TSC (3 * 32 + 8)
#define X86_FEATURE_TSC_ADJUST (9 * 32 + 1)
extern struct cpuinfo_x86 cpu_info;
extern struct cpuinfo_x86 boot_cpu_data;
extern cpumask_var_t cpu_core_map;
extern int tsc_unstable;

static __always_inline bool cpu_has(const struct cpuinfo_x86 *c, unsigned int bit)
{
	return (c->x86_capability[bit / 32] >> (bit % 32)) & 1;
}

#if NR_CPUS > 512
#define topology_core_cpumask(cpu) (per_cpu(cpu_core_map, cpu))
#else
#define topology_core_cpumask(cpu) (&per_cpu(cpu_core_map, cpu)[0])
#endif

unsigned long calibrate_delay_is_known(void)
{
	int sibling, cpu = smp_processor_id();
	int constant_tsc = cpu_has(&per_cpu(cpu_info, cpu), X86_FEATURE_CONSTANT_TSC);
	const struct cpumask *mask = topology_core_cpumask(cpu);

	if (constant_tsc && !tsc_unstable)
		return per_cpu(cpu_info, 0).loops_per_jiffy;
	if (!constant_tsc || !mask)
		return 0;
	sibling = cpumask_any_but(mask, cpu);
	if (sibling < (int)nr_cpu_ids)
		return per_cpu(cpu_info, sibling).loops_per_jiffy;
	return 0;
}

/*
 * arch/x86/kernel/tsc_sync.c: store this CPU's TSC_ADJUST MSR and, unless it is the first of its
 * package to come up (no other CPU in topology_core_cpumask(), or no mask yet), take the reference
 * CPU's adjustment (the answer indexes its per-CPU tsc_adjust).
 */
struct tsc_adjust {
	long long bootval;
	long long adjusted;
	unsigned long nextcheck;
	bool warned;
};
#define MSR_IA32_TSC_ADJUST 0x3b
#define HZ 1000
extern struct tsc_adjust tsc_adjust;
extern unsigned long volatile jiffies;
extern bool tsc_async_resets;
extern void tsc_sanitize_first_cpu(struct tsc_adjust *cur, long long bootval, unsigned int cpu, bool bootcpu);
extern bool tsc_adjust_warned_once;

bool tsc_store_and_check_tsc_adjust(bool bootcpu)
{
	struct tsc_adjust *ref, *cur = this_cpu_ptr(tsc_adjust);
	unsigned int refcpu, cpu = smp_processor_id();
	struct cpumask *mask;
	long long bootval;

	if (!cpu_has(&boot_cpu_data, X86_FEATURE_TSC_ADJUST))
		return false;

	bootval = (long long)rdmsr(MSR_IA32_TSC_ADJUST);
	cur->bootval = bootval;
	cur->nextcheck = jiffies + HZ;
	cur->warned = false;
	if (tsc_async_resets)
		cur->adjusted = bootval;

	mask = topology_core_cpumask(cpu);
	refcpu = mask ? cpumask_any_but(mask, cpu) : nr_cpu_ids;
	if (refcpu >= nr_cpu_ids) {
		tsc_sanitize_first_cpu(cur, bootval, smp_processor_id(), bootcpu);
		return false;
	}

	ref = per_cpu_ptr(tsc_adjust, refcpu);
	if (bootval != ref->bootval && !tsc_adjust_warned_once) {
		tsc_adjust_warned_once = true;
		_printk("TSC ADJUST differs within socket(s), fixing all errors\n");
	}
	if (bootval != ref->adjusted) {
		cur->adjusted = ref->adjusted;
		wrmsr(MSR_IA32_TSC_ADJUST, (unsigned long long)ref->adjusted);
	}
	return true;
}
