/*
 * C twin of bench cpupri: the same struct cpupri, laid out at the offsets the Java side
 * computed with FFM MemoryLayout (packed, aligned or split), accessed by one reader and
 * nr_writers writer threads (as many as the Java run's), each pinned inside C to its own CPU.
 *
 *   workload 0, "mechanism": each writer does atomic_inc + atomic_dec of pri_to_cpu[99].count,
 *       the reader loads pri_to_cpu[99].mask (the pointer);
 *   workload 1, "cpupri": each writer runs cpupri_set() moving its own CPU between CPUPRI_NORMAL
 *       and RT99, the reader runs cpupri_find() for an RT99 task (kernel/sched/cpupri.c, 6.x).
 *
 * At the start every CPU of the run is in cpupri, as rq_online_rt() puts every online CPU in
 * it (cpupri_set(..., CPUPRI_NORMAL)): the writers' at NORMAL and, with rt_all == 0, the
 * reader's at NORMAL too, so a find stops at index 0 (one count read). With rt_all == 1 the
 * reader's CPU runs RT99 instead ("every CPU runs RT"): a find stops at 0 only while a
 * writer is at NORMAL, and otherwise reads all 99 counts and finds nothing.
 *
 * A sample runs all threads for sample_ms; each thread times its own loop, and
 * ns/op = its elapsed time / its operations (for the writers, the mean of theirs). warmup_samples samples of warmup_ms run first,
 * the same way, and are thrown away (the Java side's JMH warm-up iterations).
 *
 * The effect needs both threads running at once on their two CPUs: a sample while the writer
 * was descheduled (a busy machine) times a reader alone. So each thread also reads its own CPU
 * time over its loop, and `ran[s]` is the smallest share of the sample any thread was on its
 * CPU (1.0: all ran throughout); the caller sets aside samples where one did not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cs_thread.h"

#define CS_CPUPRI_NR_PRIORITIES 101
#define CS_CPUPRI_NORMAL 0
#define CS_CPUPRI_RT99 99
#define CS_CPUPRI_CHECK_EVERY 1024
#define CS_CPUPRI_MAX_WRITERS 1023

struct cs_cpupri_run {
    char *cp;
    char *masks;
    int *cpu_to_pri;
    const int64_t *count_off;
    const int64_t *mask_off;
    int words;
    uint64_t *task_mask;
    int workload;
    int rt_all;
    int reader_cpu;
    _Alignas(128) atomic_int stop;
    char pad[128 - sizeof(atomic_int)];
    atomic_int go; /* 0: wait, 1: run, -1: give up (the other thread could not start) */
    double reader_ns;
    double reader_ran;
    double counts_per_find;
    int64_t sink;
    int error;
    const char *failed;
    pthread_mutex_t lock;
};

static void cs_cpupri_fail(struct cs_cpupri_run *r, int error, const char *function)
{
    pthread_mutex_lock(&r->lock);
    if (!r->error) {
        r->error = error;
        r->failed = function;
    }
    pthread_mutex_unlock(&r->lock);
}

static uint64_t cs_cpupri_clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t cs_cpupri_now_ns(void)
{
    return cs_cpupri_clock_ns(CLOCK_MONOTONIC);
}

/* The share of the wall time since (t0, cpu0) this thread was on its CPU. */
static double cs_cpupri_ran(uint64_t t0, uint64_t cpu0, uint64_t t1)
{
    uint64_t cpu = cs_cpupri_clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    return t1 > t0 ? (double)cpu / (double)(t1 - t0) : 0.0;
}

static inline atomic_int *cs_cpupri_count(struct cs_cpupri_run *r, int p)
{
    return (atomic_int *)(r->cp + r->count_off[p]);
}

static inline uint64_t *cs_cpupri_mask_ptr(struct cs_cpupri_run *r, int p)
{
    return (uint64_t *)__atomic_load_n((uintptr_t *)(r->cp + r->mask_off[p]), __ATOMIC_RELAXED);
}

