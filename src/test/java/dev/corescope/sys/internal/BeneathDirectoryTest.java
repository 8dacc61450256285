package dev.corescope.sys.internal;

import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * How {@link BeneathDirectory} reads a file: in linear time and memory whatever its size,
 * refused from its size when over the cap, and a FIFO or device refused before any byte.
 */
class BeneathDirectoryTest {

    @TempDir
    Path tmp;

    private static void assumeOpenat2() {
        assumeTrue(BeneathDirectory.unavailable().isEmpty(), () -> "openat2 is not available here: " + BeneathDirectory.unavailable().orElse(""));
    }

    /**
     * Reading a 13 MB file of unknown size (a /proc/cpuinfo of 8192 CPUs), in reads of a
     * seq_file page, of the buffer or of mixed sizes, copies each byte fewer than three times
     * in all the array's growths, in a few dozen growths; a file of known size is one array.
     * The old reader grew the array by each read (a copy per 64 KiB: ~1.3 GB for 13 MB).
     */
    @Test
    void aLargeFileIsReadWithABoundedNumberOfCopiesPerByte() {
        long n = 13_300_000L;
        long max = (64L << 20) + 1;
        for (int[] reads : new int[][] {{4096}, {65536}, {65536, 4000, 1, 30000}}) {
            long[] cost = simulate(n, 0, max, reads);
            assertTrue(cost[0] < 3 * n, "bytes copied growing the array, reads " + Arrays.toString(reads) + ": " + cost[0]);
            assertTrue(cost[1] <= 40, "growths: " + cost[1]);
        }
        long[] known = simulate(n, n, max, new int[] {65536});
        assertEquals(1, known[1], "a file whose size is known is read into one array of that size");
        assertEquals(0, known[0]);
    }

    /** {@code BeneathDirectory.readAll}'s growth of its array, read by read: bytes copied by growths, growths. */
    private static long[] simulate(long fileBytes, long size, long max, int[] reads) {
        int length = 0;
        long total = 0;
        long copied = 0;
        long growths = 0;
        for (int i = 0; total < fileBytes; i++) {
            int want = reads[i % reads.length];
            int got = (int) Math.min(want, fileBytes - total);
            boolean last = size > 0 && (total + got >= size || got < want);
            if (total + got > length) {
                copied += total;
                growths++;
                length = BeneathDirectory.capacity(length, (int) (total + got), size, max, last);
                assertTrue(length >= total + got);
            }
            total += got;
        }
        return new long[] {copied, growths};
    }

    @Test
    void aLargeFileReadsBackWhole() throws Exception {
        assumeOpenat2();
        byte[] content = new byte[5_000_000];
        new Random(37).nextBytes(content);
        Files.write(tmp.resolve("big"), content);
        Files.write(tmp.resolve("small"), new byte[] {'7', '\n'});
        try (BeneathDirectory d = BeneathDirectory.open(tmp, false)) {
            BeneathDirectory.File big = d.read("big", 64 << 20);
            assertEquals(BeneathDirectory.Kind.REGULAR, big.kind());
            assertArrayEquals(content, big.bytes());
            assertArrayEquals(new byte[] {'7', '\n'}, d.read("small", 64 << 20).bytes());
            BeneathDirectory.File cut = d.read("big", 1000);
            assertNull(cut.bytes(), "over the cap by its size: not read");
            assertEquals(content.length, cut.size());
        }
    }

    /** A 300 MB sparse file is refused from its size: nothing of it is read. */
    @Test
    void aFileOverTheCapIsRefusedFromItsSize() throws Exception {
        assumeOpenat2();
        try (RandomAccessFile f = new RandomAccessFile(tmp.resolve("cpuinfo").toFile(), "rw")) {
            f.setLength(300L << 20);
        }
        try (BeneathDirectory d = BeneathDirectory.open(tmp, false)) {
            BeneathDirectory.File f = d.read("cpuinfo", 64 << 20);
            assertEquals(BeneathDirectory.Kind.REGULAR, f.kind());
            assertEquals(300L << 20, f.size());
            assertNull(f.bytes());
        }
    }

