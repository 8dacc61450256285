/**
 * The cost of corescope's own native layer: {@code sched_getcpu}, {@code sched_getaffinity}
 * and {@code sched_setaffinity} through FFM against the same calls from C. Every pinned
 * benchmark pays these, so they say how much the Java side adds to a measurement.
 */
package dev.corescope.bench.syscalls;