/* cpupri_set(cp, cpu, newpri) between CPUPRI_NORMAL and RT99 */
static void cs_cpupri_toggle(struct cs_cpupri_run *r, int cpu)
{
    int oldpri = r->cpu_to_pri[cpu];
    int newpri = oldpri == CS_CPUPRI_NORMAL ? CS_CPUPRI_RT99 : CS_CPUPRI_NORMAL;
    uint64_t bit = 1ull << (cpu & 63);
    __atomic_fetch_or(cs_cpupri_mask_ptr(r, newpri) + (cpu >> 6), bit, __ATOMIC_SEQ_CST);
    atomic_fetch_add(cs_cpupri_count(r, newpri), 1);
    atomic_fetch_sub(cs_cpupri_count(r, oldpri), 1);
    __atomic_fetch_and(cs_cpupri_mask_ptr(r, oldpri) + (cpu >> 6), ~bit, __ATOMIC_SEQ_CST);
    r->cpu_to_pri[cpu] = newpri;
}

/* cpupri_find(cp, p, lowest_mask) for an RT99 task */
static int cs_cpupri_find(struct cs_cpupri_run *r, uint64_t *lowest)
{
    for (int idx = 0; idx < CS_CPUPRI_RT99; idx++) {
        int count = atomic_load_explicit(cs_cpupri_count(r, idx), memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire); /* smp_rmb() */
        if (!count)
            continue;
        uint64_t *mask = cs_cpupri_mask_ptr(r, idx);
        uint64_t any = 0;
        for (int w = 0; w < r->words; w++) {
            uint64_t bits = __atomic_load_n(mask + w, __ATOMIC_RELAXED) & r->task_mask[w];
            lowest[w] = bits;
            any |= bits;
        }
        if (any)
            return idx;
    }
    return -1;
}

/* Checks the pinning, then waits for the go; false when this thread must not run. */
static int cs_cpupri_ready(struct cs_cpupri_run *r, int cpu)
{
    int now = sched_getcpu();
    int ok = now == cpu;
    if (!ok)
        cs_cpupri_fail(r, now < 0 ? errno : EINVAL, "sched_getcpu");
    int go;
    while ((go = atomic_load(&r->go)) == 0)
        sched_yield();
    return ok && go > 0;
}

static void *cs_cpupri_reader(void *arg)
{
    struct cs_cpupri_run *r = arg;
    uint64_t lowest[r->words > 0 ? r->words : 1];
    if (!cs_cpupri_ready(r, r->reader_cpu))
        return NULL;
    int64_t ops = 0, sink = 0;
    uint64_t cpu0 = cs_cpupri_clock_ns(CLOCK_THREAD_CPUTIME_ID), t0 = cs_cpupri_now_ns();
    do { /* at least one batch, even when preempted for the whole sample */
        for (int i = 0; i < CS_CPUPRI_CHECK_EVERY; i++) {
            if (r->workload == 0) {
                sink += (int64_t)(uintptr_t)cs_cpupri_mask_ptr(r, CS_CPUPRI_RT99);
            } else {
                /* the counts this find read: index + 1, or all 99 when it found nothing */
                int idx = cs_cpupri_find(r, lowest);
                sink += idx < 0 ? CS_CPUPRI_RT99 : idx + 1;
            }
        }
        ops += CS_CPUPRI_CHECK_EVERY;
    } while (!atomic_load_explicit(&r->stop, memory_order_relaxed));
    uint64_t t1 = cs_cpupri_now_ns();
    r->reader_ns = (double)(t1 - t0) / (double)ops;
    r->reader_ran = cs_cpupri_ran(t0, cpu0, t1);
    r->counts_per_find = r->workload == 0 ? 0.0 : (double)sink / (double)ops;
    r->sink = sink;
    return NULL;
}

/* One writer thread: its CPU and its ns/op. */
struct cs_cpupri_writer {
    struct cs_cpupri_run *r;
    int cpu;
    double ns;
    double ran;
    pthread_t thread;
};

