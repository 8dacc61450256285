/**
 * The parsers of the files under {@code /proc} and {@code /sys} that corescope reads
 * (cpuinfo, stat, interrupts and softirqs, the cgroup cpuset and quota, mountinfo, locks, the
 * kernel command line), each capped in size and relative to a root, so a saved tree reads like
 * the live machine.
 *
 * <pre>{@code
 * KernelHints k = KernelHints.read(new SysfsReader(Path.of("/")), CpuMask.machineSize());
 * System.out.println("isolcpus: " + k.isolated().toList() + ", nohz_full: " + k.nohzFull().toList());
 * }</pre>
 *
 * @since 0.2.0
 */
package dev.corescope.topology.proc;
