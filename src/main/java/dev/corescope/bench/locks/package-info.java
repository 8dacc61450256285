/**
 * {@code bench locks} (seed 004): what lock + unlock costs per element of a loop, in the style of
 * prototype-kernel's time_bench_sample.c, from Java (JMH) and inside C (the twin in
 * {@code native/src/locks.c}), in ns and TSC cycles, beside the seed's 2015 figures. Userspace has
 * no irqsave: a signal-mask change ({@code pthread_sigmask}) stands in, and the report says where
 * that analogy holds and where it breaks; a contended mode pins threads to CPU pairs on one lock.
 */
package dev.corescope.bench.locks;
