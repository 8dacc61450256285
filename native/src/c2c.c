/*
 * C twin of bench c2c: core-to-core latency by ping-pong on one cache line, the method of
 * nviennot/core-to-core-latency ("bench_ping_pong_on_single_cacheline"): two threads, each
 * pinned to its CPU, take turns flipping one flag with compare-and-swap; a sample is the time
 * of `round_trips` round trips, reported as one-way latency = time / round_trips / 2.
 *
 * Both threads are created and pinned here, in C (pthread_attr_setaffinity_np), and each
 * checks with sched_getcpu() that it runs where it was pinned, before its first sample and
 * again after its last (outside the timed loops): a thread found elsewhere fails the run
 * with EINVAL from "sched_getcpu", so a migrated run is reported, never used.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "cs_thread.h"

enum { PING = 0, PONG = 1 };

/* 128 bytes: the flag alone on its line, and alone on the pair of lines that
 * Intel's adjacent-line prefetcher fetches together. */
struct cs_c2c_line {
    _Alignas(128) atomic_int flag;
    char pad[128 - sizeof(atomic_int)];
};

struct cs_c2c_run {
    struct cs_c2c_line line;
    pthread_barrier_t start;
    int ping_cpu, pong_cpu;
    int round_trips, samples;
    double *one_way_ns;
    /* first failure: errno value and the function that failed */
    int error;
    const char *failed;
    pthread_mutex_t lock;
};

static void cs_c2c_fail(struct cs_c2c_run *r, int error, const char *function)
{
    pthread_mutex_lock(&r->lock);
    if (!r->error) {
        r->error = error;
        r->failed = function;
    }
    pthread_mutex_unlock(&r->lock);
}

static int cs_c2c_check_cpu(struct cs_c2c_run *r, int cpu)
{
    int now = sched_getcpu();
    if (now < 0) {
        cs_c2c_fail(r, errno, "sched_getcpu");
        return -1;
    }
    if (now != cpu) {
        cs_c2c_fail(r, EINVAL, "sched_getcpu");
        return -1;
    }
    return 0;
}

static inline void cs_c2c_wait_and_flip(atomic_int *flag, int from, int to)
{
    int expected = from;
    while (!atomic_compare_exchange_weak_explicit(flag, &expected, to, memory_order_relaxed,
                                                  memory_order_relaxed))
        expected = from;
}

static uint64_t cs_c2c_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *cs_c2c_pong(void *arg)
{
    struct cs_c2c_run *r = arg;
    int ok = cs_c2c_check_cpu(r, r->pong_cpu) == 0;
    pthread_barrier_wait(&r->start);
    if (!ok || r->error)
        return NULL;
    long total = (long)r->round_trips * r->samples;
    for (long i = 0; i < total; i++)
        cs_c2c_wait_and_flip(&r->line.flag, PING, PONG);
    cs_c2c_check_cpu(r, r->pong_cpu);
    return NULL;
}

static void *cs_c2c_ping(void *arg)
{
    struct cs_c2c_run *r = arg;
    int ok = cs_c2c_check_cpu(r, r->ping_cpu) == 0;
    pthread_barrier_wait(&r->start);
    if (!ok || r->error)
        return NULL;
    for (int s = 0; s < r->samples; s++) {
        uint64_t t0 = cs_c2c_now_ns();
        for (int i = 0; i < r->round_trips; i++)
            cs_c2c_wait_and_flip(&r->line.flag, PONG, PING);
        uint64_t t1 = cs_c2c_now_ns();
        r->one_way_ns[s] = (double)(t1 - t0) / r->round_trips / 2.0;
    }
    cs_c2c_check_cpu(r, r->ping_cpu);
    return NULL;
}

/* A thread pinned to `cpu` (cs_thread.h: CPU sets past 1023). */
static int cs_c2c_start(struct cs_c2c_run *r, pthread_t *t, int cpu, void *(*body)(void *))
{
    const char *failed = "";
    int rc = cs_start_pinned(t, cpu, body, r, &failed);
    if (rc)
        cs_c2c_fail(r, rc, failed);
    return rc;
}

/*
 * Measures `samples` samples of `round_trips` round trips between ping_cpu and pong_cpu
 * into one_way_ns[samples]. Returns 0, or an errno value with the failing function's name
 * copied into failed[failed_len].
 */
__attribute__((visibility("default")))
int cs_c2c_pingpong(int ping_cpu, int pong_cpu, int round_trips, int samples, double *one_way_ns,
                    char *failed, int failed_len)
{
    /* 1 << 16: corescope's largest CPU number (SysfsReader.MAX_CPUS); no CPU_SETSIZE limit */
    if (ping_cpu < 0 || pong_cpu < 0 || ping_cpu >= (1 << 16) || pong_cpu >= (1 << 16) ||
        round_trips <= 0 || samples <= 0) {
        if (failed_len > 0)
            strncpy(failed, "cs_c2c_pingpong", (size_t)failed_len - 1);
        return EINVAL;
    }
    static struct cs_c2c_run zero;
    struct cs_c2c_run r = zero;
    atomic_init(&r.line.flag, PING);
    r.ping_cpu = ping_cpu;
    r.pong_cpu = pong_cpu;
    r.round_trips = round_trips;
    r.samples = samples;
    r.one_way_ns = one_way_ns;
    pthread_mutex_init(&r.lock, NULL);
    pthread_barrier_init(&r.start, NULL, 2);

    pthread_t pong, ping;
    int started = 0;
    if (cs_c2c_start(&r, &pong, pong_cpu, cs_c2c_pong) == 0) {
        started = 1;
        if (cs_c2c_start(&r, &ping, ping_cpu, cs_c2c_ping) == 0) {
            started = 2;
        } else {
            /* release the pong thread, which waits at the barrier, then let it see the error */
            pthread_barrier_wait(&r.start);
        }
    }
    if (started == 2)
        pthread_join(ping, NULL);
    if (started >= 1)
        pthread_join(pong, NULL);

    pthread_barrier_destroy(&r.start);
    pthread_mutex_destroy(&r.lock);
    if (r.error && failed_len > 0) {
        strncpy(failed, r.failed, (size_t)failed_len - 1);
        failed[failed_len - 1] = '\0';
    }
    return r.error;
}
