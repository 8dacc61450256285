/*
 * C twins for seed 000 (bench cpumask): cpumask_any_but() as the kernel had it up to
 * v6.15 (a for_each_cpu() loop) and cpumask_first_but() that replaces it, written from
 * include/linux/cpumask.h, include/linux/find.h and lib/find_bit.c.
 *
 * Each variant exists twice, as the kernel would compile it:
 *   _64    NR_CPUS=64:   small_cpumask_bits is the constant 64, so find_*_bit() is
 *                        inline code on one word (small_const_nbits);
 *   _4096  NR_CPUS=4096: small_cpumask_bits is nr_cpu_ids, a variable, so find_*_bit()
 *                        calls the out-of-line _find_first_bit()/_find_next_bit().
 * They are noinline and noclone so each is one symbol whose size the ELF symbol table
 * gives (bloat-o-meter compares exactly those st_size values); in the kernel they are
 * __always_inline and their size shows up in every caller instead.
 *
 * cs_cpumask_batch() is the seed's test module loop: `calls` lookups timed with
 * clock_gettime(CLOCK_MONOTONIC) (the seed used ktime_get()), one downcall per batch, each
 * excluded CPU drawn inside the timed loop as the seed drew get_random_bytes() % nr_cpu_ids.
 *
 * Code layout: native/build.sh compiles this file twice into libcorescope.so, once with
 * -falign-functions=64 -falign-loops=64 (symbols as written: layout "align64") and once with
 * -falign-functions=32 -falign-jumps=1 -falign-loops=1 and -DCS_LAYOUT=_align32 (every
 * symbol with that suffix: layout "align32"), so a speed difference can be checked against a
 * change of code placement alone (a difference that flips between layouts is layout, not
 * the patch).
 */
#include <stdint.h>
#include <time.h>

