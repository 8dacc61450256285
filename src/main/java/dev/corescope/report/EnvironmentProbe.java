package dev.corescope.report;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.PerfCounters;
import dev.corescope.sys.internal.Os;
import dev.corescope.topology.Topology;
import dev.corescope.topology.proc.CpuFreq;
import dev.corescope.topology.proc.CpuInfo;
import dev.corescope.topology.proc.CpuTimes;
import dev.corescope.topology.proc.Hypervisor;
import dev.corescope.topology.proc.KernelRelease;
import dev.corescope.topology.proc.SysfsReader;

import java.lang.management.ManagementFactory;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Assembles the {@link Environment} a run happened in from a root holding {@code proc/} and
 * {@code sys/} ({@code /} for this machine; a saved or hand-built tree in tests), plus the
 * {@link Facts} that only the running JVM knows, and says what in it undermines the numbers.
 * What is topology (the CPU model, the online, isolated and nohz_full sets, SMT, the cgroup's
 * cpuset) comes from the {@link Topology} of the same root, read once by its one reader, so a
 * results file and {@code topology} agree by construction. The rest is read by the parsers of
 * {@code topology.proc}, all through one {@link SysfsReader} (so {@code capture} saves what was
 * read): {@link CpuTimes}, {@link CpuInfo}, {@link CpuFreq}, {@link Hypervisor},
 * {@link KernelRelease}, and the cgroup quota ({@link CgroupLimits}). {@link #start} takes a
 * {@code /proc/stat} snapshot; {@link #finish} takes another, so steal time and how busy the SMT
 * siblings of the pinned CPUs were ({@link BusySiblings}) are measured over the run, not guessed.
 */
public final class EnvironmentProbe {

    private final SysfsReader r;
    private final Facts facts;
    private final Topology topology;

    /**
     * What the JVM knows and no file says.
     *
     * @param allowed                the process's allowed CPUs; null when unknown
     * @param hardwareCountersReason null when hardware counters work, else why not
     */
    public record Facts(String jdk, List<String> jvmFlags, CpuMask allowed, String hardwareCountersReason) {

        /** This JVM and this process. */
        public static Facts live() {
            String jdk = System.getProperty("java.vendor", "?") + " " + System.getProperty("java.runtime.version", "?")
                    + " (" + System.getProperty("java.vm.name", "?") + ")";
            List<String> flags = ManagementFactory.getRuntimeMXBean().getInputArguments();
            return new Facts(jdk, flags, Os.live().processAllowed(), PerfCounters.hardwareUnavailableReason());
        }
    }

    /** The state at the start of a run. */
    public record Start(Instant at, CpuTimes cpuTimes) {
    }

    /**
     * @param topology the topology read from the same root, or null when it could not be read
     *                 (no {@code sys/devices/system/cpu}): then what is topology stays unknown
     */
    public EnvironmentProbe(Path root, Facts facts, Topology topology) {
        this(new SysfsReader(root), facts, topology);
    }

    /** Reading through {@code reader}, whose record of files read {@code capture} saves. */
    public EnvironmentProbe(SysfsReader reader, Facts facts, Topology topology) {
        this.r = reader;
        this.facts = facts;
        this.topology = topology;
    }

    /** This machine and this JVM, with the topology the caller read of it. */
    public static EnvironmentProbe live(Topology topology) {
        return new EnvironmentProbe(Path.of("/"), Facts.live(), topology);
    }

    public Start start(Instant now) {
        return new Start(now, readCpuTimes());
    }

    /**
     * The environment of a run from {@code start} to {@code now}, with warnings;
     * {@code pinned} are the CPUs the measuring threads were pinned to (null: none known).
     */
    public Environment finish(Start start, Instant now, CpuMask pinned) {
        CpuTimes endTimes = readCpuTimes();
        CpuInfo cpuinfo = CpuInfo.read(r);
        CpuMask online = topology == null ? null : topology.online();
        // An absent isolated or nohz_full file means the kernel has none of them: "", not unknown.
        String isolated = topology == null ? null : topology.isolated().toList();
        String nohzFull = topology == null ? null : topology.nohzFull().toList();
        Boolean smt = topology == null ? null : topology.smt().orElse(null);
        String cpuModel = topology == null ? cpuinfo.model() : topology.cpuModel().orElse(null);
        CgroupLimits cg = CgroupLimits.read(r, topology);
        CpuClock clock = CpuClock.of(CpuFreq.read(r, online), cpuinfo);
        String hypervisor = Hypervisor.read(r, cpuinfo).orElse(null);
        Double steal = start.cpuTimes() == null || endTimes == null ? null
                : boxed(endTimes.totalStealPercentSince(start.cpuTimes()));

        List<String> warnings = new ArrayList<>();
        Environment.governorWarning(clock.governor()).ifPresent(warnings::add);
        if (facts.allowed() != null && online != null && facts.allowed().weight() < online.weight()) {
            warnings.add("only CPUs " + facts.allowed().toList() + " of the online " + online.toList()
                    + " are allowed (affinity or cpuset): the benchmarks see part of the machine");
        }
        Environment.quotaWarning(cg.quota(), cg.quotaCpus()).ifPresent(warnings::add);
        List<Environment.BusySibling> busy = pinned == null || pinned.isEmpty() ? List.of()
                : BusySiblings.of(topology, pinned, start.cpuTimes(), endTimes);
        busy.forEach(b -> warnings.add(b.warning()));
        if (hypervisor != null) {
            warnings.add("running under a hypervisor, " + hypervisor + ": vCPUs are threads on the host, shared with other guests"
                    + (steal == null ? "" : String.format(Locale.ROOT, "; %.1f%% of CPU time was stolen during the run", steal)));
        }

        return new Environment(cpuModel, KernelRelease.read(r).orElse(null), facts.jdk(), facts.jvmFlags(),
                facts.allowed() == null ? null : facts.allowed().toList(),
                online == null ? null : online.toList(),
                isolated, nohzFull, smt, cg.cpuset(), cg.quota(), clock.governor(), clock.frequency(), hypervisor,
                facts.hardwareCountersReason() == null, start.at().toString(), now.toString(), List.copyOf(warnings),
                facts.hardwareCountersReason(), cg.quotaCpus(), steal,
                pinned == null || pinned.isEmpty() ? null : pinned.toList(), cg.path(), busy.isEmpty() ? null : busy);
    }

    /** The CPU times now; null when {@code /proc/stat} cannot be read. */
    private CpuTimes readCpuTimes() {
        return CpuTimes.read(r).orElse(null);
    }

    private static Double boxed(OptionalDouble d) {
        return d.isPresent() ? d.getAsDouble() : null;
    }
}
