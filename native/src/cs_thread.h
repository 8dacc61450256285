/* corescope: what the C twins that run threads share. */
#ifndef CS_THREAD_H
#define CS_THREAD_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>

/* Starts body(arg) on a thread pinned to `cpu` before it runs. The CPU set is sized for `cpu`
 * (CPU_ALLOC), not a fixed cpu_set_t, which holds CPUs 0-1023 only: machines (and plans from
 * saved trees) have more. Returns 0, or the error with *failed naming the call that failed. */
static inline int cs_start_pinned(pthread_t *t, int cpu, void *(*body)(void *), void *arg, const char **failed)
{
    pthread_attr_t attr;
    int rc = pthread_attr_init(&attr);
    if (rc) {
        *failed = "pthread_attr_init";
        return rc;
    }
    cpu_set_t *set = CPU_ALLOC(cpu + 1);
    if (!set) {
        pthread_attr_destroy(&attr);
        *failed = "CPU_ALLOC";
        return ENOMEM;
    }
    size_t size = CPU_ALLOC_SIZE(cpu + 1);
    CPU_ZERO_S(size, set);
    CPU_SET_S(cpu, size, set);
    rc = pthread_attr_setaffinity_np(&attr, size, set);
    CPU_FREE(set);
    if (rc)
        *failed = "pthread_attr_setaffinity_np";
    else if ((rc = pthread_create(t, &attr, body, arg)))
        *failed = "pthread_create";
    pthread_attr_destroy(&attr);
    return rc;
}

#endif
