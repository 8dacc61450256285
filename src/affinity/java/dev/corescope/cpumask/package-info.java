/**
 * CPU sets with the Linux kernel's semantics: {@link CpuMask}, word-at-a-time
 * over any number of bits, and the kernel's cpulist and hex cpumap text forms. Pure Java: no
 * native calls, so it can be tested everywhere against {@link java.util.BitSet}.
 *
 * <pre>{@code
 * CpuMask a = CpuMask.parse("0-3,8");          // sized for this machine
 * CpuMask b = CpuMask.ofCpus(2, 8, 9);
 * System.out.println(a.and(b).toList());       // 2,8
 * System.out.println(a.toHex());               // the cpumap form: 10f
 * }</pre>
 *
 * @since 0.1.0
 */
package dev.corescope.cpumask;
