package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Flock;
import dev.corescope.testing.Approved;
import dev.corescope.testing.OwnThread;
import dev.corescope.testing.Timing;
import dev.corescope.text.Width;
import dev.corescope.topology.Placement;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ReservationsTest {

    @TempDir
    Path tmp;

    /** 2 packages x 2 L3s x 2 cores x 2 threads = 16 CPUs. */
    private MachineTree bigSmt() throws IOException {
        return MachineTree.build(tmp.resolve("tree"), 0, 2, 2, 2, 2);
    }

    private Reservations over(MachineTree m) {
        Topology t = Topology.read(m.root());
        return Reservations.of(tmp.resolve("locks"), t, t.online());
    }

    @Test
    void aCpuIsNotGivenTwiceAndIsFreeAgainAfterClose() throws IOException {
        Reservations r = over(bigSmt());
        Reservation a = r.reserveCpu(5);
        ReservationException e = assertThrows(ReservationException.class, () -> r.reserveCpu(5));
        assertTrue(e.getMessage().contains("CPU 5 is held by this process"), e.getMessage());
        a.close();
        try (Reservation again = r.reserveCpu(5)) {
            assertEquals(5, again.cpu());
        }
    }

    @Test
    void anyAvoidsCpu0AndPrefersIsolatedCpus() throws IOException {
        MachineTree m = bigSmt();
        try (Reservation first = over(m).reserveAny()) {
            assertEquals(1, first.cpu(), "CPU 0 is avoided while others are free");
        }
        m.isolated("12-13");
        try (Reservation iso = over(m).reserveAny()) {
            assertEquals(12, iso.cpu(), "isolcpus first");
        }
    }

    @Test
    void irqHeavyCpusComeLast() throws IOException {
        MachineTree m = MachineTree.build(tmp.resolve("tree"), 0, 1, 1, 4, 1).interrupts(10, 5000, 12, 11);
        Reservations r = over(m);
        List<Integer> order = new ArrayList<>();
        List<Reservation> all = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Reservation x = r.reserveAny();
            all.add(x);
            order.add(x.cpu());
        }
        assertEquals(List.of(2, 3, 0, 1), order, "quiet CPUs by number, then CPU 0 and the IRQ-heavy CPU 1");
        all.forEach(Reservation::close);
    }

    @Test
    void theQuietPreferenceOffersTheLeastDisturbedCpusFirstAfterTheIsolatedOnes() throws IOException {
        MachineTree m = MachineTree.build(tmp.resolve("tree"), 0, 1, 1, 6, 1).isolated("5");
        Topology t = Topology.read(m.root());
        // busy ticks and interrupts since boot, before and after the window
        Quietness.Snapshot before = new Quietness.Snapshot(
                Map.of(0, 100L, 1, 100L, 2, 100L, 3, 100L, 4, 100L, 5, 100L),
                Map.of(0, 10L, 1, 10L, 2, 10L, 3, 10L, 4, 10L, 5, 10L));
        Quietness.Snapshot after = new Quietness.Snapshot(
                Map.of(0, 100L, 1, 115L, 2, 100L, 3, 101L, 4, 100L, 5, 150L),
                Map.of(0, 10L, 1, 10L, 2, 900L, 3, 10L, 4, 40L, 5, 10L));
        CpuOrder quiet = CpuOrder.of(t, m.root()).quiet(Quietness.between(before, after));
        assertEquals(List.of(5, 0, 4, 2, 3, 1), Arrays.stream(quiet.order(t.online())).boxed().toList(),
                "isolated 5 first (busy or not); then no busy tick: 0 (no interrupts), 4 (30), 2 (890); then 3 (1 tick), 1 (15)");
        assertEquals(List.of(5, 1, 2, 3, 4, 0), Arrays.stream(CpuOrder.of(t, m.root()).order(t.online())).boxed().toList(),
                "the kernel hints alone: CPU 0 last");
    }

    @Test
    void procStatBusyTicksLeaveOutIdleAndIowait() throws IOException {
        Path stat = tmp.resolve("proc/stat");
        Files.createDirectories(stat.getParent());
        Files.writeString(stat, """
                cpu  10 0 10 900 5 1 1 0 0 0
                cpu0 4 1 2 400 7 1 0 3 0 0
                cpu1 6 0 8 500 0 0 1 0 0 0
                intr 12345
                """);
        assertEquals(Map.of(0, 11L, 1, 15L), Quietness.read(tmp).busyTicks());
    }

    @Test
    void preferringQuietMeasuresTheLiveMachineAndOffersEveryUsableCpu() throws IOException {
        Topology t = Topology.live();
        Reservations r = Reservations.of(tmp.resolve("locks"), t, t.usable());
        Reservations quiet = r.preferring(CpuPreference.QUIET);
        assertEquals(CpuPreference.KERNEL_HINTS, r.preference());
        assertEquals(CpuPreference.QUIET, quiet.preference());
        List<Reservation> all = new ArrayList<>();
        try {
            for (int i = 0; i < r.usable().weight(); i++) all.add(quiet.reserveAny());
            assertEquals(r.usable(), CpuMask.of(r.usable().nbits(), all.stream().mapToInt(Reservation::cpu).toArray()));
            assertThrows(ReservationException.class, quiet::reserveAny);
        } finally {
            all.forEach(Reservation::close);
        }
    }

    @Test
    void strategiesChooseByWhatTheCpusShare() throws IOException {
        Reservations r = over(bigSmt());
        Topology t = r.topology();
        try (Reservation a = r.reserveCpu(2);
             Reservation sib = r.reserveNear(a, CpuStrategy.SAME_CORE);
             Reservation l3 = r.reserveNear(a, CpuStrategy.SAME_L3);
             Reservation xl3 = r.reserveNear(a, CpuStrategy.OTHER_L3);
             Reservation xpkg = r.reserveNear(a, CpuStrategy.OTHER_PACKAGE)) {
            assertEquals(Placement.SAME_CORE, t.relation(2, sib.cpu()).orElseThrow());
            assertEquals(Placement.SAME_L3, t.relation(2, l3.cpu()).orElseThrow());
            assertEquals(Placement.OTHER_L3, t.relation(2, xl3.cpu()).orElseThrow(), "another L3");
            assertEquals(Placement.OTHER_PACKAGE, t.relation(2, xpkg.cpu()).orElseThrow());
            // the only sibling of 2 is taken: SAME_CORE fails with the reason, the fallback works
            ReservationException e = assertThrows(ReservationException.class, () -> r.reserveNear(a, CpuStrategy.SAME_CORE));
            assertTrue(e.getMessage().contains("an SMT sibling of CPU 2 (all held)"), e.getMessage());
            try (Reservation fallback = r.reserveNear(a, CpuStrategy.SAME_CORE, CpuStrategy.SAME_L3)) {
                assertEquals(Placement.SAME_L3, t.relation(2, fallback.cpu()).orElseThrow());
            }
        }
    }

    @Test
    void wholeCoresTakeEverySiblingAndNeverOverlap() throws IOException {
        Reservations r = over(bigSmt());
        List<Reservation> cores = new ArrayList<>();
        CpuMask union = CpuMask.empty(16);
        while (true) {
            try {
                Reservation c = r.reserveWholeCore();
                assertTrue(c.wholeCore());
                assertEquals(2, c.cpus().weight(), "both SMT threads: " + c);
                assertEquals(Placement.SAME_CORE, r.topology().relation(c.cpus().first(), c.cpus().last()).orElseThrow());
                assertFalse(union.intersects(c.cpus()), c + " overlaps " + union.toList());
                union = union.or(c.cpus());
                cores.add(c);
            } catch (ReservationException e) {
                assertTrue(e.getMessage().startsWith("no free whole core"), e.getMessage());
                break;
            }
        }
        assertEquals(8, cores.size());
        assertEquals(16, union.weight());
        cores.forEach(Reservation::close);
    }

    @Test
    void aCoreWithASiblingOutsideTheAllowedSetIsNotReservedWhole() throws IOException {
        MachineTree m = bigSmt();
        Topology t = Topology.read(m.root());
        Reservations r = Reservations.of(tmp.resolve("locks"), t, CpuMask.parseList("0,2-3", 16));
        try (Reservation core = r.reserveWholeCore()) {
            assertEquals("2-3", core.cpus().toList());
            ReservationException e = assertThrows(ReservationException.class, r::reserveWholeCore);
            assertTrue(e.getMessage().contains("cannot be reserved whole: 0"), e.getMessage());
        }
    }

    @Test
    void oneAllowedCpuReservesOnceAndSaysWhyNotTwice() throws IOException {
        Topology t = Topology.read(bigSmt().root());
        Reservations r = Reservations.of(tmp.resolve("locks"), t, CpuMask.of(16, 7));
        try (Reservation only = r.reserveAny()) {
            assertEquals(7, only.cpu());
            ReservationException e = assertThrows(ReservationException.class, r::reserveAny);
            assertEquals("no free CPU among the usable CPUs 7: tried any CPU (all held); held: CPU 7 held by this process (thread "
                    + Thread.currentThread().getName() + ")", e.getMessage());
            ReservationException outside = assertThrows(ReservationException.class, () -> r.reserveCpu(8));
            assertTrue(outside.getMessage().startsWith("CPU 8 is not among the usable CPUs 7"), outside.getMessage());
        }
    }

    @Test
    void cpuNumbersBeyond1024() throws IOException {
        MachineTree m = MachineTree.build(tmp.resolve("tree"), 1500, 1, 1, 2, 2);
        Reservations r = over(m);
        try (Reservation core = r.reserveWholeCore(); Reservation near = r.reserve(core.cpu(), true, CpuStrategy.SAME_L3)) {
            assertEquals("1500-1501", core.cpus().toList());
            assertEquals("1502-1503", near.cpus().toList());
            assertTrue(Files.exists(r.directory().resolve("cpu-1503.lock")));
            assertTrue(r.dump().contains("1503  held"), r.dump());
        }
    }

    @Test
    void aPlantedSymlinkIsNotFollowed() throws IOException {
        Path victim = tmp.resolve("victim");
        Files.writeString(victim, "precious");
        Path link = tmp.resolve("locks-link");
        Files.createSymbolicLink(link, tmp);
        Topology t = Topology.read(bigSmt().root());
        ReservationException dir = assertThrows(ReservationException.class, () -> Reservations.of(link, t, t.online()));
        assertTrue(dir.getMessage().contains("symbolic link"), dir.getMessage());

        Reservations r = Reservations.of(tmp.resolve("locks"), t, t.online());
        Files.createSymbolicLink(r.directory().resolve("cpu-3.lock"), victim);
        ReservationException file = assertThrows(ReservationException.class, () -> r.reserveCpu(3));
        assertTrue(file.getMessage().contains("cpu-3.lock"), file.getMessage());
        assertEquals("precious", Files.readString(victim), "the symlink's target is untouched");
    }

    @Test
    void aDirectoryOthersMayWriteIsRefused() throws IOException {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Topology t = Topology.read(bigSmt().root());
        ReservationException e = assertThrows(ReservationException.class, () -> Reservations.of(open, t, t.online()));
        assertTrue(e.getMessage().contains("anyone may write into it"), e.getMessage());
        assertTrue(e.getMessage().contains("corescope.reservations.dir"), "says what to do: " + e.getMessage());
    }

    @Test
    void aDirectoryOfAnotherUserIsRefused() throws Exception {
        assumeTrue(LockDirectory.uid() == 0, "needs root to give a directory to another user");
        Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        Files.setAttribute(theirs, "unix:uid", 54321);
        Topology t = Topology.read(bigSmt().root());
        ReservationException e = assertThrows(ReservationException.class, () -> Reservations.of(theirs, t, t.online()));
        assertTrue(e.getMessage().contains("belongs to uid 54321"), e.getMessage());
    }

    /** The machine's own directory: made (or found) like /tmp, 1777 with the sticky bit. */
    @Test
    void theDefaultDirectoryIsOneForEveryUserLikeTmp() throws Exception {
        Path def = Path.of(LockDirectory.DEFAULT);
        if (Files.exists(def, LinkOption.NOFOLLOW_LINKS)) {
            // made before this test: check only what it can tell about a directory someone else set up
            int owner = (Integer) Files.getAttribute(def, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int before = (Integer) Files.getAttribute(def, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            assumeTrue((owner == 0 || owner == LockDirectory.uid()) && LockDirectory.octal(before).equals("1777"),
                    def + " was set up by uid " + owner + " with mode " + LockDirectory.octal(before) + " before this test");
        }
        LockDirectory.Opened d = LockDirectory.open(def);
        int mode = (Integer) Files.getAttribute(def, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        assertEquals("1777", LockDirectory.octal(mode), "sticky and open to every user");
        Flock.close(d.fd());
    }

    @Test
    void aGroupWritableDirectoryNeedsTheStickyBit() throws Exception {
        Path group = Files.createDirectory(tmp.resolve("group"));
        Files.setPosixFilePermissions(group, PosixFilePermissions.fromString("rwxrwx---"));
        Topology t = Topology.read(bigSmt().root());
        ReservationException e = assertThrows(ReservationException.class, () -> Reservations.of(group, t, t.online()));
        assertTrue(e.getMessage().contains("no sticky bit"), e.getMessage());
        chmod("1770", group);
        try (Reservation r = Reservations.of(group, t, t.online()).reserveCpu(3)) {
            assertEquals(3, r.cpu());
        }
    }

    @Test
    void aStickyDirectoryAnyoneMayWriteIsUsedAndItsLockFilesAreReadOnly() throws Exception {
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        chmod("1777", shared);
        Topology t = Topology.read(bigSmt().root());
        try (Reservation r = Reservations.of(shared, t, t.online()).reserveCpu(6)) {
            Path f = shared.resolve("cpu-6.lock");
            assertEquals(0444, (Integer) Files.getAttribute(f, "unix:mode") & 07777, "created 0444 whatever the umask");
            assertEquals(0, Files.size(f), "nothing is ever written into a lock file");
        }
    }

    /**
     * The lock works on a read-only descriptor: a 0444 file is still locked, against another
     * process too. A POSIX lock ({@code FileChannel.lock}) would need a writable descriptor and
     * fail here.
     */
    @Test
    void aReadOnlyLockFileOfSomeoneElseStillLocks() throws Exception {
        MachineTree m = bigSmt();
        Path locks = Files.createDirectory(tmp.resolve("ro"));
        Path f = Files.createFile(locks.resolve("cpu-4.lock"));
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r--r--r--"));
        Topology t = Topology.read(m.root());
        Reservations r = Reservations.of(locks, t, t.online());
        try (Reservation mine = r.reserveCpu(4)) {
            assertEquals(4, mine.cpu());
            Process child = new ProcessBuilder(MachineTree.javaCommand(ReservingChild.class,
                    locks.toString(), m.root().toString(), "cpu", "4")).redirectErrorStream(true).start();
            try {
                List<String> lines = readUntilReady(child);
                assertEquals(2, lines.size(), lines.toString());
                assertTrue(lines.get(0).startsWith("failed CPU 4 is held by pid " + ProcessHandle.current().pid()), lines.get(0));
            } finally {
                child.getOutputStream().close();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            }
        }
        assertEquals("r--r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
    }

    /**
     * Two users, one directory: root makes a sticky 1777 directory and a 0444 lock file in it;
     * a JVM running as {@code nobody} locks that file, and root then cannot reserve the CPU.
     */
    @Test
    void anotherUserLocksAFileRootCreatedAndRootSeesIt() throws Exception {
        assumeTrue(LockDirectory.uid() == 0, "needs root to start a process as another user");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv(1) to drop to user nobody");
        Path base = Files.createTempDirectory(Path.of("/tmp"), "corescope-two-users");
        try {
            chmod("0755", base);
            MachineTree m = MachineTree.build(base.resolve("tree"), 0, 1, 1, 2, 2);
            Path shared = Files.createDirectory(base.resolve("shared"));
            chmod("1777", shared);
            Topology t = Topology.read(m.root());
            Reservations r = Reservations.of(shared, t, t.online());
            r.reserveCpu(2).close();  // root creates cpu-2.lock, 0444
            List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
            cmd.addAll(MachineTree.javaCommand(ReservingChild.class, shared.toString(), m.root().toString(), "cpu", "2"));
            int cp = cmd.indexOf("-cp") + 1;
            cmd.set(cp, readableClassPath(base));
            Process child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            try {
                assertEquals(List.of("held 2", "ready"), readUntilReady(child));
                ReservationException e = assertThrows(ReservationException.class, () -> r.reserveCpu(2));
                assertTrue(e.getMessage().contains("held by pid " + child.pid() + " (pid=" + child.pid() + " uid=65534"), e.getMessage());
                assertEquals(0, (Integer) Files.getAttribute(shared.resolve("cpu-2.lock"), "unix:uid"), "still root's file");
            } finally {
                child.getOutputStream().close();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            }
            try (Reservation again = r.reserveCpu(2)) {
                assertEquals(2, again.cpu());
            }
        } finally {
            new ProcessBuilder("rm", "-rf", base.toString()).start().waitFor();
        }
    }

    /**
     * A class path user {@code nobody} can read wherever the clone is (a 0700 folder, /root):
     * the project's class directories copied into {@code base} (mode 0755), not root's ~/.m2.
     */
    static String readableClassPath(Path base) throws Exception {
        List<String> out = new ArrayList<>();
        int n = 0;
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            // class folders, and the library's jar (build/affinity/target/*.jar once it is packaged)
            if (!e.contains("/target/") || !Files.exists(Path.of(e))) continue;
            Path copy = base.resolve("cp" + n++);
            assertEquals(0, new ProcessBuilder("cp", "-r", e, copy.toString()).inheritIO().start().waitFor());
            assertEquals(0, new ProcessBuilder("chmod", "-R", "a+rX", copy.toString()).inheritIO().start().waitFor());
            out.add(copy.toString());
        }
        return String.join(File.pathSeparator, out);
    }

    /** A command that runs {@code main} as user nobody with a class path it can read (root only). */
    static List<String> asNobody(Path base, Class<?> main, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        cmd.addAll(MachineTree.javaCommand(main, args));
        cmd.set(cmd.indexOf("-cp") + 1, readableClassPath(base));
        return cmd;
    }

    // ---- several users on one machine (issue 23, points 1-5) --------------------------------

    /**
     * A lock file of a user other than root or the directory's owner is not trusted (its owner
     * could remove it while another holds it, and the CPU would be given twice): reserving that
     * CPU says why, reserveAny() skips it, and the dump marks it unusable.
     */
    @Test
    void aLockFileOfAnotherUserIsUnusableAndSkipped() throws Exception {
        assumeTrue(LockDirectory.uid() == 0, "needs root to give a file to another user");
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        chmod("1777", shared);
        Path planted = Files.createFile(shared.resolve("cpu-5.lock"));
        Files.setAttribute(planted, "unix:uid", 54321);
        Topology t = Topology.read(bigSmt().root());
        Reservations r = Reservations.of(shared, t, CpuMask.parseList("5-6", 16));
        ReservationException e = assertThrows(ReservationException.class, () -> r.reserveCpu(5));
        assertTrue(e.getMessage().contains("cpu-5.lock: it belongs to uid 54321"), e.getMessage());
        try (Reservation any = r.reserveAny()) {
            assertEquals(6, any.cpu(), "CPU 5 skipped, not a failure");
            Reservations only5 = Reservations.of(shared, t, CpuMask.of(16, 5));
            ReservationException none = assertThrows(ReservationException.class, only5::reserveAny);
            assertTrue(none.getMessage().contains("unusable: CPU 5: cannot use the lock file " + planted + ": it belongs to uid 54321"), none.getMessage());
            Holding h = r.holdings().stream().filter(x -> x.cpu() == 5).findFirst().orElseThrow();
            assertEquals("unusable", h.state(), h.toString());
            assertTrue(squeezed(r.dump()).contains(" 5 unusable - it belongs to uid 54321"), r.dump());
        }
    }

    /** A directory, FIFO or hard link planted under a CPU's name blocks only that CPU. */
    @Test
    void aPlantedDirectoryFifoOrHardLinkBlocksOnlyItsCpu() throws Exception {
        Topology t = Topology.read(bigSmt().root());
        Reservations r = Reservations.of(tmp.resolve("locks"), t, CpuMask.parseList("1-4", 16));
        Path d = r.directory();
        Files.createDirectory(d.resolve("cpu-1.lock"));
        assertEquals(0, new ProcessBuilder("mkfifo", d.resolve("cpu-2.lock").toString()).inheritIO().start().waitFor());
        Path other = Files.createFile(tmp.resolve("elsewhere"));
        Files.createLink(d.resolve("cpu-3.lock"), other);
        try (Reservation any = r.reserveAny()) {
            assertEquals(4, any.cpu(), "1-3 are skipped");
            ReservationException e = assertThrows(ReservationException.class, r::reserveAny);
            assertTrue(e.getMessage().contains("CPU 1: cannot use the lock file " + d.resolve("cpu-1.lock") + ": it is not a regular file"), e.getMessage());
            assertTrue(e.getMessage().contains("CPU 3: cannot use the lock file " + d.resolve("cpu-3.lock") + ": it has 2 names"), e.getMessage());
            assertTrue(e.getMessage().contains("held: CPU 4 held by this process"), e.getMessage());
        }
        Approved.verify("affinity/planted-files.txt", r.dump().replace(tmp.toString(), "TMP"));
    }

    /**
     * The owner of a directory removes a lock file while a process holds it and another process
     * makes it anew: a third reserver holding a descriptor of the old file must not lock it
     * (the name no longer leads there), and the dump lists both holders.
     */
    @Test
    void aLockFileReplacedWhileHeldIsNotLockedThroughAnOldDescriptorAndBothHoldersAreListed() throws Exception {
        MachineTree m = bigSmt();
        Reservations r = over(m);
        r.reserveCpu(3).close();  // this process now has a descriptor of cpu-3.lock
        Reservation old = r.reserveCpu(4);
        Files.delete(r.directory().resolve("cpu-3.lock"));
        Files.delete(r.directory().resolve("cpu-4.lock"));  // removed while this process holds CPU 4
        List<Process> kids = new ArrayList<>();
        try {
            for (int cpu : new int[]{3, 4}) {
                Process child = new ProcessBuilder(MachineTree.javaCommand(ReservingChild.class,
                        r.directory().toString(), m.root().toString(), "cpu", String.valueOf(cpu))).redirectErrorStream(true).start();
                kids.add(child);
                assertEquals(List.of("held " + cpu, "ready"), readUntilReady(child), "the child makes a new file and locks it");
            }
            ReservationException e = assertThrows(ReservationException.class, () -> r.reserveCpu(3));
            assertTrue(e.getMessage().contains("held by pid " + kids.get(0).pid()), e.getMessage());
            List<Holding> fours = r.holdings().stream().filter(h -> h.cpu() == 4).toList();
            assertEquals(2, fours.size(), "both holders of CPU 4: " + r.dump());
            assertTrue(fours.stream().anyMatch(h -> h.pid() == kids.get(1).pid()), fours.toString());
            assertTrue(fours.stream().anyMatch(h -> h.thisProcess() && h.holder().contains("on a removed lock file")), fours.toString());
        } finally {
            old.close();
            for (Process p : kids) {
                p.getOutputStream().close();
                assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            }
        }
    }

    /**
     * In a directory of root's, an ordinary user makes no lock files (they would be the user's
     * own, and could be removed by that user while another holds them): the CPU is refused with
     * what root should do, and nothing is created.
     */
    @Test
    void anOrdinaryUserMakesNoLockFilesInRootsDirectory() throws Exception {
        assumeTrue(LockDirectory.uid() == 0, "needs root to start a process as another user");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv(1) to drop to user nobody");
        Path base = Files.createTempDirectory(Path.of("/tmp"), "corescope-two-users");
        try {
            chmod("0755", base);
            MachineTree m = MachineTree.build(base.resolve("tree"), 0, 1, 1, 2, 2);
            Path shared = Files.createDirectory(base.resolve("shared"));
            chmod("1777", shared);
            Process child = new ProcessBuilder(asNobody(base, ReservingChild.class, shared.toString(), m.root().toString(), "cpu", "1"))
                    .redirectErrorStream(true).start();
            try {
                List<String> lines = readUntilReady(child);
                assertTrue(lines.get(0).startsWith("failed CPU 1 has no lock file in " + shared), lines.toString());
                assertTrue(lines.get(0).contains("install -m 0444 -o root"), lines.toString());
                assertFalse(Files.exists(shared.resolve("cpu-1.lock")), "nothing created");
            } finally {
                child.getOutputStream().close();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            }
        } finally {
            new ProcessBuilder("rm", "-rf", base.toString()).start().waitFor();
        }
    }

    /** Looking creates nothing: a missing directory stays missing, and holds nothing. */
    @Test
    void lookingAtAMissingDirectoryCreatesNothing() {
        Path missing = tmp.resolve("not-yet");
        assertEquals(List.of(), Reservations.holdingsIn(missing, CpuMask.of(4, 1)));
        Approved.verify("affinity/missing-directory.txt", Reservations.dumpOf(missing, CpuMask.of(4, 1), Width.NONE).replace(tmp.toString(), "TMP"));
        assertFalse(Files.exists(missing));
    }

    /** A name that is no CPU's (too large a number, leading zeros, anything else) is listed as foreign, not parsed. */
    @Test
    void foreignFileNamesAreListedNotParsed() throws Exception {
        Reservations r = over(bigSmt());
        r.reserveCpu(2).close();
        Files.createFile(r.directory().resolve("cpu-99999999999.lock"));
        Files.createFile(r.directory().resolve("cpu-007.lock"));
        Files.createFile(r.directory().resolve("x\u001b[31m\nrow"));
        Approved.verify("affinity/foreign-files.txt", r.dump().replace(tmp.toString(), "TMP"));
    }

    /** A holder named with a newline and an escape sequence writes no row and no colour into the dump or a message. */
    @Test
    void aHoldersProcessNameCannotForgeRows() throws Exception {
        MachineTree m = bigSmt();
        Reservations r = over(m);
        String name = "x\n 1 free \u001b[31m";
        Process child = new ProcessBuilder(MachineTree.javaCommand(ReservingChild.class,
                r.directory().toString(), m.root().toString(), "cpu", "7", name)).redirectErrorStream(true).start();
        try {
            assertEquals(List.of("held 7", "ready"), readUntilReady(child));
            String dump = r.dump();
            assertFalse(dump.contains("\u001b"), dump);
            assertEquals(3, dump.lines().filter(l -> !l.endsWith("no lock file yet")).count(), "a header, the column names and one row: " + dump);
            assertTrue(dump.contains("cmd=x\\n_1_free_\\e[31m"), dump);
            ReservationException e = assertThrows(ReservationException.class, () -> r.reserveCpu(7));
            assertFalse(e.getMessage().contains("\u001b") || e.getMessage().contains("\n"), e.getMessage());
        } finally {
            child.getOutputStream().close();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
    }

    // ---- waiting, stale holds, which thread (issue 24, point 14) ---------------------------

    @Test
    void reserveWaitsUntilTheHolderReleasesOrGivesUp() throws Exception {
        Reservations r = over(bigSmt());
        Reservation held = r.reserveCpu(6);
        ReservationException late = assertThrows(ReservationException.class, () -> r.reserveCpu(6, Duration.ofMillis(30)));
        assertTrue(late.getMessage().contains("CPU 6 is held by this process") && late.getMessage().contains("after waiting 30 ms"), late.getMessage());
        CompletableFuture<Reservation> waiting = CompletableFuture.supplyAsync(
                () -> r.reserveCpu(6, Duration.ofMinutes(5)), OwnThread.EACH);
        held.close();
        try (Reservation got = waiting.get(5, TimeUnit.MINUTES)) {
            assertEquals(6, got.cpu());
        }
        Reservations one = Reservations.of(tmp.resolve("locks"), r.topology(), CpuMask.of(16, 9));
        Reservation nine = one.reserveAny();
        CompletableFuture<Reservation> any = CompletableFuture.supplyAsync(
                () -> one.reserveAny(Duration.ofMinutes(5)), OwnThread.EACH);
        nine.close();
        try (Reservation got = any.get(5, TimeUnit.MINUTES)) {
            assertEquals(9, got.cpu());
        }
    }

    @Test
    void waitingForACpuThatCanNeverBeReservedFailsAtOnce() throws Exception {
        Reservations r = over(bigSmt());
        Files.createDirectory(r.directory().resolve("cpu-9.lock"));
        Reservations one = Reservations.of(tmp.resolve("locks"), r.topology(), CpuMask.of(16, 9));
        ReservationException e = assertThrows(ReservationException.class, () -> one.reserveAny(Duration.ofDays(1)));
        assertTrue(e.getMessage().contains("unusable: CPU 9"), e.getMessage());
        assertFalse(e.getMessage().contains("after waiting"), e.getMessage());
    }

    @Test
    void aReservationWhoseThreadEndedIsReportedStale() throws Exception {
        Reservations r = over(bigSmt());
        Reservation[] leaked = new Reservation[1];
        Thread t = new Thread(() -> leaked[0] = r.reserveCpu(11), "leaky");
        t.start();
        t.join();
        Holding h = r.holdings().stream().filter(x -> x.cpu() == 11).findFirst().orElseThrow();
        assertEquals("stale", h.state(), h.toString());
        assertTrue(h.held());
        assertTrue(h.holder().contains("thread=leaky (ended without closing the reservation: stale)"), h.holder());
        // in this process nothing would ever release it: the next reservation takes it over and names the ended holder
        Reservation taken = r.reserveCpu(11);
        assertEquals("leaky", taken.reclaimedFrom().orElseThrow());
        assertTrue(taken.toString().contains("taken over from ended thread leaky"), taken.toString());
        leaked[0].close();  // a late close of the old reservation releases nothing of the new one
        assertThrows(ReservationException.class, () -> r.reserveCpu(11));
        Holding now = r.holdings().stream().filter(x -> x.cpu() == 11).findFirst().orElseThrow();
        assertEquals("held", now.state(), now.toString());
        taken.close();
        r.reserveCpu(11).close();
    }

    private static void chmod(String mode, Path p) throws Exception {
        assertEquals(0, new ProcessBuilder("chmod", mode, p.toString()).inheritIO().start().waitFor());
    }

    @Test
    void aKilledHoldersCpuIsFreeAgain() throws Exception {
        MachineTree m = bigSmt();
        Reservations r = over(m);
        Process child = new ProcessBuilder(MachineTree.javaCommand(ReservingChild.class,
                r.directory().toString(), m.root().toString(), "cpu", "9")).redirectErrorStream(true).start();
        try {
            List<String> lines = readUntilReady(child);
            assertEquals(List.of("held 9", "ready"), lines);
            ReservationException e = assertThrows(ReservationException.class, () -> r.reserveCpu(9));
            assertTrue(e.getMessage().contains("held by pid " + child.pid()), e.getMessage());
            Holding h = r.holdings().stream().filter(x -> x.cpu() == 9).findFirst().orElseThrow();
            assertEquals(new Holding(9, "held", child.pid(), false, h.holder()), h);
            assertTrue(h.holder().startsWith("pid=" + child.pid() + " "), h.holder());
        } finally {
            child.destroyForcibly();  // SIGKILL: no shutdown hook, no cleanup of its own
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        try (Reservation mine = r.reserveCpu(9)) {
            assertEquals(9, mine.cpu());
        }
    }

    @Test
    void twoJvmsReservingWholeCoresNeverShareACore() throws Exception {
        MachineTree m = MachineTree.build(tmp.resolve("tree"), 0, 1, 2, 3, 2);  // 6 cores, 12 CPUs
        Path locks = over(m).directory();
        List<Process> kids = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                kids.add(new ProcessBuilder(MachineTree.javaCommand(ReservingChild.class,
                        locks.toString(), m.root().toString(), "cores", "3")).redirectErrorStream(true).start());
            }
            CpuMask union = CpuMask.empty(12);
            int cores = 0;
            for (Process p : kids) {
                for (String line : readUntilReady(p)) {
                    if (line.equals("ready")) continue;
                    assertTrue(line.startsWith("held "), "every core reserved: " + line);
                    CpuMask core = CpuMask.parseList(line.substring(5), 12);
                    assertEquals(2, core.weight(), line);
                    assertFalse(union.intersects(core), line + " given twice; already " + union.toList());
                    union = union.or(core);
                    cores++;
                }
            }
            assertEquals(6, cores);
        } finally {
            for (Process p : kids) {
                p.getOutputStream().close();
                if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
            }
        }
    }

    /**
     * Reserving and releasing a CPU allocates the {@link Reservation} and nothing per call (the
     * check after each lock used to read the lock file's attributes through {@code /proc}: about
     * 1.1 KB a pair). Measured in a forked JVM with {@code -Xbatch}, C2 only and warm-up rounds,
     * so the figure does not depend on when the JIT compiles (as ThreadAffinityTest does).
     */
    @Test
    @Timing
    void reserveAndReleaseAllocateLittleMoreThanTheReservation() throws Exception {
        Path locks = Files.createDirectories(tmp.resolve("locks"));
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xbatch", "-XX:-TieredCompilation", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), ReserveAllocationProbe.class.getName(), locks.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the probe did not finish");
        assertEquals(0, p.exitValue(), out);
        assumeTrue(!out.startsWith("unsupported"), out);
        long bytes = Long.parseLong(out.lines().reduce((a, b) -> b).orElseThrow());
        assertTrue(bytes < 20_000L * 128, bytes + " bytes allocated by 20 000 reserve+release pairs (at most 128 each expected)");
    }

    /** The forked JVM of {@link #reserveAndReleaseAllocateLittleMoreThanTheReservation}: prints the bytes the measured round allocated. */
    public static final class ReserveAllocationProbe {
        public static void main(String[] args) {
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            if (!threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled()) {
                System.out.println("unsupported: no per-thread allocation counter");
                return;
            }
            Topology t = Topology.live();
            Reservations r = Reservations.of(Path.of(args[0]), t, t.usable());
            long sum = 0;
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 20_000; i++) sum += reserveOnce(r);
            }
            long id = Thread.currentThread().threadId();
            long start = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < 20_000; i++) sum += reserveOnce(r);
            long used = threads.getThreadAllocatedBytes(id) - start;
            System.out.println("cpu sum " + sum);
            System.out.println(used);
        }

        private static int reserveOnce(Reservations r) {
            try (Reservation x = r.reserveAny()) {
                return x.cpu();
            }
        }
    }

    private static List<String> readUntilReady(Process p) throws IOException {
        List<String> lines = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            lines.add(line);
            if (line.equals("ready")) return lines;
        }
        throw new AssertionError("child ended before it was ready: " + lines);
    }

    /** The dump's cells with the table's padding squeezed to one space: the facts of a row, whatever the column widths. */
    static String squeezed(String dump) {
        return dump.replaceAll(" {2,}", " ");
    }
}