    /**
     * A FIFO with a writer and data waiting, and the devices {@code null} and {@code zero}, are
     * opened without blocking and refused before any read: their bytes never reach a caller.
     */
    @Test
    void aFifoOrADeviceIsRefusedBeforeAnyByteIsRead() throws Exception {
        assumeOpenat2();
        Path fifo = tmp.resolve("cpuinfo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assumeTrue(mk.waitFor() == 0, "mkfifo failed");
        // O_RDWR opens a FIFO on Linux without waiting for a reader; the data sits in the pipe
        try (RandomAccessFile writer = new RandomAccessFile(fifo.toFile(), "rw");
             BeneathDirectory d = BeneathDirectory.open(tmp, false)) {
            writer.write("model name\t: planted\n".getBytes());
            BeneathDirectory.File f = d.read("cpuinfo", 64 << 20);
            assertEquals(BeneathDirectory.Kind.OTHER, f.kind());
            assertNull(f.bytes());
            assertFalse(d.isDirectory("cpuinfo"));
            assertTrue(d.isDirectory("."));
        }
        try (BeneathDirectory dev = BeneathDirectory.open(Path.of("/dev"), false)) {
            for (String device : new String[] {"null", "zero"}) {
                BeneathDirectory.File f = dev.read(device, 64 << 20);
                assertEquals(BeneathDirectory.Kind.OTHER, f.kind(), device);
                assertNull(f.bytes(), device);
            }
        }
        try (BeneathDirectory d = BeneathDirectory.open(tmp.getParent(), false)) {
            BeneathDirectory.File f = d.read(tmp.getFileName().toString(), 64 << 20);
            assertEquals(BeneathDirectory.Kind.DIRECTORY, f.kind());
            assertNull(f.bytes());
        }
    }

    /**
     * The native calls a read costs (close counted): a small file two and its close, with no
     * stat; a file that fills the buffer one {@code statx} more; a directory test one open and
     * its close; a listing an open, two {@code getdents64} and a close. docs/performance.md quotes these.
     */
    @Test
    void aSmallFileCostsAnOpenAndOneReadAndItsClose() throws Exception {
        assumeOpenat2();
        Files.writeString(tmp.resolve("core_id"), "3\n");
        Files.write(tmp.resolve("cpuinfo"), new byte[100_000]);
        Files.writeString(tmp.resolve("empty"), "");
        try (BeneathDirectory d = BeneathDirectory.open(tmp, false)) {
            long before = d.calls;
            assertArrayEquals(new byte[] {'3', '\n'}, d.read("core_id", 64 << 20).bytes());
            assertEquals(3, d.calls - before, "openat2, pread, close");
            before = d.calls;
            assertEquals(100_000, d.read("cpuinfo", 64 << 20).bytes().length);
            assertEquals(5, d.calls - before, "openat2, pread (full), statx, pread (the rest), close");
            before = d.calls;
            assertEquals(0, d.read("empty", 64 << 20).bytes().length);
            assertEquals(4, d.calls - before, "openat2, pread (empty), statx, close");
            before = d.calls;
            assertTrue(d.isDirectory("."));
            assertFalse(d.isDirectory("core_id"));
            assertEquals(3, d.calls - before, "openat2 and close; openat2 refused with ENOTDIR");
            before = d.calls;
            assertEquals(List.of("core_id", "cpuinfo", "empty"), d.list(".").stream().sorted().toList());
            assertEquals(4, d.calls - before, "openat2, getdents64 twice, close");
        }
    }

    /** The live root reads a procfs file until the kernel returns 0, and whole: seq_file answers a record at a time. */
    @Test
    void aLiveProcFileIsReadToItsEnd() throws Exception {
        assumeOpenat2();
        try (BeneathDirectory root = BeneathDirectory.open(Path.of("/"), false)) {
            String mine = new String(root.read("proc/self/mountinfo", 64 << 20).bytes());
            List<String> theirs = Files.readAllLines(Path.of("/proc/self/mountinfo"));
            assertEquals(theirs.size(), mine.lines().count(), mine);
            assertTrue(mine.endsWith("\n"));
        }
    }

    /** The real-path check reads the same files, and refuses a link out of the directory with EXDEV. */
    @Test
    void theRealPathCheckReadsTheSameAndRefusesALinkOut() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Files.writeString(in.resolve("core_id"), "5\n");
        Files.writeString(tmp.resolve("secret"), "4242\n");
        Files.createSymbolicLink(in.resolve("out"), Path.of("../secret"));
        try (BeneathDirectory d = BeneathDirectory.open(in, true)) {
            assertArrayEquals(new byte[] {'5', '\n'}, d.read("core_id", 64 << 20).bytes());
            NativeException e = assertThrows(NativeException.class, () -> d.read("out", 64 << 20));
            assertEquals(Errno.EXDEV, e.errno());
            assertEquals(List.of("core_id", "out"), d.list(".").stream().sorted().toList());
        }
    }
}