#define BITS_PER_LONG 64
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define GENMASK(h, l) (((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define unlikely(x) __builtin_expect(!!(x), 0)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define CS_NOINLINE __attribute__((noinline, noclone))

/* The layout's suffix on every exported symbol: empty (align64) or _align32. */
#ifndef CS_LAYOUT
#define CS_LAYOUT
#endif
#define CS_CAT2(a, b) a##b
#define CS_CAT(a, b) CS_CAT2(a, b)
#define CS(name) CS_CAT(name, CS_LAYOUT)

static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

/* The kernel's `extern unsigned int nr_cpu_ids`: a load, not a constant. */
#define cs_cpumask_nr_cpu_ids CS(cs_cpumask_nr_cpu_ids)
unsigned int cs_cpumask_nr_cpu_ids = 64;

/* lib/find_bit.c: _find_first_bit() (FIND_FIRST_BIT) */
#define cs_cpumask_find_first_bit CS(cs_cpumask_find_first_bit)
CS_NOINLINE unsigned long cs_cpumask_find_first_bit(const unsigned long *addr, unsigned long size)
{
	unsigned long idx, val, sz = size;

	for (idx = 0; idx * BITS_PER_LONG < sz; idx++) {
		val = addr[idx];
		if (val) {
			sz = min(idx * BITS_PER_LONG + __ffs(val), sz);
			break;
		}
	}
	return sz;
}

/* lib/find_bit.c: _find_next_bit() (FIND_NEXT_BIT) */
#define cs_cpumask_find_next_bit CS(cs_cpumask_find_next_bit)
CS_NOINLINE unsigned long cs_cpumask_find_next_bit(const unsigned long *addr, unsigned long size,
						   unsigned long start)
{
	unsigned long mask, idx, tmp, sz = size;

	if (unlikely(start >= sz))
		return sz;
	mask = BITMAP_FIRST_WORD_MASK(start);
	idx = start / BITS_PER_LONG;
	for (tmp = addr[idx] & mask; !tmp; tmp = addr[idx]) {
		if ((idx + 1) * BITS_PER_LONG >= sz)
			return sz;
		idx++;
	}
	return min(idx * BITS_PER_LONG + __ffs(tmp), sz);
}

/* include/linux/find.h: inline on one word when the size is a constant <= 64 ... */
#define small_const_nbits(nbits) (__builtin_constant_p(nbits) && (nbits) <= BITS_PER_LONG && (nbits) > 0)

static inline __attribute__((always_inline))
unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{
	if (small_const_nbits(size)) {
		unsigned long val = *addr & GENMASK(size - 1, 0);

		return val ? __ffs(val) : size;
	}
	return cs_cpumask_find_first_bit(addr, size);
}

/* ... and out of line otherwise. */
static inline __attribute__((always_inline))
unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{
	if (small_const_nbits(size)) {
		unsigned long val;

		if (unlikely(offset >= size))
			return size;
		val = *addr & GENMASK(size - 1, offset);
		return val ? __ffs(val) : size;
	}
	return cs_cpumask_find_next_bit(addr, size, offset);
}

#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) = find_next_bit((addr), (size), (bit)), (bit) < (size); (bit)++)

/*
 * One pair of functions per NR_CPUS. small_cpumask_bits is NR_CPUS when NR_CPUS <= 64,
 * else nr_cpu_ids (include/linux/cpumask.h).
 */
#define DEFINE_CPUMASK_VARIANTS(NR, SMALL_BITS)						\
CS_NOINLINE unsigned int CS(cs_cpumask_any_but_loop_##NR)(const unsigned long *mask, unsigned int cpu) \
{											\
	unsigned int i;									\
											\
	for_each_set_bit(i, mask, SMALL_BITS)						\
		if (i != cpu)								\
			break;								\
	return i;									\
}											\
											\
CS_NOINLINE unsigned int CS(cs_cpumask_first_but_##NR)(const unsigned long *mask, unsigned int cpu) \
{											\
	unsigned int i;									\
											\
	i = find_first_bit(mask, SMALL_BITS);						\
	if (i == cpu)									\
		i = find_next_bit(mask, SMALL_BITS, i + 1);				\
	return i;									\
}

DEFINE_CPUMASK_VARIANTS(64, 64)
DEFINE_CPUMASK_VARIANTS(4096, cs_cpumask_nr_cpu_ids)
#define cs_cpumask_any_but_loop_64 CS(cs_cpumask_any_but_loop_64)
#define cs_cpumask_first_but_64 CS(cs_cpumask_first_but_64)
#define cs_cpumask_any_but_loop_4096 CS(cs_cpumask_any_but_loop_4096)
#define cs_cpumask_first_but_4096 CS(cs_cpumask_first_but_4096)

enum { ANY_BUT_LOOP_64, FIRST_BUT_64, ANY_BUT_LOOP_4096, FIRST_BUT_4096 };

static inline uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* xorshift64* (the same generator as CpumaskInputs.Xorshift in Java): the top 32 bits */
static inline uint32_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

/* The loop body: the seed's get_random_bytes() % nr_cpu_ids, drawn inside the timed loop. */
#define BATCH_LOOP(FN)									\
	do {										\
		for (int64_t n = 0; n < calls; n++)					\
			sum += FN(mask, offset + next_random(&rng) % range);		\
	} while (0)

/*
 * `calls` lookups of `variant` on `mask` (nbits bits). CPU = offset + xorshift % range,
 * drawn inside the timed loop as the seed drew get_random_bytes() % nr_cpu_ids; *rng_state
 * carries the generator between batches. nr_cpu_ids (the bound of the _4096 variants'
 * out-of-line searches) is `nr_cpu_ids`, as in a kernel built for NR_CPUS=4096 running on a
 * machine with that many CPU ids.
 * Returns the elapsed nanoseconds (CLOCK_MONOTONIC), or -1 for an unknown variant;
 * *cpu_ns gets the thread's CPU time over the same span (CLOCK_THREAD_CPUTIME_ID), so the
 * caller can tell a batch during which the thread was descheduled; *sink gets the sum of
 * the answers so nothing is optimised away.
 */
#define cs_cpumask_batch CS(cs_cpumask_batch)
int64_t cs_cpumask_batch(int variant, const unsigned long *mask, unsigned int nr_cpu_ids,
			 uint32_t offset, uint32_t range, uint64_t *rng_state,
			 int64_t calls, uint64_t *sink, int64_t *cpu_ns)
{
	uint64_t rng = *rng_state, sum = 0, start, end, cpu_start, cpu_end;

	if (range == 0)
		range = 1;
	cs_cpumask_nr_cpu_ids = nr_cpu_ids;
	cpu_start = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	start = clock_ns(CLOCK_MONOTONIC);
	switch (variant) {
	case ANY_BUT_LOOP_64:
		BATCH_LOOP(cs_cpumask_any_but_loop_64);
		break;
	case FIRST_BUT_64:
		BATCH_LOOP(cs_cpumask_first_but_64);
		break;
	case ANY_BUT_LOOP_4096:
		BATCH_LOOP(cs_cpumask_any_but_loop_4096);
		break;
	case FIRST_BUT_4096:
		BATCH_LOOP(cs_cpumask_first_but_4096);
		break;
	default:
		return -1;
	}
	end = clock_ns(CLOCK_MONOTONIC);
	cpu_end = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	*rng_state = rng;
	*sink += sum;
	*cpu_ns = (int64_t)(cpu_end - cpu_start);
	return (int64_t)(end - start);
}

/* One lookup, for tests comparing the variants (and Java) answer by answer. */
#define cs_cpumask_call CS(cs_cpumask_call)
unsigned int cs_cpumask_call(int variant, const unsigned long *mask, unsigned int nbits, unsigned int cpu)
{
	cs_cpumask_nr_cpu_ids = nbits;
	switch (variant) {
	case ANY_BUT_LOOP_64:
		return cs_cpumask_any_but_loop_64(mask, cpu);
	case FIRST_BUT_64:
		return cs_cpumask_first_but_64(mask, cpu);
	case ANY_BUT_LOOP_4096:
		return cs_cpumask_any_but_loop_4096(mask, cpu);
	case FIRST_BUT_4096:
		return cs_cpumask_first_but_4096(mask, cpu);
	default:
		return ~0u;
	}
}
