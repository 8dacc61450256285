package dev.corescope.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes the sysfs and procfs tree of a big imagined machine the way Linux (v6.x, x86-64)
 * lays it out, for tests and for {@code scripts/scale-bench.sh}: 2 threads per core, CPU
 * {@code n} and {@code n + cores} siblings as the kernel numbers them; L1d, L1i and L2 per
 * core, an L3 per group of cores (a CCX); NUMA nodes with distances; packages. Every file hwloc,
 * lscpu and corescope read is there: {@code cpu/{possible,present,online,offline,kernel_max}},
 * each CPU's {@code topology/} (ids, maps and lists, old names too) and {@code cache/indexN/},
 * {@code node/nodeN/{cpumap,cpulist,distance,meminfo}}, {@code /proc/cpuinfo} and
 * {@code /proc/meminfo}. Masks are printed as the kernel prints them (32-bit hex words, most
 * significant first, as wide as {@code nr_cpu_ids}); a file whose bytes another file already
 * has is a hard link to it, so 8192 CPUs cost tens of MB, not hundreds.
 *
 * <pre>
 *   java -cp target/test-classes dev.corescope.testing.BigTrees OUT CPUS   (CPUS a multiple of 64)
 * </pre>
 */
public final class BigTrees {

    /**
     * A machine's shape.
     *
     * @param packages      sockets
     * @param nodesPerPackage NUMA nodes in each package
     * @param l3PerNode     L3 instances (CCXs) in each node
     * @param coresPerL3    cores sharing one L3
     */
    public record Shape(int packages, int nodesPerPackage, int l3PerNode, int coresPerL3) {
        public int cores() {
            return packages * nodesPerPackage * l3PerNode * coresPerL3;
        }

        public int cpus() {
            return 2 * cores();
        }

        public int nodes() {
            return packages * nodesPerPackage;
        }

        public int l3s() {
            return nodes() * l3PerNode;
        }
    }

    /** The shapes of issue 28's table: 64, 512, 2048 and 8192 CPUs; others scale between them. */
    public static Shape shapeFor(int cpus) {
        if (cpus < 64 || cpus % 64 != 0) throw new IllegalArgumentException("CPUs: a multiple of 64, at least 64: " + cpus);
        return switch (cpus) {
            case 64 -> new Shape(1, 1, 4, 8);
            case 512 -> new Shape(2, 2, 4, 16);
            case 2048 -> new Shape(4, 2, 4, 32);
            case 8192 -> new Shape(8, 2, 4, 64);
            default -> {
                int cores = cpus / 2;
                int perL3 = cores >= 4096 ? 64 : cores >= 1024 ? 32 : cores >= 256 ? 16 : 8;
                int l3s = cores / perL3;
                int pkgs = Math.min(8, Math.max(1, l3s / 8));
                while (l3s % pkgs != 0) pkgs--;
                int nodes = l3s / pkgs >= 2 && (l3s / pkgs) % 2 == 0 ? 2 : 1;
                yield new Shape(pkgs, nodes, l3s / pkgs / nodes, perL3);
            }
        };
    }

    private final Path root;
    private final Shape s;
    private final int n;
    private final Map<String, Path> written = new HashMap<>();

    private BigTrees(Path root, Shape s) {
        this.root = root;
        this.s = s;
        this.n = s.cpus();
    }