static void *cs_cpupri_writer(void *arg)
{
    struct cs_cpupri_writer *wr = arg;
    struct cs_cpupri_run *r = wr->r;
    if (!cs_cpupri_ready(r, wr->cpu))
        return NULL;
    int64_t ops = 0;
    uint64_t cpu0 = cs_cpupri_clock_ns(CLOCK_THREAD_CPUTIME_ID), t0 = cs_cpupri_now_ns();
    do {
        for (int i = 0; i < CS_CPUPRI_CHECK_EVERY; i++) {
            if (r->workload == 0) {
                atomic_fetch_add(cs_cpupri_count(r, CS_CPUPRI_RT99), 1);
                atomic_fetch_sub(cs_cpupri_count(r, CS_CPUPRI_RT99), 1);
            } else {
                cs_cpupri_toggle(r, wr->cpu);
            }
        }
        ops += CS_CPUPRI_CHECK_EVERY;
    } while (!atomic_load_explicit(&r->stop, memory_order_relaxed));
    uint64_t t1 = cs_cpupri_now_ns();
    wr->ns = (double)(t1 - t0) / (double)ops;
    wr->ran = cs_cpupri_ran(t0, cpu0, t1);
    return NULL;
}

/* A thread pinned to `cpu` (cs_thread.h: CPU sets past 1023). */
static int cs_cpupri_start(struct cs_cpupri_run *r, pthread_t *t, int cpu, void *(*body)(void *), void *arg)
{
    const char *failed = "";
    int rc = cs_start_pinned(t, cpu, body, arg, &failed);
    if (rc)
        cs_cpupri_fail(r, rc, failed);
    return rc;
}

/* Puts `cpu` at priority `pri` as cpupri_set() does for a CPU that was not in cpupri yet. */
static void cs_cpupri_enter(struct cs_cpupri_run *r, int cpu, int pri)
{
    cs_cpupri_mask_ptr(r, pri)[cpu >> 6] |= 1ull << (cpu & 63);
    atomic_fetch_add(cs_cpupri_count(r, pri), 1);
    r->cpu_to_pri[cpu] = pri;
}

/*
 * Runs warmup_samples samples of warmup_ms (thrown away), then `samples` samples of
 * `sample_ms` each. cpus: the reader's CPU, then nr_writers writers' CPUs, all distinct.
 * count_off/mask_off: byte offsets of pri_to_cpu[p].count and .mask (or counts[p], masks[p])
 * in a struct of struct_bytes, placed on a line_size boundary. nr_cpu_ids sizes the masks.
 * rt_all: 0, the reader's CPU starts at CPUPRI_NORMAL; 1, at RT99. reader_ns/writer_ns get one
 * ns/op per sample (writer_ns: the mean over the writers), counts_per_find the counts a find
 * read on average in that sample (0 for the mechanism workload), ran the smallest share of the
 * sample a thread was on its CPU (file comment). Returns 0, or an errno value
 * with the failing function's name in failed.
 */
