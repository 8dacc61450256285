/*
 * corescope_libc.h - the libc / Linux surface corescope calls through the
 * Foreign Function & Memory API. Bindings are generated from this header by
 * native/jextract.sh, restricted to the symbols listed in
 * native/jextract-symbols.txt.
 */
#ifndef CORESCOPE_LIBC_H
#define CORESCOPE_LIBC_H

/* Must come before any libc header: exposes cpu_set_t, sched_getaffinity,
 * sched_setaffinity, sched_getcpu and gettid. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <sched.h>
#include <unistd.h>
#include <signal.h>
#include <pthread.h>
#include <time.h>
#include <string.h>
#include <sys/syscall.h>
#include <errno.h>
#include <linux/perf_event.h>

#endif /* CORESCOPE_LIBC_H */
