package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Width;
import dev.corescope.topology.CpuSelector;
import dev.corescope.topology.Topology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reserves CPUs across threads, processes and users: a CPU reserved here is given to no other
 * corescope user on the machine (more exactly: of the same directory), in this process or
 * another, until the {@link Reservation} is closed or its process ends. Like OpenHFT's {@code AffinityLock}, without its limits: any CPU
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
 * this order ({@link CpuPreference#KERNEL_HINTS}): {@code isolcpus}/{@code nohz_full} CPUs;
 * then the rest, with CPU 0 and CPUs that service more than twice the median interrupt count
 * ({@code /proc/interrupts}) last; then by number. {@link #preferring preferring(QUIET)}
 * measures the CPUs first and offers the least disturbed ones first (after the isolated ones).
 * A whole core is offered only if every one of its online CPUs is usable.
 *
 * <p>Where reservations live: one lock file per CPU ({@code cpu-<n>.lock}, mode 0444, never
 * written) in {@code /tmp/corescope-reservations}, shared by every user of the machine and made
 * like {@code /tmp} (mode 1777, sticky; opened without following symbolic links; it must belong
 * to root or to this user), or in the directory named by {@code -Dcorescope.reservations.dir}
 * or {@code CORESCOPE_RESERVATIONS_DIR}. A reservation is an {@code flock(2)} on a read-only
 * descriptor of the CPU's file, kept open by the process: so every user can lock a file another
 * user created (and none can write it), reserving costs one system call, and the kernel drops
 * the lock when the holder dies. A directory that cannot be used (a planted symbolic link,
 * another user's directory, one anyone may write without the sticky bit) fails with a
 * {@link ReservationException} that says why and what to do: never a silent unreserved CPU.
 *
 * <p>On a machine shared by several users: only lock files of root or of the directory's owner
 * are trusted (a file's owner may remove it from a sticky directory while someone else holds
 * its lock, and the next reserver would lock a new file), so in root's shared directory root
 * makes the lock files once ({@code LockDirectory.lockFilesRemedy}) and an ordinary user makes
 * none; a file another user planted (their own, a directory, a FIFO, a hard link) makes its CPU
 * unusable, which {@link #reserveAny()} skips and {@link #dump()} shows with the reason. After
 * each lock the name is checked to still lead to the locked file (device and inode). What
 * nobody can prevent: any user may reserve (and so hold) any free CPU, and root or the
 * directory's owner may remove lock files (see docs/library.md, "Shared machines").
 *
 * <p><b>Note:</b> thread-safe. A failed reservation throws {@link ReservationException} with
 * the reason (what was asked, which CPUs are usable, who holds them); it never hands out a CPU
 * it could not lock.
 */
public final class Reservations {

    private static volatile Reservations shared;

    private final LockTable table;
    private final Path directory;
    private final Topology topology;
    private final CpuMask usable;
    private final CpuOrder preference;
    private final Path procRoot;
    /** The usable CPUs in preference order and the candidates of each strategy: what is tried, before anything is locked. */
    private final CpuChoice choice;

    private Reservations(Path directory, Topology topology, CpuMask usable, Path procRoot) {
        this(LockTable.of(directory), topology, usable, procRoot, null);
    }

    private Reservations(LockTable table, Topology topology, CpuMask usable, Path procRoot, CpuOrder preference) {
        this.table = table;
        this.directory = table.directory();
        this.topology = topology;
        int nbits = Math.max(usable.nbits(), topology.nbits());
        this.usable = usable.resize(nbits).and(topology.online().resize(nbits));
        this.procRoot = procRoot;
        this.preference = preference != null ? preference : CpuOrder.of(topology, procRoot);
        this.choice = new CpuChoice(topology, this.usable, this.preference.order(this.usable));
    }

    /**
     * This machine: the live topology, the CPUs this process may use, and the default (or
     * configured) directory. Made once per process.
     *
     * @return the process's reservations, the same object on every call
     * @throws ReservationException when the directory cannot be used
     */
    public static Reservations shared() {
        Reservations r = shared;
        if (r == null) {
            synchronized (Reservations.class) {
                r = shared;
                if (r == null) {
                    Topology t = Topology.live();
                    shared = r = new Reservations(LockDirectory.configured(), t, configuredCpus(t, t.usable()), Path.of("/"));
                }
            }
        }
        return r;
    }

    /** {@code -Dcorescope.reservations.cpus=LIST}: the CPUs {@link #shared()} may hand out (OpenHFT's {@code affinity.reserved}). */
    public static final String CPUS_PROPERTY = "corescope.reservations.cpus";

    /**
     * {@code usable} narrowed to {@code -Dcorescope.reservations.cpus} when it is set, else
     * {@code CORESCOPE_RESERVATIONS_CPUS}: the CPUs a process leaves to its pinned threads, as
     * OpenHFT's {@code -Daffinity.reserved}; a CPU list ({@code 2-7}), a hex mask or selectors
     * ({@code node:1}, {@code kind:performance}: {@link CpuSelector}).
     */
    static CpuMask configuredCpus(Topology t, CpuMask usable) {
        String p = System.getProperty(CPUS_PROPERTY);
        if (p == null || p.isBlank()) p = System.getenv("CORESCOPE_RESERVATIONS_CPUS");
        if (p == null || p.isBlank()) return usable;
        try {
            return usable.and(CpuSelector.select(p, t).resize(usable.nbits()));
        } catch (IllegalArgumentException e) {
            throw new ReservationException(CPUS_PROPERTY + "=" + p + ": " + e.getMessage(), e);
        }
    }

    /**
     * The directory {@link #shared()} uses: {@code -Dcorescope.reservations.dir}, else
     * {@code CORESCOPE_RESERVATIONS_DIR}, else {@code /tmp/corescope-reservations}. Nothing is
     * created or opened.
     *
     * @return the directory, read from the property and environment on each call
     */
    public static Path configuredDirectory() {
        return LockDirectory.configured();
    }

    /**
     * Reservations in {@code directory} over {@code topology} (live or saved), choosing only
     * among {@code usable}: for tests, tools that plan for another machine, and a process that
     * wants a directory of its own.
     *
     * @param directory the lock files' directory, created if missing (mode 1777 for the default
     *        shared one, else 0700)
     * @param topology what "core", "same L3" and the kernel hints mean, not null
     * @param usable the CPUs to choose from (e.g. {@code ThreadAffinity.pinnable()} to include
     *        isolated CPUs); only its online CPUs are offered
     * @return new reservations (cheap to keep; make one per directory and share it)
     * @throws ReservationException when the directory cannot be used
     */
    public static Reservations of(Path directory, Topology topology, CpuMask usable) {
        return new Reservations(directory, topology, usable, Path.of(topology.source()));
    }

    /**
     * These reservations (same directory, topology and usable CPUs) offering free CPUs in the
     * order {@code p} says; {@link CpuPreference#QUIET} measures now, for
     * {@link Quietness#WINDOW 200 ms}. The default is {@link CpuPreference#KERNEL_HINTS}.
     *
     * @param p the order, not null
     * @return new reservations sharing this one's directory and locks
     */
    public Reservations preferring(CpuPreference p) {
        return p == CpuPreference.QUIET ? preferQuiet(Quietness.WINDOW)
                : new Reservations(table, topology, usable, procRoot, preference.quiet(null));
    }

    /**
     * {@link CpuPreference#QUIET} measured over {@code window}: the CPUs disturbed least in it
     * first (after the isolated ones). The calling thread sleeps for the window.
     *
     * @param window how long to watch the CPUs' interrupts and steal, e.g. 200 ms
     * @return new reservations sharing this one's directory and locks
     */
    public Reservations preferQuiet(Duration window) {
        return new Reservations(table, topology, usable, procRoot, preference.quiet(Quietness.measure(procRoot, window)));
    }

    /**
     * The order free CPUs are offered in.
     *
     * @return the preference, never null
     */
    public CpuPreference preference() {
        return preference.quietness() == null ? CpuPreference.KERNEL_HINTS : CpuPreference.QUIET;
    }

    /**
     * The usable CPUs in the order they are offered (when all are free and no strategy narrows them).
     *
     * @return a new array of CPU numbers, most preferred first
     */
    public int[] preferenceOrder() {
        return choice.order.clone();
    }

    /**
     * The directory of the lock files.
     *
     * @return its real path (symbolic links of the parents resolved)
     */
    public Path directory() {
        return directory;
    }

    /**
     * The topology the strategies are judged on.
     *
     * @return the topology given (or the live one for {@link #shared()})
     */
    public Topology topology() {
        return topology;
    }

    /**
     * The CPUs reservations choose from: online and allowed.
     *
     * @return a mask of the topology's bit count
     */
    public CpuMask usable() {
        return usable;
    }

    // ---- reserving ---------------------------------------------------------------------

    /**
     * A reservation described in words, as in configuration files and OpenHFT's
     * {@code AffinityLock.acquireLock(String)}, without waiting: {@code any} (the most preferred
     * free CPU), {@code core} (a whole core), {@code N} (exactly CPU N), {@code last} or
     * {@code last-N} (the last usable CPU, or the N-th before it), or selectors of
     * {@link CpuSelector} ({@code node:1}, {@code kind:performance}, {@code l3:0,7}): the most
     * preferred free CPU among those.
     *
     * @param spec the description
     * @return the reservation, to close
     * @throws IllegalArgumentException when {@code spec} is none of these (the message lists them)
     * @throws ReservationException as the matching {@code reserve...} method
     * @since 0.2.0
     */
    public Reservation reserve(String spec) {
        String s = spec.strip().toLowerCase(java.util.Locale.ROOT);
        if (s.equals("any")) return reserveAny();
        if (s.equals("core")) return reserveWholeCore();
        if (s.matches("[0-9]{1,7}")) return reserveCpu(Integer.parseInt(s));
        if (s.matches("last(-[0-9]{1,7})?")) {
            int[] cpus = usable.toArray();
            int back = s.equals("last") ? 0 : Integer.parseInt(s.substring(5));
            if (back >= cpus.length) {
                throw new ReservationException(spec + ": only " + cpus.length + " usable CPUs " + (cpus.length == 0 ? "" : usable.toList()));
            }
            return reserveCpu(cpus[cpus.length - 1 - back]);
        }
        if (s.indexOf(':') > 0) {
            CpuMask chosen = usable.and(CpuSelector.select(s, topology).resize(usable.nbits()));
            if (chosen.isEmpty()) throw new ReservationException(spec + ": none of its CPUs is usable (usable: " + usable.toList() + ")");
            return new Reservations(table, topology, chosen, procRoot, preference).reserveAny();
        }
        throw new IllegalArgumentException("reservation '" + spec + "': not one of any, core, N (a CPU), last, last-N, or selectors (node:N, ...)");
    }

    /**
     * Exactly {@code cpu}, without waiting.
     *
     * @param cpu the CPU number
     * @return the reservation, to close
     * @throws ReservationException when it is held by anyone (this process included), not usable,
     *         or its lock file cannot be used; the message says which
     */
    public Reservation reserveCpu(int cpu) {
        CpuMask one = CpuMask.of(Math.max(usable.nbits(), cpu + 1), cpu);
        choice.checkUsable(one);
        Reservation r = tryReserve(one, false, null);
        if (r == null) throw new ReservationException("CPU " + cpu + " is " + LockView.heldBy(table, cpu));
        return r;
    }

    /**
     * Exactly {@code cpu}, waiting up to {@code timeout} while another holds it (a CPU that
     * cannot be reserved at all fails at once).
     *
     * @param cpu the CPU number
     * @param timeout the longest wait; zero tries once
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @return the reservation, to close
     * @throws ReservationException when it is still held after {@code timeout}, or the wait is interrupted
     */
    public Reservation reserveCpu(int cpu, Duration timeout) {
        CpuMask one = CpuMask.of(Math.max(usable.nbits(), cpu + 1), cpu);
        choice.checkUsable(one);
        return Waiting.until(timeout, () -> tryReserve(one, false, null), () -> "CPU " + cpu + " is " + LockView.heldBy(table, cpu));
    }

    /**
     * Every online hardware thread of {@code cpu}'s core, all or nothing, without waiting.
     *
     * @param cpu any CPU of the core
     * @return one reservation holding the whole core
     * @throws ReservationException when a thread of the core is held or not usable
     */
    public Reservation reserveCoreOf(int cpu) {
        CpuMask core = choice.coreOf(cpu);
        choice.checkUsable(core);
        Reservation r = tryReserve(core, true, null);
        if (r == null) throw new ReservationException("core " + core.toList() + " is not free: " + LockView.heldList(table, core));
        return r;
    }

    /**
     * The most preferred free CPU (see the class comment). A CPU whose lock file cannot be used
     * (another user's, a directory or FIFO in its place, unreadable) is skipped; when no CPU is
     * left, the message says why for each.
     *
     * @return the reservation, to close
     * @throws ReservationException when no usable CPU is free
     */
    public Reservation reserveAny() {
        CpuChoice c = choice;
        for (int i = 0; i < c.order.length; i++) {
            int cpu = c.order[i];
            try {
                if (table.tryLock(cpu)) return new Reservation(table, c.single[i], c.singleList[i], false);
            } catch (ReservationException e) {
                // unusable: skipped here; the search below says why
            }
        }
        return reserve(-1, false, CpuStrategy.ANY);  // none free: the same search, for its message
    }

    /**
     * The most preferred free CPU, waiting up to {@code timeout} for one to be released.
     *
     * @param timeout the longest wait; zero tries once
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @return the reservation, to close
     * @throws ReservationException when none is free after {@code timeout} (or none can ever be:
     *                              at once), or the wait is interrupted
     */
    public Reservation reserveAny(Duration timeout) {
        return reserve(timeout, -1, false, CpuStrategy.ANY);
    }

    /**
     * The most preferred free whole core: every SMT sibling of it, without waiting.
     *
     * @return one reservation holding the core
     * @throws ReservationException when no core has all its online CPUs usable and free
     */
    public Reservation reserveWholeCore() {
        return reserve(-1, true, CpuStrategy.ANY);
    }

    /**
     * The most preferred free whole core, waiting up to {@code timeout} for one.
     *
     * @param timeout the longest wait; zero tries once
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @return one reservation holding the core
     * @throws ReservationException when none is free after {@code timeout}, or the wait is interrupted
     */
    public Reservation reserveWholeCore(Duration timeout) {
        return reserve(timeout, -1, true, CpuStrategy.ANY);
    }

    /**
     * A free CPU that relates to {@code near}'s first CPU as the first fitting strategy says.
     *
     * @param near a reservation of this process (open), the anchor
     * @param strategies tried in order, e.g. {@code SAME_L3, ANY}; none means {@code ANY}
     * @return the reservation, to close
     * @throws ReservationException when no strategy finds a free usable CPU; the message lists why for each
     */
    public Reservation reserveNear(Reservation near, CpuStrategy... strategies) {
        return reserve(near.cpu(), false, strategies);
    }

    /**
     * A free whole core whose CPUs relate to {@code near}'s first CPU as the first fitting strategy says.
     *
     * @param near a reservation of this process (open), the anchor
     * @param strategies tried in order; none means {@code ANY}
     * @return one reservation holding the core
     * @throws ReservationException when no strategy finds a free whole core
     */
    public Reservation reserveWholeCoreNear(Reservation near, CpuStrategy... strategies) {
        return reserve(near.cpu(), true, strategies);
    }

    /**
     * A free CPU (or whole core) relative to CPU {@code anchor} (negative: none), trying
     * {@code strategies} in order, without waiting.
     *
     * @param anchor the CPU the strategies relate to, or negative for none
     * @param wholeCore true for every SMT sibling of a core, false for one CPU
     * @param strategies tried in order; none means {@code ANY}
     * @return the reservation, to close
     * @throws ReservationException when no strategy finds a free usable CPU (or core)
     */
    public Reservation reserve(int anchor, boolean wholeCore, CpuStrategy... strategies) {
        Attempt at = new Attempt();
        Reservation r = attempt(at, anchor, wholeCore, strategies);
        if (r == null) throw at.failure(anchor, wholeCore);
        return r;
    }

    /**
     * {@link #reserve(int, boolean, CpuStrategy...)}, waiting up to {@code timeout} while every
     * fitting CPU is held by someone; fails at once when none could ever be reserved (none fits,
     * or every fitting one is unusable).
     *
     * @param timeout the longest wait; zero tries once
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @param anchor the CPU the strategies relate to, or negative for none
     * @param wholeCore true for every SMT sibling of a core, false for one CPU
     * @param strategies tried in order; none means {@code ANY}
     * @return the reservation, to close
     * @throws ReservationException when nothing fits after {@code timeout}, or the wait is interrupted
     */
    public Reservation reserve(Duration timeout, int anchor, boolean wholeCore, CpuStrategy... strategies) {
        Attempt[] last = new Attempt[1];
        return Waiting.until(timeout, () -> {
            Attempt at = new Attempt();
            last[0] = at;
            Reservation r = attempt(at, anchor, wholeCore, strategies);
            if (r == null && at.held == 0) throw at.failure(anchor, wholeCore);  // waiting cannot help
            return r;
        }, () -> last[0].failure(anchor, wholeCore).getMessage());
    }

    /** What one search tried: the strategies and why each gave nothing, and the CPUs skipped as unusable. */
    private final class Attempt {
        final List<String> tried = new ArrayList<>();
        final Map<Integer, String> unusable = new TreeMap<>();
        int held;

        ReservationException failure(int anchor, boolean wholeCore) {
            StringBuilder why = new StringBuilder("no free ").append(wholeCore ? "whole core" : "CPU")
                    .append(" among the usable CPUs ").append(usable.isEmpty() ? "(none)" : usable.toList())
                    .append(": tried ").append(String.join(", then ", tried));
            CpuMask held = LockView.heldAmong(table, usable);
            if (!held.isEmpty()) why.append("; held: ").append(LockView.heldList(table, held));
            if (!unusable.isEmpty()) {
                List<String> parts = new ArrayList<>();
                unusable.forEach((cpu, reason) -> parts.add("CPU " + cpu + ": " + reason));
                why.append("; unusable: ").append(String.join("; ", parts));
            }
            if (wholeCore) {
                CpuMask partial = choice.partialCores();
                if (!partial.isEmpty()) why.append("; cores with CPUs outside the usable set cannot be reserved whole: ").append(partial.toList());
            }
            return new ReservationException(why.toString());
        }
    }

    private Reservation attempt(Attempt at, int anchor, boolean wholeCore, CpuStrategy... strategies) {
        if (strategies.length == 0) strategies = new CpuStrategy[]{CpuStrategy.ANY};
        for (CpuStrategy s : strategies) {
            List<CpuMask> candidates = wholeCore ? choice.cores(anchor, s) : choice.cpus(anchor, s);
            int unusableBefore = at.unusable.size();
            int heldBefore = at.held;
            for (CpuMask c : candidates) {
                Reservation r = tryReserve(c, wholeCore, at);
                if (r != null) return r;
            }
            boolean held = at.held > heldBefore;
            boolean unusableToo = at.unusable.size() > unusableBefore;
            at.tried.add(s.describe(anchor) + (candidates.isEmpty() || !held && unusableToo ? " (none usable)"
                    : unusableToo ? " (all held or unusable)" : " (all held)"));
        }
        return null;
    }

    /**
     * {@code n} CPUs for {@code n} cooperating threads: a first one, and {@code n - 1} more that
     * each relate to the first as {@code strategy} says (two SMT siblings, four cores on one
     * L3, ...). First CPUs are tried in preference order until a whole group is free; all or
     * nothing.
     *
     * @param n how many CPUs, at least 1
     * @param strategy how each of the others relates to the first
     * @return {@code n} reservations, the first one first; close each
     * @throws ReservationException when no first CPU has {@code n - 1} free partners
     */
    public List<Reservation> reserveGroup(int n, CpuStrategy strategy) {
        if (n < 1) throw new IllegalArgumentException("a group needs at least 1 CPU, not " + n);
        Attempt at = new Attempt();
        for (int i = 0; i < choice.order.length; i++) {
            int first = choice.order[i];
            Reservation a = tryReserve(choice.single[i], false, at);
            if (a == null) continue;
            List<Reservation> group = new ArrayList<>(List.of(a));
            for (CpuMask c : choice.cpus(first, strategy)) {
                if (group.size() == n) break;
                Reservation r = tryReserve(c, false, at);
                if (r != null) group.add(r);
            }
            if (group.size() == n) return List.copyOf(group);
            group.forEach(Reservation::close);
        }
        StringBuilder why = new StringBuilder("no free group of ").append(n).append(n == 1 ? " CPU" : " CPUs")
                .append(n > 1 ? " (each after the first being " + strategy.describe(0).replace("CPU 0", "the first") + ")" : "")
                .append(" among the usable CPUs ").append(usable.isEmpty() ? "(none)" : usable.toList());
        CpuMask held = LockView.heldAmong(table, usable);
        if (!held.isEmpty()) why.append("; held: ").append(LockView.heldList(table, held));
        if (!at.unusable.isEmpty()) why.append("; unusable: CPUs ").append(CpuMask.of(usable.nbits(),
                at.unusable.keySet().stream().mapToInt(Integer::intValue).toArray()).toList());
        throw new ReservationException(why.toString());
    }

    /**
     * Locks every CPU of {@code cpus}, or none: null when any is held or (with {@code at})
     * unusable, which {@code at} records; without {@code at} an unusable CPU throws.
     */
    private Reservation tryReserve(CpuMask cpus, boolean wholeCore, Attempt at) {
        int[] list = cpus.toArray();
        for (int i = 0; i < list.length; i++) {
            boolean locked;
            try {
                locked = table.tryLock(list[i]);
                if (!locked && at != null) at.held++;
            } catch (ReservationException e) {
                for (int j = 0; j < i; j++) table.release(list[j]);
                if (at == null) throw e;
                at.unusable.put(list[i], e.getMessage());
                return null;
            }
            if (!locked) {
                for (int j = 0; j < i; j++) table.release(list[j]);
                return null;
            }
        }
        return new Reservation(table, cpus, list, wholeCore);
    }

    // ---- who holds what: read by LockView, printed by HoldingsText ---------------------

    /**
     * Every lock file in the directory, by CPU: held (by whom, and which thread for this
     * process), stale (held for a thread that has ended), free, unknown (no {@code /proc/locks}),
     * or unusable (why); also every holder of a lock file removed while held, and files that are
     * no corescope lock file ({@code cpu} -1, state {@code foreign}).
     *
     * @return a new list, by CPU; reads {@code /proc/locks} once
     */
    public List<Holding> holdings() {
        return LockView.holdings(directory, table);
    }

    /**
     * The holdings of {@code directory}, read without creating or locking anything (a missing
     * directory holds nothing): what {@code corescope reservations} shows.
     *
     * @param directory a reservations directory, not null
     * @return a new list, by CPU; empty for a missing directory
     * @throws ReservationException when it exists but cannot be used (a symbolic link, not a directory, ...)
     */
    public static List<Holding> holdingsIn(Path directory) {
        return LockView.holdings(directory, LockTable.existing(directory));
    }

    /**
     * {@link #holdingsIn(Path)} with a {@code free} entry for each of {@code usable} that has no
     * lock file yet (when the directory exists).
     *
     * @param directory a reservations directory
     * @param usable the CPUs a reservation could take
     * @return one entry per lock file and per usable CPU without one, in CPU order
     * @throws ReservationException when the directory exists but cannot be used
     */
    public static List<Holding> holdingsIn(Path directory, CpuMask usable) {
        return HoldingsText.withFree(directory, usable);
    }

    /**
     * The holdings as text, like OpenHFT's {@code AffinityLock.dumpLocks()}:
     * <pre>
     * # reservations in /tmp/corescope-reservations (usable CPUs 0-3)
     * CPU  state      pid  holder
     *   0  free         -
     *   1  held      4242  pid=4242 thread=main since=2026-11-30T23:01:02Z cmd=java (this process)
     *   2  held      4250  pid=4250 uid=1000 cmd=java
     *   3  unusable     -  it belongs to uid 1001, and only lock files of root are trusted: ...
     *   -  foreign      -  not a corescope lock file: cpu-99999999999.lock
     * </pre>
     * Every string from outside is escaped ({@code \e}, {@code \n}, ...): one line per row.
     *
     * @return the table, one line per lock file, ending in a newline
     */
    public String dump() {
        return HoldingsText.document(directory, usable, holdings(), true).render(Width.NONE);
    }

    /**
     * {@link #dump()} for {@link #holdingsIn(Path)}: nothing is created or locked.
     *
     * @param directory a reservations directory
     * @param usable the CPUs named in the heading line
     * @return the table, one line per lock file
     * @throws ReservationException when the directory exists but cannot be used
     */
    public static String dumpOf(Path directory, CpuMask usable) {
        return dumpOf(directory, usable, Width.NONE);
    }

    /**
     * {@link #dumpOf(Path, CpuMask)} laid out at {@code width}: no line wider where the words
     * allow; a long holder wraps, each of its lines starting with the row's CPU.
     *
     * @param directory a reservations directory
     * @param usable the CPUs named in the heading line
     * @param width the width in characters ({@link Width#of}); {@link Width#NONE} for one line per row
     * @return the table
     * @throws ReservationException when the directory exists but cannot be used
     */
    public static String dumpOf(Path directory, CpuMask usable, int width) {
        return HoldingsText.of(directory, usable, width);
    }
}
