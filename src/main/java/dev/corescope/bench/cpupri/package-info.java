/**
 * {@code bench cpupri}, seed 002: the layouts of the kernel's {@code struct cpupri} (packed, the
 * patch's cache-line-aligned mask, the split alternative) as FFM memory layouts and as Java-heap
 * objects checked with JOL, and the false sharing between {@code count} and {@code mask} they
 * cause, measured by JMH with reader and writers pinned to chosen CPUs.
 */
package dev.corescope.bench.cpupri;
