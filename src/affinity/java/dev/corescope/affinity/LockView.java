package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Flock;
import dev.corescope.text.Terminal;
import dev.corescope.topology.proc.ProcLocks;
import dev.corescope.topology.proc.ProcPid;
import dev.corescope.topology.proc.SysfsReader;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a reservation directory holds, read without changing anything: no directory or lock
 * file is created, nothing is locked. One {@link Holding} per lock file (held, stale, free,
 * unknown, or unusable and why), one per holder of a lock file that was removed while held
 * (found through {@code /proc/locks} by device and inode and the holder's open descriptors,
 * as far as this user may look), and one per file that is not a corescope lock file.
 *
 * <p>Every string from outside (file names, other processes' names, thread names) is
 * escaped with {@link Terminal#escape}: nothing in a row can start another row or colour it.
 */
final class LockView {

    /**
     * Where the locks and their holders are read: always the running kernel, since the lock
     * files are real even when the topology (and the kernel hints) come from a saved tree.
     */
    static final Path LIVE = Path.of("/");

    /** At most nine digits: larger numbers are no CPU of any machine, and cannot overflow an int. */
    private static final Pattern LOCK_FILE = Pattern.compile("cpu-([0-9]{1,9})\\.lock");
    private static final int MAX_ENTRIES = 1 << 20;

    private LockView() {
    }

    /** The holdings of {@code dir} (empty when it does not exist); {@code table} is this process's, or null. */
    static List<Holding> holdings(Path dir, LockTable table) {
        LockDirectory.Opened d = LockDirectory.inspect(dir);
        if (d == null) return List.of();
        try {
            return holdings(d, table);
        } finally {
            Flock.close(d.fd());
        }
    }

    private static List<Holding> holdings(LockDirectory.Opened d, LockTable table) {
        Path byFd = Path.of("/proc/self/fd/" + d.fd());
        Map<String, Long> locks = ProcLocks.read(new SysfsReader(LIVE)).orElse(null);
        String device = ProcLocks.key(byFd).replaceFirst("[0-9]+$", "");  // "fe:00:"
        Map<Integer, LockTable.Hold> mine = table == null ? Map.of() : table.heldHere();
        Map<String, Integer> files = new HashMap<>();
        List<Holding> out = new ArrayList<>();
        int entries = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(byFd)) {
            for (Path p : ds) {
                if (++entries > MAX_ENTRIES) {
                    out.add(new Holding(-1, "foreign", -1, false, "more than " + MAX_ENTRIES + " files: the rest are not listed"));
                    break;
                }
                String name = p.getFileName().toString();
                Matcher m = LOCK_FILE.matcher(name);
                int cpu = m.matches() ? Integer.parseInt(m.group(1)) : -1;
                if (cpu < 0 || !LockTable.fileName(cpu).equals(name)) {
                    out.add(new Holding(-1, "foreign", -1, false, "not a corescope lock file: " + Terminal.escape(name)));
                    continue;
                }
                out.add(lockFile(cpu, p, d.owner(), locks, mine, files));
            }
        } catch (IOException e) {
            throw new ReservationException("cannot list " + d.path() + ": " + e.getMessage(), e);
        }
        // this process's holds on files that are no longer in the directory
        mine.forEach((cpu, slot) -> {
            if (!cpu.equals(files.get(slot.key()))) {
                out.add(new Holding(cpu, slot.stale() ? "stale" : "held", ProcessHolder.PID, true,
                        holderLine(slot) + " on a removed lock file: the CPU may be held twice"));
            }
        });
        // other processes' locks on this file system that are on no lock file here: removed ones, if this user may see
        if (locks != null && !device.isEmpty()) {
            locks.forEach((key, pid) -> {
                if (key.startsWith(device) && !files.containsKey(key) && pid != ProcessHolder.PID) {
                    int cpu = removedLockFile(pid, key, d.path());
                    if (cpu >= 0) {
                        out.add(new Holding(cpu, "held", pid, false, holderLine(pid) + " on a removed lock file: the CPU may be held twice"));
                    }
                }
            });
        }
        out.sort(Comparator.comparingInt((Holding h) -> h.cpu() < 0 ? Integer.MAX_VALUE : h.cpu()).thenComparing(Holding::holder));
        return out;
    }

    private static Holding lockFile(int cpu, Path file, int dirOwner, Map<String, Long> locks,
                                    Map<Integer, LockTable.Hold> mine, Map<String, Integer> files) {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(file, "unix:mode,uid,nlink,dev,ino", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            return new Holding(cpu, "unusable", -1, false, "cannot read its attributes: " + Terminal.escape(String.valueOf(e.getMessage())));
        }
        int mode = (Integer) a.get("mode");
        String key = ProcLocks.key((Long) a.get("dev"), (Long) a.get("ino"));
        files.put(key, cpu);
        if ((mode & 0170000) == 0120000) return new Holding(cpu, "unusable", -1, false, "a symbolic link, which corescope does not follow");
        String why = LockTable.untrusted(mode, (Integer) a.get("uid"), (Integer) a.get("nlink"), dirOwner);
        if (why != null) return new Holding(cpu, "unusable", -1, false, why);
        if (!Files.isReadable(file)) {
            return new Holding(cpu, "unusable", -1, false, "this user may not read it (mode " + LockDirectory.octal(mode) + ")");
        }
        LockTable.Hold here = mine.get(cpu);
        if (here != null && here.key().equals(key)) {
            return new Holding(cpu, here.stale() ? "stale" : "held", ProcessHolder.PID, true, holderLine(here));
        }
        if (locks == null) return new Holding(cpu, "unknown", -1, false, "");
        Long pid = locks.get(key);
        if (pid == null) return new Holding(cpu, "free", -1, false, "");
        return new Holding(cpu, "held", pid, pid == ProcessHolder.PID, holderLine(pid));
    }

    /**
     * The CPU of the removed lock file {@code key} that process {@code pid} holds open, found
     * through its descriptors ({@code /proc/<pid>/fd}, readable for one's own processes and by
     * root); -1 when it is no lock file of {@code dir} or cannot be seen.
     */
    private static int removedLockFile(long pid, String key, Path dir) {
        Path fds = Path.of("/proc", Long.toString(pid), "fd");
        String prefix = dir + "/cpu-";
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(fds)) {
            int n = 0;
            for (Path fd : ds) {
                if (++n > 65536) break;
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException | RuntimeException e) {
                    continue;
                }
                if (!target.startsWith(prefix) || !target.endsWith(".lock (deleted)")) continue;
                if (!ProcLocks.key(fd).equals(key)) continue;
                Matcher m = LOCK_FILE.matcher(target.substring(dir.toString().length() + 1, target.length() - " (deleted)".length()));
                if (m.matches()) return Integer.parseInt(m.group(1));
            }
        } catch (IOException | RuntimeException e) {
            // another user's process, or gone
        }
        return -1;
    }

    // ---- who holds a refused CPU, for the messages of a reservation that failed ------------

    /** The CPUs of {@code cpus} held now, by this process ({@code table}) or, per {@code /proc/locks}, another. */
    static CpuMask heldAmong(LockTable table, CpuMask cpus) {
        Map<String, Long> locks = ProcLocks.read(new SysfsReader(LIVE)).orElse(null);
        CpuMask.Builder b = CpuMask.builder(cpus.nbits());
        for (int cpu : cpus.toArray()) {
            if (table.heldHere(cpu) != null || (locks != null && locks.containsKey(table.key(cpu)))) b.set(cpu);
        }
        return b.build();
    }

    /** {@code CPU 1 held by ..., CPU 2 held by ...}; {@code /proc/locks} read once. */
    static String heldList(LockTable table, CpuMask cpus) {
        Map<String, Long> locks = ProcLocks.read(new SysfsReader(LIVE)).orElse(null);
        List<String> parts = new ArrayList<>();
        for (int cpu : cpus.toArray()) parts.add("CPU " + cpu + " " + heldBy(table, cpu, locks));
        return String.join(", ", parts);
    }

    /** {@code held by this process (thread main)} or {@code held by pid 4250 (pid=4250 uid=1000 cmd=java)}: escaped. */
    static String heldBy(LockTable table, int cpu) {
        return heldBy(table, cpu, table.heldHere(cpu) != null ? null : ProcLocks.read(new SysfsReader(LIVE)).orElse(null));
    }

    private static String heldBy(LockTable table, int cpu, Map<String, Long> locks) {
        LockTable.Hold here = table.heldHere(cpu);
        if (here != null) {
            return "held by this process (thread " + Terminal.escape(here.thread())
                    + (here.stale() ? ", which has ended without closing the reservation: stale" : "") + ")";
        }
        Long pid = locks == null ? null : locks.get(table.key(cpu));
        if (pid != null) return "held by pid " + pid + " (" + holderLine(pid) + ")";
        return "held by another process";
    }

    /** {@code pid=4242 thread=main since=2026-11-30T23:01:02Z cmd=java}: a hold of this process. */
    static String holderLine(LockTable.Hold here) {
        return "pid=" + ProcessHolder.PID + " thread=" + Terminal.escape(here.thread()).replace(' ', '_')
                + (here.stale() ? " (ended without closing the reservation: stale)" : "")
                + " since=" + Instant.ofEpochMilli(here.sinceMillis()).truncatedTo(ChronoUnit.SECONDS) + " cmd=" + ProcessHolder.COMMAND;
    }

    /** {@code pid=4250 uid=1000 cmd=java}: another process, from {@code /proc/<pid>}; as much as can be read, escaped. */
    static String holderLine(long pid) {
        ProcPid p = ProcPid.read(LIVE, pid);
        StringBuilder sb = new StringBuilder("pid=").append(pid);
        p.uid().ifPresent(u -> sb.append(" uid=").append(Terminal.escape(u)));
        p.command().ifPresent(c -> sb.append(" cmd=").append(Terminal.escape(c)));
        return sb.toString();
    }

    /** This process, looked up once: {@code ProcessHandle.info()} reads several /proc files. */
    static final class ProcessHolder {
        static final long PID = ProcessHandle.current().pid();
        static final String COMMAND = Terminal.escape(ProcessHandle.current().info().command()
                .map(c -> Path.of(c).getFileName().toString()).orElse("?"));

        private ProcessHolder() {
        }
    }
}
