/**
 * {@code bench timerbase}: seed 001's {@code get_timer_cpu_base()} with two or one
 * {@code per_cpu_ptr()}, on a model of the kernel's per-CPU timer bases in off-heap memory
 * ({@link TimerBases}), measured per call with JMH and as the
 * seed's per-call latency histogram next to the clock's own, in Java and in C.
 */
package dev.corescope.bench.timerbase;
