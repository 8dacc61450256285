/*
 * sys.c - C twins of corescope's native layer (dev.corescope.sys.Affinity).
 *
 * The same libc calls the Java side makes through FFM, each in a loop timed with
 * clock_gettime(CLOCK_MONOTONIC), so SyscallBenchmark can put "C, per call" beside
 * "Java through FFM, per call". One downcall from Java runs the whole loop, so the
 * FFM transition is paid once per n calls, not per call.
 *
 * Every function returns nanoseconds per call, or -errno (a negative number) when a
 * call failed; Java turns that into a NativeException naming the call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* Written once per loop so the compiler must keep every sched_getcpu() result. */
volatile int cs_sys_sink;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double per_call(long long t0, long long t1, long n)
{
	return n > 0 ? (double)(t1 - t0) / (double)n : 0.0;
}

/* n x sched_getcpu(): glibc >= 2.35 reads the rseq area, older ones call the vDSO. */
double cs_sys_getcpu_loop(long n)
{
	int acc = 0;
	long long t0 = now_ns();

	for (long i = 0; i < n; i++)
		acc += sched_getcpu();
	long long t1 = now_ns();
	cs_sys_sink = acc;
	return per_call(t0, t1, n);
}

/*
 * n x sched_getcpu() with no clock read: the caller times the whole downcall (JMH in
 * SyscallBenchmark.getcpuC), so only the calls and one transition are in its window,
 * as in the Java loop rows. Returns the sum of the CPUs, which keeps every call.
 */
long cs_sys_getcpu_calls(long n)
{
	long acc = 0;

	for (long i = 0; i < n; i++)
		acc += sched_getcpu();
	return acc;
}

/* n x sched_getaffinity(0, setsize, set): the calling thread's mask, as Affinity.get(0). */
double cs_sys_getaffinity_loop(long n, long setsize)
{
	cpu_set_t *set = malloc((size_t)setsize);

	if (!set)
		return -ENOMEM;
	long long t0 = now_ns();
	for (long i = 0; i < n; i++) {
		if (sched_getaffinity(0, (size_t)setsize, set) != 0) {
			int e = errno;
			free(set);
			return -e;
		}
	}
	long long t1 = now_ns();
	free(set);
	return per_call(t0, t1, n);
}

/*
 * n x sched_setaffinity(0, setsize, set) to the mask the thread already has, as
 * Affinity.set(0, sameMask): the kernel still takes the task's locks and checks the
 * mask, but migrates nothing.
 */
double cs_sys_setaffinity_loop(long n, long setsize)
{
	cpu_set_t *set = malloc((size_t)setsize);

	if (!set)
		return -ENOMEM;
	if (sched_getaffinity(0, (size_t)setsize, set) != 0) {
		int e = errno;
		free(set);
		return -e;
	}
	long long t0 = now_ns();
	for (long i = 0; i < n; i++) {
		if (sched_setaffinity(0, (size_t)setsize, set) != 0) {
			int e = errno;
			free(set);
			return -e;
		}
	}
	long long t1 = now_ns();
	free(set);
	return per_call(t0, t1, n);
}
