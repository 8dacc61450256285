package dev.corescope.sys;

import dev.corescope.sys.ffi.LibC;
import dev.corescope.sys.ffi.perf_event_attr;
import dev.corescope.sys.internal.Libc;
import dev.corescope.sys.internal.NativeCalls;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Software and hardware event counters of the calling thread through {@code perf_event_open(2)}
 * (through {@code syscall}: glibc has no wrapper), read with {@code read(2)}: what {@code perf stat}
 * shows, around one measured run.
 *
 * <p>{@link #start} opens one counter per {@link Event} with {@code pid = 0, cpu = -1} and
 * {@code inherit = 1}: the calling thread and every thread and process it creates <em>after</em>
 * {@code start}, not the JVM's JIT and GC threads. An inherited child's counts reach the parent's
 * counter when the child exits, so {@link Session#stop()} comes after the run has joined its
 * threads and reaped its processes.
 *
 * <p>Counters are opened one by one, not as a group, so one that cannot be opened (no PMU, as
 * under most hypervisors) is reported as not available with its errno while the others count.
 * Where {@code perf_event_paranoid} forbids counting kernel work, a counter is opened again with
 * {@code exclude_kernel} and says so; a multiplexed count is scaled by
 * {@code time_enabled / time_running} and says so too.
 *
 * <p><b>Note:</b> a {@link Session} counts the thread that called {@link #start}; it may be
 * stopped from any thread.
 */
public final class PerfCounters {

    /** {@code struct perf_event_attr}'s flag bits, in the 64-bit word jextract leaves as padding. */
    private static final long FLAGS_OFFSET = 40;
    private static final long FLAG_INHERIT = 1L << 1;
    private static final long FLAG_EXCLUDE_KERNEL = 1L << 5;
    private static final long FLAG_EXCLUDE_HV = 1L << 6;

    /** {@code PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING}: value, enabled, running. */
    private static final long READ_FORMAT = 1 | 2;
    private static final int READ_BYTES = 3 * 8;

    /** {@code syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags)}, every vararg as a C long. */
    private static final MethodHandle PERF_EVENT_OPEN = Libc.withErrnoVariadic(
            LibC.syscall.address(),
            LibC.syscall.makeInvoker(LibC.C_POINTER, LibC.C_LONG, LibC.C_LONG, LibC.C_LONG, LibC.C_LONG).descriptor(),
            1);
    private static final MethodHandle READ = Libc.withErrno(LibC.read$address(), LibC.read$descriptor());
    private static final MethodHandle CLOSE = Libc.withErrno(LibC.close$address(), LibC.close$descriptor());

    /** The events corescope counts, with {@code perf stat}'s names. */
    public enum Event {
        /** CPU time of the counted threads, in nanoseconds (software: always available). */
        TASK_CLOCK("task-clock", "ns", false, LibC.PERF_COUNT_SW_TASK_CLOCK()),
        /** Times a counted thread was switched out (software). */
        CONTEXT_SWITCHES("context-switches", "count", false, LibC.PERF_COUNT_SW_CONTEXT_SWITCHES()),
        /** Times a counted thread moved to another CPU (software): 0 for a pinned thread. */
        CPU_MIGRATIONS("cpu-migrations", "count", false, LibC.PERF_COUNT_SW_CPU_MIGRATIONS()),
        /** Page faults, minor and major (software). */
        PAGE_FAULTS("page-faults", "count", false, LibC.PERF_COUNT_SW_PAGE_FAULTS()),
        /** CPU cycles (hardware: needs a PMU; most virtual machines have none). */
        CYCLES("cycles", "count", true, LibC.PERF_COUNT_HW_CPU_CYCLES()),
        /** Instructions retired (hardware). */
        INSTRUCTIONS("instructions", "count", true, LibC.PERF_COUNT_HW_INSTRUCTIONS()),
        /** Last-level cache misses as the PMU defines them (hardware). */
        CACHE_MISSES("cache-misses", "count", true, LibC.PERF_COUNT_HW_CACHE_MISSES());

        private final String perfName;
        private final String unit;
        private final boolean hardware;
        private final int config;

        Event(String perfName, String unit, boolean hardware, int config) {
            this.perfName = perfName;
            this.unit = unit;
            this.hardware = hardware;
            this.config = config;
        }

        /** {@return the name {@code perf stat -e} uses, e.g. {@code cpu-migrations}} */
        public String perfName() {
            return perfName;
        }

        /** {@return the unit of its count: {@code ns} for task-clock, {@code count} for the rest} */
        public String unit() {
            return unit;
        }

        /** {@return whether it needs a PMU ({@code PERF_TYPE_HARDWARE}): true for cycles, instructions and cache misses} */
        public boolean hardware() {
            return hardware;
        }

        int type() {
            return hardware ? LibC.PERF_TYPE_HARDWARE() : LibC.PERF_TYPE_SOFTWARE();
        }
    }

    /**
     * One event's count over a session.
     *
     * @param event          what was counted
     * @param value          the count (scaled if multiplexed); null when not available
     * @param runningPercent share of the enabled time the counter was on the PMU, 100 unless multiplexed
     * @param userOnly       opened with {@code exclude_kernel} because the kernel refused more
     * @param unavailable    why there is no value, e.g. {@code perf_event_open(cycles) failed: ENOENT (2)}; null when there is one
     */
    public record Count(Event event, Long value, double runningPercent, boolean userOnly, String unavailable) {
        /** {@return whether there is a count: {@link #value()} is not null} */
        public boolean available() {
            return value != null;
        }
    }

    private PerfCounters() {
    }

    /** A set of open counters on the thread that called {@link #start}. */
    public static final class Session implements AutoCloseable {
        private final List<Event> events;
        private final Opened[] opened;
        private final long[][] baseline;
        private boolean closed;

        private Session(List<Event> events) {
            this.events = List.copyOf(events);
            this.opened = new Opened[events.size()];
            this.baseline = new long[events.size()][];
        }

        /**
         * Reads every counter, closes them and returns the counts since {@link #start}. Call it
         * after the counted work has joined its threads and reaped its processes (their counts
         * are added when they exit).
         *
         * @return one count per event, in the order they were asked for
         * @throws IllegalStateException when already stopped
         * @throws NativeException when a counter cannot be read
         */
        public synchronized List<Count> stop() {
            if (closed) throw new IllegalStateException("counters already stopped");
            List<Count> counts = new ArrayList<>();
            try {
                for (int i = 0; i < opened.length; i++) counts.add(count(events.get(i), opened[i], baseline[i]));
            } finally {
                close();
            }
            return counts;
        }

        private static Count count(Event e, Opened o, long[] start) {
            if (o.fd < 0) return new Count(e, null, 0, false, o.reason);
            long[] end = readCounter(o.fd, e);
            long value = end[0] - start[0];
            long enabled = end[1] - start[1];
            long running = end[2] - start[2];
            if (running == 0 && enabled > 0) {
                return new Count(e, null, 0, o.userOnly, e.perfName + " was never scheduled on the PMU (running time 0 of " + enabled + " ns)");
            }
            double share = enabled == 0 ? 1.0 : (double) running / enabled;
            long scaled = share < 1.0 ? Math.round(value / share) : value;
            return new Count(e, scaled, Math.min(100.0, share * 100.0), o.userOnly, null);
        }

        /** Closes the counters without reading them (idempotent). */
        @Override
        public synchronized void close() {
            if (closed) return;
            closed = true;
            for (Opened o : opened) if (o != null && o.fd >= 0) closeFd(o.fd);
        }
    }

    /**
     * Opens a counter for each of {@code events} on the calling thread, inherited by the
     * threads and processes it creates from now on, and reads their starting values. Events
     * that cannot be opened come back from {@link Session#stop()} as not available.
     *
     * @param events the events, in the order the counts come back
     * @return the open session; stop or close it (it holds one file descriptor per event)
     * @throws NativeException when a counter opened but its starting value cannot be read
     */
    public static Session start(List<Event> events) {
        Session s = new Session(events);
        try {
            for (int i = 0; i < events.size(); i++) {
                Opened o = s.opened[i] = open(events.get(i), true);
                if (o.fd >= 0) s.baseline[i] = readCounter(o.fd, events.get(i));
            }
        } catch (RuntimeException ex) {
            s.close();
            throw ex;
        }
        return s;
    }

    /** {@return {@link #start(List)} of every {@link Event}: the open session; stop or close it} */
    public static Session start() {
        return start(List.of(Event.values()));
    }

    /**
     * {@return null when this machine counts hardware events for this process (a cycles counter
     * opens), else one line saying why not} It gives the errno of {@code perf_event_open}, and
     * whether any PMU is listed under {@code /sys/bus/event_source/devices}.
     */
    public static String hardwareUnavailableReason() {
        Opened o = open(Event.CYCLES, false);
        if (o.fd >= 0) {
            closeFd(o.fd);
            return null;
        }
        return o.reason;
    }

    private record Opened(int fd, boolean userOnly, String reason) {
    }

    private static Opened open(Event e, boolean inherit) {
        long flags = inherit ? FLAG_INHERIT : 0;
        long rc = perfEventOpen(e, flags);
        int errno = (int) -rc;
        if (rc < 0 && (errno == Errno.EACCES.number() || errno == Errno.EPERM.number())) {
            long userFlags = flags | FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_HV;
            long retry = perfEventOpen(e, userFlags);
            if (retry >= 0) return new Opened((int) retry, true, null);
        }
        if (rc >= 0) return new Opened((int) rc, false, null);
        Errno err = Errno.of(errno);
        String why = NativeException.message("perf_event_open", e.perfName, errno);
        if (e.hardware && (err == Errno.ENOENT || err == Errno.EOPNOTSUPP || err == Errno.ENODEV)) {
            why += ": no hardware performance counters (PMU) " + pmuNote();
        } else if (err == Errno.EACCES || err == Errno.EPERM) {
            why += ": not permitted (kernel.perf_event_paranoid=" + paranoid() + ")";
        } else if (err == Errno.ENOSYS) {
            why += ": the kernel has no perf events";
        }
        return new Opened(-1, false, why);
    }

    /** The new fd, or {@code -errno}. */
    private static long perfEventOpen(Event e, long flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(perf_event_attr.layout());
            perf_event_attr.type(attr, e.type());
            perf_event_attr.size(attr, (int) perf_event_attr.sizeof());
            perf_event_attr.config(attr, e.config);
            perf_event_attr.read_format(attr, READ_FORMAT);
            attr.set(ValueLayout.JAVA_LONG, FLAGS_OFFSET, flags);
            MemorySegment state = Libc.callState(arena);
            long rc = (long) PERF_EVENT_OPEN.invokeExact(state, (long) LibC.SYS_perf_event_open(), attr,
                    0L, -1L, -1L, 0L);
            return rc == -1 ? -Libc.errno(state) : rc;
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    private static long[] readCounter(int fd, Event e) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(READ_BYTES, 8);
            MemorySegment state = Libc.callState(arena);
            long n = (long) READ.invokeExact(state, fd, buf, (long) READ_BYTES);
            Libc.check(n, state, "read", "perf_event fd=" + fd + " (" + e.perfName + ")");
            if (n != READ_BYTES) {
                throw new IllegalStateException("read(perf_event fd=" + fd + ") returned " + n + " bytes, expected " + READ_BYTES);
            }
            return buf.toArray(ValueLayout.JAVA_LONG);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    private static void closeFd(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Libc.callState(arena);
            int rc = (int) CLOSE.invokeExact(state, fd);
            Libc.check(rc, state, "close", "perf_event fd=" + fd);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    private static String pmuNote() {
        Path devices = Path.of("/sys/bus/event_source/devices");
        if (Files.isDirectory(devices.resolve("cpu")) || Files.isDirectory(devices.resolve("cpu_core"))) {
            return "(a cpu PMU is listed in " + devices + " but refused this event)";
        }
        return "(none listed in " + devices + "; usual under a hypervisor)";
    }

    private static String paranoid() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip();
        } catch (IOException | RuntimeException ex) {
            return "unreadable";
        }
    }
}
