package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Width;
import dev.corescope.topology.CpuSelector;
import dev.corescope.topology.Topology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Reserves CPUs across threads, processes and users: a CPU reserved here is given to no other
 * corescope user on the machine (more exactly: of the same directory), in this process or
 * another, until the {@link Reservation} is closed or its process ends. Like OpenHFT's
 * {@code AffinityLock}, without its limits: any CPU number (masks beyond 1024 CPUs),
 * reservations of other processes seen, whole cores with every SMT sibling, and nothing left
 * behind by a killed holder.
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
 * so a cgroup's hidden CPUs are never offered) that fit the strategy, the free one first in the
 * order of {@link CpuPreference} (the kernel's hints, or {@link #preferring preferring(QUIET)}).
 * A whole core is offered only if every one of its online CPUs is usable.
 *
 * <p>Where reservations live: one lock file per CPU ({@code cpu-<n>.lock}, mode 0444, never
 * written) in {@code /tmp/corescope-reservations} (made like {@code /tmp}: mode 1777, sticky),
 * or the directory named by {@code -Dcorescope.reservations.dir} or
 * {@code CORESCOPE_RESERVATIONS_DIR}. A reservation is an {@code flock(2)} on a read-only
 * descriptor of the CPU's file, which the kernel drops when the holder dies. Only lock files of
 * root or of the directory's owner are trusted; a directory or file that cannot be trusted
 * fails with a {@link ReservationException} that says why and what to do, or makes its CPU
 * unusable ({@link #dump()} shows why): never a silent unreserved CPU. docs/library.md ("What
 * it does", "Shared machines") has the rules and what nobody can prevent.
 *
 * <p><b>Note:</b> thread-safe. A failed reservation throws {@link ReservationException} with
 * the reason (what was asked, which CPUs are usable, who holds them); it never hands out a CPU
 * it could not lock.
 */
public final class Reservations {

    /** {@code -Dcorescope.reservations.cpus=LIST}: the CPUs {@link #shared()} may hand out (OpenHFT's {@code affinity.reserved}). */
    public static final String CPUS_PROPERTY = "corescope.reservations.cpus";

    private static volatile Reservations shared;

    private final LockTable table;
    private final Topology topology;
    private final CpuMask usable;
    private final CpuOrder preference;
    private final Path procRoot;
    /** The usable CPUs in preference order and the candidates of each strategy: what is tried, before anything is locked. */
    private final CpuChoice choice;

    private Reservations(LockTable table, Topology topology, CpuMask usable, Path procRoot, CpuOrder preference) {
        this.table = table;
        this.topology = topology;
        int nbits = Math.max(usable.nbits(), topology.nbits());
        this.usable = usable.resize(nbits).and(topology.online().resize(nbits));
        this.procRoot = procRoot;
        this.preference = preference != null ? preference : CpuOrder.of(topology, procRoot);
        this.choice = new CpuChoice(topology, this.usable, this.preference.order(this.usable));
    }

    /**
     * {@return the process's reservations, the same object on every call} This machine: the live
     * topology, the CPUs this process may use, and the default (or configured) directory.
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
                    shared = r = new Reservations(LockTable.of(LockDirectory.configured()), t, configuredCpus(t, t.usable()), Path.of("/"), null);
                }
            }
        }
        return r;
    }

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
     * {@return the directory {@link #shared()} uses, read from the property and environment on each call}
     * That is {@code -Dcorescope.reservations.dir}, else {@code CORESCOPE_RESERVATIONS_DIR}, else
     * {@code /tmp/corescope-reservations}. Nothing is created or opened.
     */
    public static Path configuredDirectory() {
        return LockDirectory.configured();
    }

    /**
     * {@return new reservations in {@code directory} over {@code topology} (live or saved), choosing
     * only among {@code usable}} For tests, tools that plan for another machine, and a process
     * that wants a directory of its own; cheap to keep: make one per directory and share it.
     *
     * @param directory the lock files' directory, created if missing (mode 1777 for the default
     *        shared one, else 0700)
     * @param topology what "core", "same L3" and the kernel hints mean, not null
     * @param usable the CPUs to choose from (e.g. {@code ThreadAffinity.pinnable()} to include
     *        isolated CPUs); only its online CPUs are offered
     * @throws ReservationException when the directory cannot be used
     */
    public static Reservations of(Path directory, Topology topology, CpuMask usable) {
        return new Reservations(LockTable.of(directory), topology, usable, Path.of(topology.source()), null);
    }

    /**
     * {@return new reservations sharing this one's directory, locks, topology and usable CPUs,
     * offering free CPUs in the order {@code p} says} {@link CpuPreference#QUIET} measures now,
     * for {@link Quietness#WINDOW 200 ms}. The default is {@link CpuPreference#KERNEL_HINTS}.
     *
     * @param p the order, not null
     */
    public Reservations preferring(CpuPreference p) {
        return p == CpuPreference.QUIET ? preferQuiet(Quietness.WINDOW)
                : new Reservations(table, topology, usable, procRoot, preference.quiet(null));
    }

    /**
     * {@return new reservations sharing this one's directory and locks, preferring the CPUs
     * disturbed least in {@code window}} That is {@link CpuPreference#QUIET} (after the isolated
     * CPUs). The calling thread sleeps for the window.
     *
     * @param window how long to watch the CPUs' interrupts and steal, e.g. 200 ms
     */
    public Reservations preferQuiet(Duration window) {
        return new Reservations(table, topology, usable, procRoot, preference.quiet(Quietness.measure(procRoot, window)));
    }

    /** {@return the order free CPUs are offered in, never null} */
    public CpuPreference preference() {
        return preference.quietness() == null ? CpuPreference.KERNEL_HINTS : CpuPreference.QUIET;
    }

    /** {@return a new array of the usable CPUs in the order they are offered (when all are free and no strategy narrows them)} */
    public int[] preferenceOrder() {
        return choice.order.clone();
    }

    /** {@return the directory of the lock files, its real path (symbolic links of the parents resolved)} */
    public Path directory() {
        return table.directory();
    }

    /** {@return the topology the strategies are judged on: the one given, or the live one for {@link #shared()}} */
    public Topology topology() {
        return topology;
    }

    /** {@return the CPUs reservations choose from, online and allowed: a mask of the topology's bit count} */
    public CpuMask usable() {
        return usable;
    }

    // ---- reserving ---------------------------------------------------------------------

    /**
     * {@return a reservation described in words, without waiting} As in configuration files and
     * OpenHFT's {@code AffinityLock.acquireLock(String)}: {@code any} (the most preferred free
     * CPU), {@code core} (a whole core), {@code N} (exactly CPU N), {@code last} or
     * {@code last-N} (the last usable CPU, or the N-th before it), or selectors of
     * {@link CpuSelector} ({@code node:1}, {@code kind:performance}, {@code l3:0,7}): the most
     * preferred free CPU among those.
     *
     * @param spec the description
     * @throws IllegalArgumentException when {@code spec} is none of these (the message lists them)
     * @throws ReservationException as the matching {@code reserve...} method
     * @since 0.2.0
     */
    public Reservation reserve(String spec) {
        String s = spec.strip().toLowerCase(Locale.ROOT);
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
     * {@return exactly {@code cpu}, without waiting: the reservation, to close}
     *
     * @param cpu the CPU number
     * @throws ReservationException when it is held by anyone (this process included), not usable,
     *         or its lock file cannot be used; the message says which
     */
    public Reservation reserveCpu(int cpu) {
        return reserveCpu(cpu, Duration.ZERO);
    }

    /**
     * {@return exactly {@code cpu}, waiting up to {@code timeout} while another holds it} A CPU
     * that cannot be reserved at all fails at once.
     *
     * @param cpu the CPU number
     * @param timeout the longest wait; zero tries once
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @throws ReservationException when it is still held after {@code timeout}, or the wait is interrupted
     */
    public Reservation reserveCpu(int cpu, Duration timeout) {
        CpuMask one = CpuMask.of(Math.max(usable.nbits(), cpu + 1), cpu);
        choice.checkUsable(one);
        return Waiting.until(timeout, () -> Attempt.lock(table, one, false, null), () -> "CPU " + cpu + " is " + LockView.heldBy(table, cpu));
    }

    /**
     * {@return every online hardware thread of {@code cpu}'s core, all or nothing, without waiting}
     *
     * @param cpu any CPU of the core
     * @throws ReservationException when a thread of the core is held or not usable
     */
    public Reservation reserveCoreOf(int cpu) {
        CpuMask core = choice.coreOf(cpu);
        choice.checkUsable(core);
        Reservation r = Attempt.lock(table, core, true, null);
        if (r == null) throw new ReservationException("core " + core.toList() + " is not free: " + LockView.heldList(table, core));
        return r;
    }

    /**
     * {@return the most preferred free CPU (see the class comment)} A CPU whose lock file cannot
     * be used (another user's, a directory or FIFO in its place, unreadable) is skipped; when no
     * CPU is left, the message says why for each.
     *
     * @throws ReservationException when no usable CPU is free
     */
    public Reservation reserveAny() {
        for (int i = 0; i < choice.order.length; i++) {
            try {
                if (table.tryLock(choice.order[i])) return new Reservation(table, choice.single[i], choice.singleList[i], false);
            } catch (ReservationException e) {
                // unusable: skipped here; the search below says why
            }
        }
        return reserve(-1, false, CpuStrategy.ANY);  // none free: the same search, for its message
    }

    /**
     * {@return the most preferred free CPU, waiting up to {@code timeout} for one to be released}
     *
     * @param timeout the longest wait; zero tries once
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @throws ReservationException when none is free after {@code timeout} (or none can ever be:
     *                              at once), or the wait is interrupted
     */
    public Reservation reserveAny(Duration timeout) {
        return reserve(timeout, -1, false, CpuStrategy.ANY);
    }

    /**
     * {@return the most preferred free whole core, every SMT sibling of it, without waiting}
     *
     * @throws ReservationException when no core has all its online CPUs usable and free
     */
    public Reservation reserveWholeCore() {
        return reserveWholeCore(Duration.ZERO);
    }

    /**
     * {@return the most preferred free whole core, waiting up to {@code timeout} for one}
     *
     * @param timeout the longest wait; zero tries once
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @throws ReservationException when none is free after {@code timeout}, or the wait is interrupted
     */
    public Reservation reserveWholeCore(Duration timeout) {
        return reserve(timeout, -1, true, CpuStrategy.ANY);
    }

    /**
     * {@return a free CPU that relates to {@code near}'s first CPU as the first fitting strategy says}
     *
     * @param near a reservation of this process (open), the anchor
     * @param strategies tried in order, e.g. {@code SAME_L3, ANY}; none means {@code ANY}
     * @throws ReservationException when no strategy finds a free usable CPU; the message lists why for each
     */
    public Reservation reserveNear(Reservation near, CpuStrategy... strategies) {
        return reserve(near.cpu(), false, strategies);
    }

    /**
     * {@return a free whole core whose CPUs relate to {@code near}'s first CPU as the first fitting strategy says}
     *
     * @param near a reservation of this process (open), the anchor
     * @param strategies tried in order; none means {@code ANY}
     * @throws ReservationException when no strategy finds a free whole core
     */
    public Reservation reserveWholeCoreNear(Reservation near, CpuStrategy... strategies) {
        return reserve(near.cpu(), true, strategies);
    }

    /**
     * {@return a free CPU (or whole core) relative to CPU {@code anchor}, trying {@code strategies}
     * in order, without waiting}
     *
     * @param anchor the CPU the strategies relate to, or negative for none
     * @param wholeCore true for every SMT sibling of a core, false for one CPU
     * @param strategies tried in order; none means {@code ANY}
     * @throws ReservationException when no strategy finds a free usable CPU (or core)
     */
    public Reservation reserve(int anchor, boolean wholeCore, CpuStrategy... strategies) {
        return reserve(Duration.ZERO, anchor, wholeCore, strategies);
    }

    /**
     * {@return {@link #reserve(int, boolean, CpuStrategy...)}, waiting up to {@code timeout} while
     * every fitting CPU is held by someone} Fails at once when none could ever be reserved (none
     * fits, or every fitting one is unusable).
     *
     * @param timeout the longest wait; zero tries once
     * @param anchor the CPU the strategies relate to, or negative for none
     * @param wholeCore true for every SMT sibling of a core, false for one CPU
     * @param strategies tried in order; none means {@code ANY}
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @throws ReservationException when nothing fits after {@code timeout}, or the wait is interrupted
     */
    public Reservation reserve(Duration timeout, int anchor, boolean wholeCore, CpuStrategy... strategies) {
        String head = "no free " + (wholeCore ? "whole core" : "CPU");
        Attempt[] last = new Attempt[1];
        return Waiting.until(timeout, () -> {
            Attempt at = last[0] = new Attempt(table, choice);
            Reservation r = at.first(anchor, wholeCore, strategies);
            if (r == null && !at.sawHeld()) throw at.failure(head, wholeCore);  // waiting cannot help
            return r;
        }, () -> last[0].failure(head, wholeCore).getMessage());
    }

    /**
     * {@return {@code n} reservations for {@code n} cooperating threads, the first one first; close
     * each} A first CPU, and {@code n - 1} more that each relate to the first as {@code strategy}
     * says (two SMT siblings, four cores on one L3, ...). First CPUs are tried in preference order
     * until a whole group is free; all or nothing.
     *
     * @param n how many CPUs, at least 1
     * @param strategy how each of the others relates to the first
     * @throws ReservationException when no first CPU has {@code n - 1} free partners
     */
    public List<Reservation> reserveGroup(int n, CpuStrategy strategy) {
        if (n < 1) throw new IllegalArgumentException("a group needs at least 1 CPU, not " + n);
        Attempt at = new Attempt(table, choice);
        List<Reservation> group = at.group(n, strategy);
        if (group != null) return group;
        throw at.failure("no free group of " + n + (n == 1 ? " CPU" : " CPUs")
                + (n > 1 ? " (each after the first being " + strategy.describe(0).replace("CPU 0", "the first") + ")" : ""), false);
    }

    // ---- who holds what: read by LockView, printed by HoldingsText ---------------------

    /**
     * {@return every lock file in the directory, by CPU, in a new list; reads {@code /proc/locks} once}
     * Each is held (by whom, and which thread for this process), stale (held for a thread that
     * has ended), free, unknown (no {@code /proc/locks}), or unusable (why); also every holder of
     * a lock file removed while held, and files that are no corescope lock file ({@code cpu} -1,
     * state {@code foreign}).
     */
    public List<Holding> holdings() {
        return LockView.holdings(directory(), table);
    }

    /**
     * {@return the holdings of {@code directory}, by CPU; empty for a missing directory} Read
     * without creating or locking anything: what {@code corescope reservations} shows.
     *
     * @param directory a reservations directory, not null
     * @throws ReservationException when it exists but cannot be used (a symbolic link, not a directory, ...)
     */
    public static List<Holding> holdingsIn(Path directory) {
        return LockView.holdings(directory, LockTable.existing(directory));
    }

    /**
     * {@return {@link #holdingsIn(Path)} with a {@code free} entry for each of {@code usable} that
     * has no lock file yet (when the directory exists), in CPU order}
     *
     * @param directory a reservations directory
     * @param usable the CPUs a reservation could take
     * @throws ReservationException when the directory exists but cannot be used
     */
    public static List<Holding> holdingsIn(Path directory, CpuMask usable) {
        return HoldingsText.withFree(directory, usable);
    }

    /**
     * {@return the holdings as text, one line per lock file, ending in a newline} Like OpenHFT's
     * {@code AffinityLock.dumpLocks()}:
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
     */
    public String dump() {
        return HoldingsText.document(directory(), usable, holdings(), true).render(Width.NONE);
    }

    /**
     * {@return {@link #dump()} for {@link #holdingsIn(Path)}: nothing is created or locked}
     *
     * @param directory a reservations directory
     * @param usable the CPUs named in the heading line
     * @throws ReservationException when the directory exists but cannot be used
     */
    public static String dumpOf(Path directory, CpuMask usable) {
        return dumpOf(directory, usable, Width.NONE);
    }

    /**
     * {@return {@link #dumpOf(Path, CpuMask)} laid out at {@code width}} No line is wider where
     * the words allow; a long holder wraps, each of its lines starting with the row's CPU.
     *
     * @param directory a reservations directory
     * @param usable the CPUs named in the heading line
     * @param width the width in characters ({@link Width#of}); {@link Width#NONE} for one line per row
     * @throws ReservationException when the directory exists but cannot be used
     */
    public static String dumpOf(Path directory, CpuMask usable, int width) {
        return HoldingsText.of(directory, usable, width);
    }
}