    /** Writes the tree of {@code shape} under {@code root} (created); returns {@code root}. */
    public static Path write(Path root, Shape shape) {
        new BigTrees(root, shape).all();
        return root;
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: BigTrees OUT CPUS");
            System.exit(2);
        }
        Shape shape = shapeFor(Integer.parseInt(args[1]));
        write(Path.of(args[0]), shape);
        System.out.println(args[0] + ": " + shape.cpus() + " CPUs, " + shape.cores() + " cores, " + shape.l3s() + " L3, "
                + shape.nodes() + " NUMA nodes, " + shape.packages() + " packages");
    }

    private static final String CPU = "sys/devices/system/cpu";
    private static final String NODE = "sys/devices/system/node";

    /** The core of a CPU: thread 0 of core c is CPU c, thread 1 is CPU c + cores. */
    private int core(int cpu) {
        return cpu % s.cores();
    }

    private int l3Of(int core) {
        return core / s.coresPerL3();
    }

    private int nodeOf(int core) {
        return l3Of(core) / s.l3PerNode();
    }

    private int pkgOf(int core) {
        return nodeOf(core) / s.nodesPerPackage();
    }

    private void all() {
        String range = "0-" + (n - 1);
        file(CPU + "/possible", range);
        file(CPU + "/present", range);
        file(CPU + "/online", range);
        file(CPU + "/offline", "");
        file(CPU + "/kernel_max", String.valueOf(Math.max(8191, n - 1)));
        file(CPU + "/smt/active", "1");
        file(CPU + "/smt/control", "on");
        int coresPerPkg = s.cores() / s.packages();
        for (int cpu = 0; cpu < n; cpu++) {
            int c = core(cpu);
            int pkg = pkgOf(c);
            String d = CPU + "/cpu" + cpu;
            if (cpu > 0) file(d + "/online", "1");
            String t = d + "/topology/";
            file(t + "physical_package_id", String.valueOf(pkg));
            file(t + "die_id", "0");
            file(t + "cluster_id", String.valueOf(c));
            file(t + "core_id", String.valueOf(c % coresPerPkg));
            int[] coreCpus = {c, c + s.cores()};
            masks(t, "core_cpus", coreCpus);
            masks(t, "thread_siblings", coreCpus);
            masks(t, "cluster_cpus", coreCpus);
            int[] pkgCpus = pkgCpus(pkg);
            masks(t, "package_cpus", pkgCpus);
            masks(t, "core_siblings", pkgCpus);
            masks(t, "die_cpus", pkgCpus);
            cache(d, 0, 1, "Data", "48K", 12, 64, coreCpus, c);
            cache(d, 1, 1, "Instruction", "32K", 8, 64, coreCpus, c);
            cache(d, 2, 2, "Unified", "2048K", 16, 64, coreCpus, c);
            cache(d, 3, 3, "Unified", "32768K", 16, 64, l3Cpus(l3Of(c)), l3Of(c));
        }
        file(NODE + "/possible", "0-" + (s.nodes() - 1));
        file(NODE + "/online", "0-" + (s.nodes() - 1));
        file(NODE + "/has_cpu", "0-" + (s.nodes() - 1));
        file(NODE + "/has_normal_memory", "0-" + (s.nodes() - 1));
        long kb = 64L << 20;
        for (int node = 0; node < s.nodes(); node++) {
            String d = NODE + "/node" + node;
            int[] cpus = nodeCpus(node);
            file(d + "/cpumap", hexMap(cpus));
            file(d + "/cpulist", list(cpus));
            StringBuilder dist = new StringBuilder();
            for (int other = 0; other < s.nodes(); other++) {
                int v = other == node ? 10 : other / s.nodesPerPackage() == node / s.nodesPerPackage() ? 12 : 32;
                dist.append(other == 0 ? "" : " ").append(v);
            }
            file(d + "/distance", dist.toString());
            file(d + "/meminfo", "Node " + node + " MemTotal:       " + kb + " kB\nNode " + node + " MemFree:        " + kb / 2 + " kB");
        }
        file("proc/meminfo", "MemTotal:       " + kb * s.nodes() + " kB\nMemFree:        " + kb * s.nodes() / 2 + " kB");
        StringBuilder info = new StringBuilder();
        for (int cpu = 0; cpu < n; cpu++) {
            int c = core(cpu);
            int apic = 2 * c + (cpu >= s.cores() ? 1 : 0);
            // every key arch/x86/kernel/cpu/proc.c prints for an Intel CPU with VMX, in its
            // order, and a Sapphire Rapids server's flags: ~1.6 KB a CPU, as on a real machine
            info.append("processor\t: ").append(cpu).append('\n')
                    .append("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n")
                    .append("model name\t: Intel(R) Xeon(R) Platinum 8480+ (corescope BigTrees)\nstepping\t: 8\n")
                    .append("microcode\t: 0x2b0004b1\ncpu MHz\t\t: 2000.000\ncache size\t: 107520 KB\n")
                    .append("physical id\t: ").append(pkgOf(c)).append('\n')
                    .append("siblings\t: ").append(2 * coresPerPkg).append('\n')
                    .append("core id\t\t: ").append(c % coresPerPkg).append('\n')
                    .append("cpu cores\t: ").append(coresPerPkg).append('\n')
                    .append("apicid\t\t: ").append(apic).append('\n')
                    .append("initial apicid\t: ").append(apic).append('\n')
                    .append(X86_TAIL);
        }
        file("proc/cpuinfo", info.toString().stripTrailing());
    }

    /** What follows the ids in each processor's block of a Sapphire Rapids server's /proc/cpuinfo (Linux 6.x). */
    private static final String X86_TAIL = """
            fpu\t\t: yes
            fpu_exception\t: yes
            cpuid level\t: 32
            wp\t\t: yes
            flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse \
            sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl xtopology \
            nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3 sdbg fma \
            cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm \
            3dnowprefetch cpuid_fault epb cat_l3 cat_l2 cdp_l3 invpcid_single intel_ppin cdp_l2 ssbd mba ibrs ibpb stibp \
            ibrs_enhanced tpr_shadow flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid cqm \
            rdt_a avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb intel_pt avx512cd sha_ni avx512bw avx512vl \
            xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local split_lock_detect avx_vnni \
            avx512_bf16 wbnoinvd dtherm ida arat pln pts hfi vnmi avx512vbmi umip pku ospke waitpkg avx512_vbmi2 gfni vaes \
            vpclmulqdq avx512_vnni avx512_bitalg tme avx512_vpopcntdq la57 rdpid bus_lock_detect cldemote movdiri movdir64b \
            enqcmd fsrm md_clear serialize tsxldtrk pconfig arch_lbr ibt amx_bf16 avx512_fp16 amx_tile amx_int8 flush_l1d \
            arch_capabilities
            vmx flags\t: vnmi preemption_timer posted_intr invvpid ept_x_only ept_ad ept_1gb flexpriority apicv tsc_offset \
            vtpr mtf vapic ept vpid unrestricted_guest vapic_reg vid ple shadow_vmcs pml ept_mode_based_exec tsc_scaling \
            usr_wait_pause notify_vm_exiting ipi_virt
            bugs\t\t: spectre_v1 spectre_v2 spec_store_bypass swapgs eibrs_pbrsb bhi
            bogomips\t: 4000.00
            clflush size\t: 64
            cache_alignment\t: 64
            address sizes\t: 52 bits physical, 57 bits virtual
            power management:

            """;

    private void cache(String cpuDir, int index, int level, String type, String size, int ways, int line, int[] cpus, int id) {
        String p = cpuDir + "/cache/index" + index + "/";
        file(p + "level", String.valueOf(level));
        file(p + "type", type);
        file(p + "size", size);
        file(p + "ways_of_associativity", String.valueOf(ways));
        file(p + "coherency_line_size", String.valueOf(line));
        file(p + "physical_line_partition", "1");
        long bytes = Long.parseLong(size.substring(0, size.length() - 1)) * 1024;
        file(p + "number_of_sets", String.valueOf(bytes / ways / line));
        file(p + "id", String.valueOf(id));
        file(p + "shared_cpu_map", hexMap(cpus));
        file(p + "shared_cpu_list", list(cpus));
    }

    private void masks(String dir, String name, int[] cpus) {
        file(dir + name, hexMap(cpus));
        file(dir + name + "_list", list(cpus));
    }

    private int[] pkgCpus(int pkg) {
        int per = s.cores() / s.packages();
        return twoRanges(pkg * per, per);
    }

    private int[] nodeCpus(int node) {
        int per = s.cores() / s.nodes();
        return twoRanges(node * per, per);
    }

    private int[] l3Cpus(int l3) {
        return twoRanges(l3 * s.coresPerL3(), s.coresPerL3());
    }

    /** Cores {@code from..from+count-1}: their first threads, then their second. */
    private int[] twoRanges(int from, int count) {
        int[] out = new int[2 * count];
        for (int i = 0; i < count; i++) {
            out[i] = from + i;
            out[count + i] = from + i + s.cores();
        }
        return out;
    }

    /** The kernel's cpulist: ranges joined by commas ({@code 0-7,128-135}). */
    static String list(int[] sorted) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sorted.length; ) {
            int j = i;
            while (j + 1 < sorted.length && sorted[j + 1] == sorted[j] + 1) j++;
            if (b.length() > 0) b.append(',');
            b.append(sorted[i]);
            if (j > i) b.append('-').append(sorted[j]);
            i = j + 1;
        }
        return b.toString();
    }

    /** The kernel's cpumap: 32-bit words in hex, most significant first, {@code nr_cpu_ids} wide. */
    private String hexMap(int[] cpus) {
        int words = (n + 31) / 32;
        int[] w = new int[words];
        for (int c : cpus) w[c / 32] |= 1 << (c % 32);
        StringBuilder b = new StringBuilder(words * 9);
        for (int i = words - 1; i >= 0; i--) {
            b.append(String.format("%08x", w[i]));
            if (i > 0) b.append(',');
        }
        return b.toString();
    }

    private void file(String rel, String content) {
        String text = content + "\n";
        Path p = root.resolve(rel);
        try {
            Files.createDirectories(p.getParent());
            Path same = written.get(text);
            if (same != null) {
                try {
                    Files.createLink(p, same);
                    return;
                } catch (FileAlreadyExistsException e) {
                    Files.delete(p);
                    Files.createLink(p, same);
                    return;
                } catch (UnsupportedOperationException | IOException e) {
                    // no hard links here: write the bytes
                }
            }
            Files.writeString(p, text, StandardCharsets.US_ASCII);
            written.putIfAbsent(text, p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
