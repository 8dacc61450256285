/**
 * CPU sets with the Linux kernel's semantics: {@link dev.corescope.cpumask.CpuMask}, word-at-a-time
 * over any number of bits, and the kernel's cpulist and hex cpumap text forms. Pure Java: no
 * native calls, so it can be tested everywhere against {@link java.util.BitSet}.
 */
package dev.corescope.cpumask;
