package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Cpuid;
import dev.corescope.sys.internal.Os;
import dev.corescope.topology.proc.SysfsReader;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The caches as CPUID describes them, where sysfs has no {@code cpuN/cache/} (VM kernels):
 * Intel's leaf 4 and AMD's (and Hygon's) leaf {@code 0x8000001D}, which give each cache's
 * level, type, ways, partitions, line size, sets and how many logical CPUs share it; the
 * CPUs sharing one are those whose APIC ids (leaf {@code 0xB}, else leaf 1) agree above that
 * many bits, as the kernel's {@code cacheinfo} and hwloc derive it. Older AMD CPUs without
 * {@code 0x8000001D} give L1 and L2 in {@code 0x80000005}/{@code 0x80000006}, per CPU; their L3
 * is left out (which CPUs share it is not in those leaves).
 *
 * <p>Live, each online CPU is asked on a thread pinned to it ({@link Os#pin}); the leaves are
 * kept as text ({@link #FILE}, one line per CPU, leaf and subleaf: {@code cpu leaf subleaf eax
 * ebx ecx edx} in hex) so that {@code capture} saves them and {@code --root} replays them.
 */
final class CpuidCaches {

    /** Where a saved tree keeps the leaves, relative to its root (beside {@code sys/} and {@code proc/}). */
    static final String FILE = "cpuid/leaves";

    private static final int MAX_SUBLEAVES = 16;

    private CpuidCaches() {
    }

    /**
     * The caches of {@code cpus} from CPUID: asked live (and remembered in {@code r}, so that
     * {@code capture} saves the leaves), or read from a saved tree's {@link #FILE}.
     *
     * @return the caches; empty without CPUID or leaves
     */
    static List<Cache> read(SysfsReader r, CpuMask cpus, boolean live) {
        String leaves;
        if (live) {
            leaves = readLive(cpus, Os.live());
            if (!leaves.isEmpty()) r.remember(FILE, leaves.getBytes(StandardCharsets.US_ASCII));
        } else {
            leaves = r.read(FILE).orElse("");
        }
        return leaves.isEmpty() ? List.of() : decode(leaves, cpus);
    }

    /**
     * Asks every CPU of {@code cpus} through CPUID, pinned to each in turn.
     *
     * @return the leaves as {@link #FILE} holds them, or empty text where CPUID is not available
     */
    static String readLive(CpuMask cpus, Os os) {
        if (!Cpuid.available()) return "";
        StringBuilder sb = new StringBuilder();
        for (int cpu : cpus.toArray()) {
            try (Pinning p = os.pin(cpu)) {
                ask(cpu, sb);
            } catch (RuntimeException e) {
                // a CPU this process may not run on: its caches stay unknown
            }
        }
        return sb.toString();
    }

    private static void ask(int cpu, StringBuilder sb) {
        int max = put(sb, cpu, 0, 0).eax();
        put(sb, cpu, 1, 0);
        if (max >= 0xB) put(sb, cpu, 0xB, 0);
        if (max >= 4) {
            for (int i = 0; i < MAX_SUBLEAVES; i++) if ((put(sb, cpu, 4, i).eax() & 0x1F) == 0) break;
        }
        int ext = put(sb, cpu, 0x80000000, 0).eax();
        if (Integer.compareUnsigned(ext, 0x80000001) >= 0) put(sb, cpu, 0x80000001, 0);
        if (Integer.compareUnsigned(ext, 0x80000006) >= 0) {
            put(sb, cpu, 0x80000005, 0);
            put(sb, cpu, 0x80000006, 0);
        }
        if (Integer.compareUnsigned(ext, 0x8000001D) >= 0) {
            for (int i = 0; i < MAX_SUBLEAVES; i++) if ((put(sb, cpu, 0x8000001D, i).eax() & 0x1F) == 0) break;
        }
    }

    private static Cpuid.Regs put(StringBuilder sb, int cpu, int leaf, int sub) {
        Cpuid.Regs r = Cpuid.cpuid(leaf, sub);
        // "%d %x %x %08x %08x %08x %08x\n" without String.format, whose first use loads the locale data
        sb.append(cpu).append(' ').append(Integer.toHexString(leaf)).append(' ').append(Integer.toHexString(sub));
        for (int v : new int[] {r.eax(), r.ebx(), r.ecx(), r.edx()}) sb.append(' ').append(HexFormat.of().toHexDigits(v));
        sb.append('\n');
        return r;
    }

    /**
     * The caches the leaves describe, each instance once, CPUs limited to {@code online}.
     *
     * @param leaves the text of {@link #FILE}
     * @param online the online CPUs
     * @return the caches; empty when the leaves describe none (or are not CPUID leaves)
     */
    static List<Cache> decode(String leaves, CpuMask online) {
        Map<Integer, Map<Long, Cpuid.Regs>> byCpu = new TreeMap<>();
        for (String line : leaves.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 7 || !f[0].matches("\\d{1,7}")) continue;
            try {
                long key = (Long.parseLong(f[1], 16) << 32) | Long.parseLong(f[2], 16);
                byCpu.computeIfAbsent(Integer.parseInt(f[0]), c -> new LinkedHashMap<>()).put(key, new Cpuid.Regs(
                        (int) Long.parseLong(f[3], 16), (int) Long.parseLong(f[4], 16), (int) Long.parseLong(f[5], 16), (int) Long.parseLong(f[6], 16)));
            } catch (NumberFormatException e) {
                // not a leaf line
            }
        }
        Map<List<Object>, CpuMask.Builder> cpusOf = new LinkedHashMap<>();
        Map<List<Object>, Cache> shape = new LinkedHashMap<>();
        for (var e : byCpu.entrySet()) {
            int cpu = e.getKey();
            if (cpu >= online.nbits() || !online.test(cpu)) continue;
            Map<Long, Cpuid.Regs> l = e.getValue();
            Cpuid.Regs zero = l.get(0L);
            if (zero == null) continue;
            String vendor = vendor(zero);
            Cpuid.Regs one = l.get(1L << 32);
            Cpuid.Regs x2 = l.get(0xBL << 32);
            int apic = x2 != null && zero.eax() >= 0xB && x2.ebx() != 0 ? x2.edx() : one == null ? cpu : one.ebx() >>> 24;
            boolean amd = vendor.equals("AuthenticAMD") || vendor.equals("HygonGenuine");
            long leaf = amd ? 0x8000001DL : 4L;
            boolean any = false;
            for (int i = 0; i < MAX_SUBLEAVES; i++) {
                Cpuid.Regs r = l.get((leaf << 32) | i);
                if (r == null || (r.eax() & 0x1F) == 0) break;
                any = true;
                Cache.Type type = switch (r.eax() & 0x1F) {
                    case 1 -> Cache.Type.DATA;
                    case 2 -> Cache.Type.INSTRUCTION;
                    default -> Cache.Type.UNIFIED;
                };
                int level = (r.eax() >>> 5) & 0x7;
                int sharing = ((r.eax() >>> 14) & 0xFFF) + 1;
                int ways = ((r.ebx() >>> 22) & 0x3FF) + 1;
                int partitions = ((r.ebx() >>> 12) & 0x3FF) + 1;
                int line = (r.ebx() & 0xFFF) + 1;
                long sets = Integer.toUnsignedLong(r.ecx()) + 1;
                boolean fullyAssociative = (r.eax() & (1 << 9)) != 0;
                long size = (long) ways * partitions * line * sets;
                int id = apic >>> (32 - Integer.numberOfLeadingZeros(sharing - 1));
                add(cpusOf, shape, List.of(level, type, id, size), new Cache(level, type, size, line, fullyAssociative ? -1 : ways, CpuMask.empty(1)), cpu, online);
            }
            if (!any && amd) legacyAmd(l, cpu, cpusOf, shape, online);
        }
        List<Cache> out = new ArrayList<>();
        for (var e : shape.entrySet()) {
            Cache c = e.getValue();
            out.add(new Cache(c.level(), c.type(), c.sizeBytes(), c.lineSize(), c.ways(), cpusOf.get(e.getKey()).build()));
        }
        return out;
    }

    /** {@code 0x80000005} (L1d in ECX, L1i in EDX) and {@code 0x80000006} (L2 in ECX), private to the CPU. */
    private static void legacyAmd(Map<Long, Cpuid.Regs> l, int cpu, Map<List<Object>, CpuMask.Builder> cpusOf,
                                  Map<List<Object>, Cache> shape, CpuMask online) {
        Cpuid.Regs l1 = l.get(0x80000005L << 32);
        Cpuid.Regs l2 = l.get(0x80000006L << 32);
        if (l1 != null) {
            legacyCache(cpusOf, shape, 1, Cache.Type.DATA, l1.ecx() >>> 24, l1.ecx() & 0xFF, (l1.ecx() >>> 16) & 0xFF, cpu, online);
            legacyCache(cpusOf, shape, 1, Cache.Type.INSTRUCTION, l1.edx() >>> 24, l1.edx() & 0xFF, (l1.edx() >>> 16) & 0xFF, cpu, online);
        }
        if (l2 != null) legacyCache(cpusOf, shape, 2, Cache.Type.UNIFIED, l2.ecx() >>> 16, l2.ecx() & 0xFF, -1, cpu, online);
    }

    /** One cache of the legacy leaves, {@code kib} KiB (none when 0), private to {@code cpu}. */
    private static void legacyCache(Map<List<Object>, CpuMask.Builder> cpusOf, Map<List<Object>, Cache> shape, int level, Cache.Type type,
                                    int kib, int line, int ways, int cpu, CpuMask online) {
        if (kib != 0) add(cpusOf, shape, List.of(level, type, cpu, 0L), new Cache(level, type, (long) kib << 10, line, ways, CpuMask.empty(1)), cpu, online);
    }

    private static void add(Map<List<Object>, CpuMask.Builder> cpusOf, Map<List<Object>, Cache> shape, List<Object> key, Cache c, int cpu, CpuMask online) {
        shape.putIfAbsent(key, c);
        cpusOf.computeIfAbsent(key, k -> CpuMask.builder(online.nbits())).set(cpu);
    }

    private static String vendor(Cpuid.Regs zero) {
        byte[] b = new byte[12];
        int[] words = {zero.ebx(), zero.edx(), zero.ecx()};
        for (int w = 0; w < 3; w++) for (int i = 0; i < 4; i++) b[w * 4 + i] = (byte) (words[w] >>> (8 * i));
        return new String(b, StandardCharsets.US_ASCII);
    }
}
