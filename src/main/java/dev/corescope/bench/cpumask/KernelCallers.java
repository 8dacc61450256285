package dev.corescope.bench.cpumask;

import dev.corescope.sys.tool.ElfSymbolTable;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Seed 000's code size as bloat-o-meter measured it. {@code cpumask_any_but()} is
 * {@code __always_inline}: the patch changes the size of the functions it is inlined into,
 * and the seed's -78 bytes (NR_CPUS=64) and -2 bytes (4096) are totals over those callers.
 * {@code native/kernel/cpumask_callers.c} models the ten functions of the seed's table;
 * {@code native/build.sh} compiles it before and after the patch at both NR_CPUS, once per
 * build of a matrix a kernel is made with (the kernel's x86-64 flags at -O2 and -Os, with
 * ftrace, with frame pointers, and plain -O2), into relocatable objects on the class path
 * ({@code /native/kernel/cpumask_callers_BUILD_NR_old.o}, {@code _new.o}) and lists the compiler
 * and each build's flags in {@code /native/kernel/builds.tsv}; this reads each function's
 * {@code st_size} from the objects' symbol tables, as bloat-o-meter does.
 */
final class KernelCallers {

    /** The functions of the seed's table, in its order at NR_CPUS=64 (largest growth first). */
    static final List<String> CALLERS = List.of("irq_migrate_all_off_this_cpu", "try_to_unmap_one", "try_to_migrate_one",
            "uncore_event_cpu_offline", "calibrate_delay_is_known", "tsc_store_and_check_tsc_adjust", "arch_tlbbatch_flush",
            "tmigr_cpu_offline", "perf_event_exit_cpu_context", "flush_tlb_mm_range");
    /** The NR_CPUS values they are compiled for. */
    static final int[] NR_CPUS = {64, 4096};
    /** The class path resource listing the compiler and the builds. */
    static final String BUILDS = "/native/kernel/builds.tsv";

    private KernelCallers() {
    }

    /** What was read: the compiler and builds, and every function's size per build and NR_CPUS. */
    record Reading(CpumaskModel.CodeSizeBuilds builds, List<CpumaskModel.CallerSize> sizes) {
    }

    /** The class path resource of one object. */
    static String resource(String build, int nrCpus, boolean after) {
        return "/native/kernel/cpumask_callers_" + build + "_" + nrCpus + (after ? "_new" : "_old") + ".o";
    }

    /**
     * Every function's size before and after, per build and NR_CPUS; a reason goes to {@code notes}
     * for whatever could not be read.
     */
    static Reading read(List<String> notes) {
        Optional<CpumaskModel.CodeSizeBuilds> builds = builds(notes);
        List<CpumaskModel.CallerSize> out = new ArrayList<>();
        if (builds.isEmpty()) return new Reading(null, out);
        for (CpumaskModel.BuildFlags build : builds.get().builds()) {
            for (int nrCpus : NR_CPUS) {
                Optional<ElfSymbolTable> before = table(resource(build.name(), nrCpus, false), notes);
                Optional<ElfSymbolTable> after = table(resource(build.name(), nrCpus, true), notes);
                if (before.isEmpty() || after.isEmpty()) continue;
                for (String caller : CALLERS) {
                    Optional<ElfSymbolTable.Symbol> o = before.get().function(caller);
                    Optional<ElfSymbolTable.Symbol> n = after.get().function(caller);
                    if (o.isEmpty() || n.isEmpty()) {
                        notes.add("code size of " + caller + " at NR_CPUS=" + nrCpus + " left out: not a function in "
                                + resource(build.name(), nrCpus, o.isPresent()));
                        continue;
                    }
                    out.add(new CpumaskModel.CallerSize(nrCpus, caller, build.name(), o.get().size(), n.get().size()));
                }
            }
        }
        return new Reading(builds.get(), out);
    }

    /** The compiler and the builds native/build.sh made, from {@value #BUILDS}. */
    private static Optional<CpumaskModel.CodeSizeBuilds> builds(List<String> notes) {
        try (InputStream in = KernelCallers.class.getResourceAsStream(BUILDS)) {
            if (in == null) {
                notes.add("code size left out: " + BUILDS + " is not on the class path (native/build.sh builds it with a C compiler)");
                return Optional.empty();
            }
            String compiler = null;
            List<CpumaskModel.BuildFlags> builds = new ArrayList<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.split("\t", -1);
                if (f.length == 2 && f[0].equals("compiler")) compiler = f[1];
                else if (f.length == 3 && f[0].equals("build")) builds.add(new CpumaskModel.BuildFlags(f[1], f[2]));
            }
            if (builds.isEmpty()) {
                notes.add("code size left out: " + BUILDS + " lists no build (the compiler built none; see the build log)");
                return Optional.empty();
            }
            return Optional.of(new CpumaskModel.CodeSizeBuilds(compiler, builds));
        } catch (IOException e) {
            notes.add("code size left out: " + BUILDS + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<ElfSymbolTable> table(String resource, List<String> notes) {
        try (InputStream in = KernelCallers.class.getResourceAsStream(resource)) {
            if (in == null) {
                notes.add("code size left out: " + resource + " is not on the class path (native/build.sh builds it with a C compiler)");
                return Optional.empty();
            }
            Path tmp = Files.createTempFile("corescope-callers", ".o");
            try {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                return Optional.of(ElfSymbolTable.read(tmp));
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            notes.add("code size left out: " + resource + ": " + e.getMessage());
            return Optional.empty();
        }
    }
}
