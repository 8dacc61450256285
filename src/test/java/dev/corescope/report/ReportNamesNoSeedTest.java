package dev.corescope.report;

import dev.corescope.testing.SavedRuns;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code report} keeps the rules, the families keep the seeds: no code in the report package (its
 * comments aside) names a family that re-runs a seed, a family's variant, a seed's kernel function or a family's own
 * noise figure. The names come from the registry, the claims and the committed tour's rows.
 */
class ReportNamesNoSeedTest {

    private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void theReportPackageNamesNoSeedVariantOrFamilyThreshold() throws Exception {
        Set<String> names = new TreeSet<>(List.of("cpumask_any_but", "cpumask_first_but", "get_timer_cpu_base", "per_cpu_ptr",
                "lock_timer_base", "cpupri_set", "cpupri_find", "cpupri_vec", "spin_lock", "local_irq_save", "NR_CPUS", "pthread_sigmask"));
        // the families that re-run a seed (c2c re-runs none: report.MachineSummary reads its model by name)
        Set<String> families = new TreeSet<>();
        for (BenchFamily f : Families.all()) if (!f.claims().isEmpty()) families.add(f.name());
        names.addAll(families);
        for (Claim c : Families.claims()) {
            if (c.rows() == null) continue;
            names.add(c.rows().baseline());
            names.add(c.rows().approach());
        }
        for (Result r : SavedRuns.lenient(Path.of("src/test/resources/results/tour-before.json")).results()) names.add(r.variant());
        for (NoiseAllowance a : Families.allowances()) names.add(a.poolKey());
        assertTrue(names.size() > 30, "names to look for: " + names);

        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("src/main/java/dev/corescope/report"))) {
            for (Path p : files.filter(x -> x.toString().endsWith(".java")).sorted().toList()) {
                String code = COMMENTS.matcher(Files.readString(p)).replaceAll(" ");
                code = code.lines().filter(l -> !l.startsWith("import ") && !l.startsWith("package ")).reduce("", (a, b) -> a + "\n" + b);
                for (String n : names) {
                    // a variant that is a plain word (before, after, split) counts as a string of its own only
                    boolean word = n.matches("[a-z]+") && !families.contains(n);
                    Matcher m = Pattern.compile(word ? "\"" + Pattern.quote(n) + "\""
                            : "(?<![A-Za-z0-9_])" + Pattern.quote(n) + "(?![A-Za-z0-9_])").matcher(code);
                    if (m.find()) found.add(p.getFileName() + ": " + n);
                }
            }
        }
        assertEquals(List.of(), found);
    }
}
