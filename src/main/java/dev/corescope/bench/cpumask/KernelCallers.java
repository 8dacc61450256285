package dev.corescope.bench.cpumask;

import dev.corescope.sys.ElfSymbolTable;

import java.io.IOException;
import java.io.InputStream;
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
 * {@code native/kernel/cpumask_callers.c} holds kernel-like callers modelled on four of the
 * functions the seed's table lists, compiled by {@code native/build.sh} with kernel-like flags
 * ({@value #FLAGS}) before and after the patch at both NR_CPUS, into four relocatable objects
 * on the class path ({@code /native/kernel/cpumask_callers_NR_old.o}, {@code _new.o}); this
 * reads each caller's {@code st_size} from their symbol tables, as bloat-o-meter does.
 */
final class KernelCallers {

    /** The flags the callers are compiled with (native/build.sh). */
    static final String FLAGS = "-O2 -fno-pic -mcmodel=kernel -mno-red-zone -fno-asynchronous-unwind-tables";
    /** The callers, in the seed's table's order (largest change first at NR_CPUS=64). */
    static final List<String> CALLERS = List.of("flush_tlb_mm_range", "perf_event_exit_cpu_context", "tmigr_cpu_offline",
            "arch_tlbbatch_flush");
    /** The NR_CPUS values they are compiled for. */
    static final int[] NR_CPUS = {64, 4096};

    private KernelCallers() {
    }

    /** The class path resource of one object. */
    static String resource(int nrCpus, boolean after) {
        return "/native/kernel/cpumask_callers_" + nrCpus + (after ? "_new" : "_old") + ".o";
    }

    /**
     * Every caller's size before and after, per NR_CPUS; a reason goes to {@code notes} for
     * whatever could not be read.
     */
    static List<CpumaskModel.CallerSize> read(List<String> notes) {
        List<CpumaskModel.CallerSize> out = new ArrayList<>();
        for (int nrCpus : NR_CPUS) {
            Optional<ElfSymbolTable> before = table(resource(nrCpus, false), notes);
            Optional<ElfSymbolTable> after = table(resource(nrCpus, true), notes);
            if (before.isEmpty() || after.isEmpty()) continue;
            for (String caller : CALLERS) {
                Optional<ElfSymbolTable.Symbol> o = before.get().function(caller);
                Optional<ElfSymbolTable.Symbol> n = after.get().function(caller);
                if (o.isEmpty() || n.isEmpty()) {
                    notes.add("code size of " + caller + " at NR_CPUS=" + nrCpus + " left out: not a function in "
                            + resource(nrCpus, o.isPresent()));
                    continue;
                }
                out.add(new CpumaskModel.CallerSize(nrCpus, caller, o.get().size(), n.get().size()));
            }
        }
        return out;
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