__attribute__((visibility("default")))
int cs_cpupri_run(int workload, int rt_all, const int *cpus, int nr_writers, const int64_t *count_off,
                  const int64_t *mask_off, int64_t struct_bytes, int line_size, int nr_cpu_ids, int warmup_samples,
                  int warmup_ms, int samples, int sample_ms, double *reader_ns, double *writer_ns,
                  double *counts_per_find, double *ran, char *failed, int failed_len)
{
    int bad = (workload != 0 && workload != 1) || (rt_all != 0 && rt_all != 1) || !cpus || nr_writers < 1 ||
              nr_writers > CS_CPUPRI_MAX_WRITERS || struct_bytes <= 0 || line_size <= 0 || (line_size & (line_size - 1)) ||
              samples <= 0 || sample_ms <= 0 || warmup_samples < 0 || (warmup_samples > 0 && warmup_ms <= 0);
    for (int i = 0; !bad && i <= nr_writers; i++) {
        /* 1 << 16: corescope's largest CPU number (SysfsReader.MAX_CPUS); no CPU_SETSIZE limit */
        bad = cpus[i] < 0 || cpus[i] >= nr_cpu_ids || cpus[i] >= (1 << 16);
        for (int j = 0; !bad && j < i; j++)
            bad = cpus[i] == cpus[j];
    }
    if (bad) {
        if (failed_len > 0) {
            strncpy(failed, "cs_cpupri_run", (size_t)failed_len - 1);
            failed[failed_len - 1] = '\0';
        }
        return EINVAL;
    }
    int reader_cpu = cpus[0];
    int words = (nr_cpu_ids + 63) / 64;
    size_t cp_bytes = ((size_t)struct_bytes + line_size - 1) / line_size * line_size;
    static struct cs_cpupri_run zero;
    struct cs_cpupri_run *r = aligned_alloc(128, sizeof(*r));
    char *cp = aligned_alloc((size_t)line_size, cp_bytes);
    char *masks = calloc(CS_CPUPRI_NR_PRIORITIES, (size_t)words * 8);
    int *cpu_to_pri = calloc((size_t)nr_cpu_ids, sizeof(int));
    uint64_t *task_mask = calloc((size_t)words, 8);
    struct cs_cpupri_writer *writers = calloc((size_t)nr_writers, sizeof(*writers));
    int error = 0;
    const char *what = "";
    if (!r || !cp || !masks || !cpu_to_pri || !task_mask || !writers) {
        error = ENOMEM;
        what = "malloc";
        goto out;
    }
    for (int s = -warmup_samples; s < samples && !error; s++) {
        *r = zero;
        memset(cp, 0, cp_bytes);
        memset(masks, 0, CS_CPUPRI_NR_PRIORITIES * (size_t)words * 8);
        for (int p = 0; p < CS_CPUPRI_NR_PRIORITIES; p++)
            *(uintptr_t *)(cp + mask_off[p]) = (uintptr_t)(masks + (size_t)p * words * 8);
        for (int c = 0; c < nr_cpu_ids; c++)
            cpu_to_pri[c] = -1;
        r->cp = cp;
        r->masks = masks;
        r->cpu_to_pri = cpu_to_pri;
        r->count_off = count_off;
        r->mask_off = mask_off;
        r->words = words;
        r->task_mask = task_mask;
        r->workload = workload;
        r->rt_all = rt_all;
        r->reader_cpu = reader_cpu;
        memset(task_mask, 0, (size_t)words * 8);
        for (int i = 0; i <= nr_writers; i++)
            task_mask[cpus[i] >> 6] |= 1ull << (cpus[i] & 63);
        /* rq_online_rt(): every CPU of the run is in cpupri; the writers' at NORMAL */
        for (int i = 1; i <= nr_writers; i++)
            cs_cpupri_enter(r, cpus[i], CS_CPUPRI_NORMAL);
        cs_cpupri_enter(r, reader_cpu, rt_all ? CS_CPUPRI_RT99 : CS_CPUPRI_NORMAL);
        atomic_init(&r->stop, 0);
        atomic_init(&r->go, 0);
        pthread_mutex_init(&r->lock, NULL);

        pthread_t reader;
        int reader_started = cs_cpupri_start(r, &reader, reader_cpu, cs_cpupri_reader, r) == 0;
        int started = 0; /* writers started */
        while (reader_started && started < nr_writers) {
            writers[started].r = r;
            writers[started].cpu = cpus[started + 1];
            writers[started].ns = 0;
            if (cs_cpupri_start(r, &writers[started].thread, writers[started].cpu, cs_cpupri_writer, &writers[started]))
                break;
            started++;
        }
        if (reader_started && started == nr_writers) {
            int ms = s < 0 ? warmup_ms : sample_ms;
            atomic_store(&r->go, 1);
            struct timespec d = {ms / 1000, (long)(ms % 1000) * 1000000L};
            nanosleep(&d, NULL);
            atomic_store(&r->stop, 1);
        } else {
            atomic_store(&r->go, -1);
        }
        for (int i = 0; i < started; i++)
            pthread_join(writers[i].thread, NULL);
        if (reader_started)
            pthread_join(reader, NULL);
        pthread_mutex_destroy(&r->lock);
        if (r->error) {
            error = r->error;
            what = r->failed;
        } else if (s >= 0) {
            double sum = 0, least = r->reader_ran;
            for (int i = 0; i < nr_writers; i++) {
                sum += writers[i].ns;
                least = writers[i].ran < least ? writers[i].ran : least;
            }
            ran[s] = least;
            reader_ns[s] = r->reader_ns;
            writer_ns[s] = sum / nr_writers;
            counts_per_find[s] = r->counts_per_find;
        }
    }
out:
    free(writers);
    free(task_mask);
    free(cpu_to_pri);
    free(masks);
    free(cp);
    free(r);
    if (error && failed_len > 0) {
        strncpy(failed, what, (size_t)failed_len - 1);
        failed[failed_len - 1] = '\0';
    }
    return error;
}
