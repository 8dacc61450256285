package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Topology;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reserves CPUs across threads and processes: a CPU reserved here is given to no other user
 * of the same directory, in this process or another, until the {@link Reservation} is closed
 * or its process ends. Like OpenHFT's {@code AffinityLock}, without its limits: any CPU
 * number (masks beyond 1024 CPUs), reservations of other processes seen, whole cores with
 * every SMT sibling, and nothing left behind by a killed holder.
 *
 * <pre>{@code
 * Reservations machine = Reservations.shared();
 * try (Reservation core = machine.reserveWholeCore();           // both SMT threads of a free core
 *      Pinning pinned = core.pin()) {                           // this thread runs there now
 *     runLatencyCriticalLoop();
 * }                                                             // unpinned, then released
 * try (Reservation a = machine.reserveAny();
 *      Reservation b = machine.reserveNear(a, CpuStrategy.SAME_L3, CpuStrategy.ANY)) {
 *     // a and b: two CPUs on one L3 if the machine has a free pair, else any two
 * }
 * }</pre>
 *
 * <p>Which CPU is chosen: among the usable CPUs (online and in this process's affinity mask,
 * so a cgroup's hidden CPUs are never offered) that fit the strategy, the free one first in
 * this order: {@code isolcpus}/{@code nohz_full} CPUs; then the rest, with CPU 0 and CPUs that
 * service more than twice the median interrupt count ({@code /proc/interrupts}) last; then by
 * number. A whole core is offered only if every one of its online CPUs is usable.
 *
 * <p>Where reservations live: one lock file per CPU ({@code cpu-<n>.lock}) in
 * {@code /tmp/corescope-<uid>} (mode 0700, checked: no symbolic link, owned by this user,
 * writable by no one else), or in the directory named by {@code -Dcorescope.reservations.dir}
 * or {@code CORESCOPE_RESERVATIONS_DIR}, e.g. a group directory shared by several users.
 * Processes see each other's reservations when they use the same directory: by default,
 * those of one user.
 *
 * <p><b>Note:</b> thread-safe. A failed reservation throws {@link ReservationException} with
 * the reason (what was asked, which CPUs are usable, who holds them); it never hands out a CPU
 * it could not lock.
 */
public final class Reservations {

    private static final Pattern LOCK_FILE = Pattern.compile("cpu-(\\d+)\\.lock");
    private static volatile Reservations shared;

    private final Path directory;
    private final Topology topology;
    private final CpuMask usable;
    private final CpuIndex index;
    private final CpuPreference preference;

    private Reservations(Path directory, Topology topology, CpuMask usable, Path procRoot) {
        this.directory = LockDirectory.prepare(directory);
        this.topology = topology;
        this.usable = usable.resize(Math.max(usable.nbits(), topology.nbits())).and(topology.online().resize(Math.max(usable.nbits(), topology.nbits())));
        this.index = new CpuIndex(topology);
        this.preference = CpuPreference.of(topology, procRoot);
    }

    /**
     * This machine: the live topology, the CPUs this process may use, and the default (or
     * configured) directory. Made once per process.
     *
     * @throws ReservationException when the directory cannot be used
     */
    public static Reservations shared() {
        Reservations r = shared;
        if (r == null) {
            synchronized (Reservations.class) {
                r = shared;
                if (r == null) {
                    Topology t = Topology.live();
                    shared = r = new Reservations(LockDirectory.configured(), t, t.usable(), Path.of("/"));
                }
            }
        }
        return r;
    }

    /**
     * Reservations in {@code directory} over {@code topology} (live or saved), choosing only
     * among {@code usable}: for tests, tools that plan for another machine, and a process that
     * wants a directory of its own.
     */
    public static Reservations of(Path directory, Topology topology, CpuMask usable) {
        return new Reservations(directory, topology, usable, Path.of(topology.source()));
    }

    /** The directory of the lock files (its real path). */
    public Path directory() {
        return directory;
    }

    public Topology topology() {
        return topology;
    }

    /** The CPUs reservations choose from: online and allowed. */
    public CpuMask usable() {
        return usable;
    }

    // ---- reserving ---------------------------------------------------------------------

    /** Exactly {@code cpu}. */
    public Reservation reserveCpu(int cpu) {
        checkUsable(CpuMask.of(Math.max(usable.nbits(), cpu + 1), cpu));
        Reservation r = tryReserve(CpuMask.of(Math.max(usable.nbits(), cpu + 1), cpu), false);
        if (r == null) throw new ReservationException("CPU " + cpu + " is " + heldBy(cpu));
        return r;
    }

    /** Every online hardware thread of {@code cpu}'s core. */
    public Reservation reserveCoreOf(int cpu) {
        CpuMask core = index.coreOf(cpu);
        checkUsable(core);
        Reservation r = tryReserve(core, true);
        if (r == null) throw new ReservationException("core " + core.toList() + " is not free: " + heldList(core));
        return r;
    }

    /** The most preferred free CPU (see the class comment). */
    public Reservation reserveAny() {
        return reserve(-1, false, CpuStrategy.ANY);
    }

    /** The most preferred free whole core: every SMT sibling of it. */
    public Reservation reserveWholeCore() {
        return reserve(-1, true, CpuStrategy.ANY);
    }

    /** A free CPU that relates to {@code near}'s first CPU as the first fitting strategy says. */
    public Reservation reserveNear(Reservation near, CpuStrategy... strategies) {
        return reserve(near.cpu(), false, strategies);
    }

    /** A free whole core whose CPUs relate to {@code near}'s first CPU as the first fitting strategy says. */
    public Reservation reserveWholeCoreNear(Reservation near, CpuStrategy... strategies) {
        return reserve(near.cpu(), true, strategies);
    }

    /**
     * A free CPU (or whole core) relative to CPU {@code anchor} (negative: none), trying
     * {@code strategies} in order.
     */
    public Reservation reserve(int anchor, boolean wholeCore, CpuStrategy... strategies) {
        if (strategies.length == 0) strategies = new CpuStrategy[]{CpuStrategy.ANY};
        List<String> tried = new ArrayList<>();
        for (CpuStrategy s : strategies) {
            List<CpuMask> candidates = wholeCore ? coreCandidates(anchor, s) : cpuCandidates(anchor, s);
            for (CpuMask c : candidates) {
                Reservation r = tryReserve(c, wholeCore);
                if (r != null) return r;
            }
            tried.add(s.describe(anchor) + (candidates.isEmpty() ? " (none usable)" : " (all held)"));
        }
        StringBuilder why = new StringBuilder("no free ").append(wholeCore ? "whole core" : "CPU")
                .append(" among the usable CPUs ").append(usable.isEmpty() ? "(none)" : usable.toList())
                .append(": tried ").append(String.join(", then ", tried));
        CpuMask held = heldAmong(usable);
        if (!held.isEmpty()) why.append("; held: ").append(heldList(held));
        if (wholeCore) {
            CpuMask partial = partialCores();
            if (!partial.isEmpty()) why.append("; cores with CPUs outside the usable set cannot be reserved whole: ").append(partial.toList());
        }
        throw new ReservationException(why.toString());
    }

    /**
     * {@code n} CPUs for {@code n} cooperating threads: a first one, and {@code n - 1} more that
     * each relate to the first as {@code strategy} says (two SMT siblings, four cores on one
     * L3, ...). First CPUs are tried in preference order until a whole group is free; all or
     * nothing.
     */
    public List<Reservation> reserveGroup(int n, CpuStrategy strategy) {
        if (n < 1) throw new IllegalArgumentException("a group needs at least 1 CPU, not " + n);
        for (int first : preference.order(usable)) {
            Reservation a = tryReserve(CpuMask.of(usable.nbits(), first), false);
            if (a == null) continue;
            List<Reservation> group = new ArrayList<>(List.of(a));
            for (CpuMask c : cpuCandidates(first, strategy)) {
                if (group.size() == n) break;
                Reservation r = tryReserve(c, false);
                if (r != null) group.add(r);
            }
            if (group.size() == n) return List.copyOf(group);
            group.forEach(Reservation::close);
        }
        StringBuilder why = new StringBuilder("no free group of ").append(n).append(n == 1 ? " CPU" : " CPUs")
                .append(n > 1 ? " (each after the first being " + strategy.describe(0).replace("CPU 0", "the first") + ")" : "")
                .append(" among the usable CPUs ").append(usable.isEmpty() ? "(none)" : usable.toList());
        CpuMask held = heldAmong(usable);
        if (!held.isEmpty()) why.append("; held: ").append(heldList(held));
        throw new ReservationException(why.toString());
    }

    /** Single CPUs fitting {@code s}, in preference order. */
    private List<CpuMask> cpuCandidates(int anchor, CpuStrategy s) {
        List<CpuMask> out = new ArrayList<>();
        for (int cpu : preference.order(usable)) {
            if (s.accepts(index, anchor, cpu)) out.add(CpuMask.of(usable.nbits(), cpu));
        }
        return out;
    }

    /** Whole cores (every online CPU usable) whose CPUs all fit {@code s}, best first. */
    private List<CpuMask> coreCandidates(int anchor, CpuStrategy s) {
        int[] order = preference.order(usable);
        Map<Integer, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.length; i++) rank.put(order[i], i);
        Map<String, CpuMask> cores = new LinkedHashMap<>();
        for (int cpu : order) {
            CpuMask core = index.coreOf(cpu).resize(usable.nbits());
            if (!core.isSubsetOf(usable)) continue;
            boolean fits = true;
            for (int c : core.toArray()) fits &= s.accepts(index, anchor, c) && c != anchor;
            if (fits) cores.putIfAbsent(core.toList(), core);
        }
        List<CpuMask> out = new ArrayList<>(cores.values());
        out.sort(Comparator.comparingInt(core -> Arrays.stream(core.toArray()).map(rank::get).max().orElse(0)));
        return out;
    }

    /** Locks every CPU of {@code cpus}, or none: null when any is held. */
    private Reservation tryReserve(CpuMask cpus, boolean wholeCore) {
        String holder = holderLine();
        List<Path> taken = new ArrayList<>();
        for (int cpu : cpus.toArray()) {
            Path f = lockFile(cpu);
            if (LockTable.tryLock(f, holder) == null) {
                for (Path t : taken) LockTable.release(t);
                return null;
            }
            taken.add(f);
        }
        return new Reservation(cpus, wholeCore, taken);
    }

    private void checkUsable(CpuMask cpus) {
        CpuMask outside = cpus.resize(Math.max(cpus.nbits(), usable.nbits())).andNot(usable.resize(Math.max(cpus.nbits(), usable.nbits())));
        if (!outside.isEmpty()) {
            throw new ReservationException((outside.weight() == 1 ? "CPU " + outside.toList() + " is" : "CPUs " + outside.toList() + " are")
                    + " not among the usable CPUs " + (usable.isEmpty() ? "(none)" : usable.toList()) + " (online and in this process's affinity mask)");
        }
    }

    private CpuMask partialCores() {
        CpuMask.Builder b = CpuMask.builder(usable.nbits());
        for (int cpu : usable.toArray()) {
            if (!index.coreOf(cpu).resize(usable.nbits()).isSubsetOf(usable)) b.set(cpu);
        }
        return b.build();
    }

    private Path lockFile(int cpu) {
        return directory.resolve("cpu-" + cpu + ".lock");
    }

    private static String holderLine() {
        return "pid=" + Process.PID + " thread=" + Thread.currentThread().getName().replace(' ', '_')
                + " since=" + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " cmd=" + Process.COMMAND;
    }

    /** This process, looked up once: {@code ProcessHandle.info()} reads several /proc files. */
    private static final class Process {
        static final long PID = ProcessHandle.current().pid();
        static final String COMMAND = ProcessHandle.current().info().command()
                .map(c -> Path.of(c).getFileName().toString()).orElse("?");
    }

    // ---- who holds what ----------------------------------------------------------------

    /** Every CPU that has a lock file in the directory, by number: held or free, and by whom. */
    public List<Holding> holdings() {
        Map<String, Long> locks = ProcLocks.read();
        List<Integer> cpus = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory)) {
            for (Path p : ds) {
                Matcher m = LOCK_FILE.matcher(p.getFileName().toString());
                if (m.matches()) cpus.add(Integer.parseInt(m.group(1)));
            }
        } catch (IOException e) {
            throw new ReservationException("cannot list " + directory + ": " + e.getMessage(), e);
        }
        cpus.sort(null);
        List<Holding> out = new ArrayList<>();
        for (int cpu : cpus) out.add(holding(cpu, locks));
        return out;
    }

    private Holding holding(int cpu, Map<String, Long> locks) {
        Path f = lockFile(cpu);
        String here = LockTable.heldHere(f);
        if (here != null) return new Holding(cpu, "held", ProcessHandle.current().pid(), true, here);
        String last = LockTable.lastHolder(f);
        if (locks == null) return new Holding(cpu, "unknown", -1, false, last);
        Long pid = locks.get(ProcLocks.key(f));
        if (pid == null) return new Holding(cpu, "free", -1, false, last);
        return new Holding(cpu, "held", pid, false, last);
    }

    /**
     * The holdings as text, like OpenHFT's {@code AffinityLock.dumpLocks()}:
     * <pre>
     * # reservations in /tmp/corescope-1000 (usable CPUs 0-3)
     * CPU  state  pid    holder
     *   0  free   -      last: pid=4242 thread=main since=2026-11-30T23:01:02Z cmd=java
     *   1  held   4250   pid=4250 thread=worker-1 since=2026-11-30T23:02:10Z cmd=java
     * </pre>
     */
    public String dump() {
        List<Holding> hs = holdings();
        StringBuilder sb = new StringBuilder();
        sb.append("# reservations in ").append(directory).append(" (usable CPUs ")
                .append(usable.isEmpty() ? "none" : usable.toList()).append(")\n");
        if (hs.isEmpty()) return sb.append("no CPU has been reserved here yet\n").toString();
        int w = Math.max(3, String.valueOf(hs.getLast().cpu()).length());
        sb.append(String.format("%" + w + "s  %-7s %-8s %s%n", "CPU", "state", "pid", "holder"));
        for (Holding h : hs) {
            String who = h.holder().isEmpty() ? "" : (h.held() ? h.holder() : "last: " + h.holder());
            if (h.thisProcess()) who += " (this process)";
            sb.append(String.format("%" + w + "d  %-7s %-8s %s", h.cpu(), h.state(), h.pid() < 0 ? "-" : String.valueOf(h.pid()), who).stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    private CpuMask heldAmong(CpuMask cpus) {
        Map<String, Long> locks = ProcLocks.read();
        CpuMask.Builder b = CpuMask.builder(cpus.nbits());
        for (int cpu : cpus.toArray()) {
            Path f = lockFile(cpu);
            if (LockTable.heldHere(f) != null || (locks != null && locks.containsKey(ProcLocks.key(f)))) b.set(cpu);
        }
        return b.build();
    }

    private String heldList(CpuMask cpus) {
        List<String> parts = new ArrayList<>();
        for (int cpu : cpus.toArray()) parts.add("CPU " + cpu + " " + heldBy(cpu));
        return String.join(", ", parts);
    }

    /** {@code held by pid 4242 (this process, thread main)} or {@code held by pid 4250 (thread x ...)} */
    private String heldBy(int cpu) {
        Path f = lockFile(cpu);
        String here = LockTable.heldHere(f);
        if (here != null) return "held by this process (" + field(here, "thread") + ")";
        Map<String, Long> locks = ProcLocks.read();
        Long pid = locks == null ? null : locks.get(ProcLocks.key(f));
        if (pid != null) return "held by pid " + pid + " (" + LockTable.lastHolder(f) + ")";
        return "held by another process";
    }

    private static String field(String holder, String name) {
        for (String part : holder.split(" ")) if (part.startsWith(name + "=")) return name + " " + part.substring(name.length() + 1);
        return holder;
    }

    /** The POSIX locks of {@code /proc/locks} by {@code major:minor:inode}, with their pid. */
    static final class ProcLocks {
        private ProcLocks() {
        }

        /** Null when {@code /proc/locks} cannot be read. */
        static Map<String, Long> read() {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of("/proc/locks"));
            } catch (IOException | RuntimeException e) {
                return null;
            }
            Map<String, Long> out = new HashMap<>();
            for (String line : lines) {
                String[] f = line.trim().split("\\s+");
                // "1: POSIX  ADVISORY  WRITE 4242 fe:00:2154301 0 EOF"; waiters have "->" after the number
                if (f.length < 6 || f[1].equals("->")) continue;
                try {
                    out.put(f[5], Long.parseLong(f[4]));
                } catch (NumberFormatException e) {
                    // not a lock line
                }
            }
            return out;
        }

        /** {@code /proc/locks}' device and inode form for {@code file}: {@code fe:00:2154301}. */
        static String key(Path file) {
            try {
                long dev = (Long) Files.getAttribute(file, "unix:dev", LinkOption.NOFOLLOW_LINKS);
                long ino = (Long) Files.getAttribute(file, "unix:ino", LinkOption.NOFOLLOW_LINKS);
                long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & 0xfffff000L);
                long minor = (dev & 0xff) | ((dev >>> 12) & 0xffffff00L);
                return String.format("%02x:%02x:%d", major, minor, ino);
            } catch (IOException | RuntimeException e) {
                return "";
            }
        }
    }
}
