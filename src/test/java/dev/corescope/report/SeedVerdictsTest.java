package dev.corescope.report;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeedVerdictsTest {

    private static Result row(String variant, String impl, double... runMeans) {
        List<Run> runs = new ArrayList<>();
        double sum = 0;
        for (double m : runMeans) {
            runs.add(new Run(m, 10, m * 0.002));
            sum += m;
        }
        return Result.builder().benchmark("cpumask").variant(variant).implementation(impl).metric("op").unit("ns/op")
                .score(sum / runMeans.length).error(sum / runMeans.length * 0.003).samples(10L * runMeans.length).cpus("0").params(Map.of("nrCpus", 64)).runs(runMeans.length > 1 ? runs : null).build();
    }

    private static ResultsFile file(Result... rows) {
        return ResultsFile.builder().results(List.of(rows)).build();
    }

    @Test
    void aQuickTourIsNotResolvedForJavaAndSaysWhy() throws Exception {
        ResultsFile tour = Json.readResults(Path.of("src/test/resources/results/tour-before.json"));
        List<SeedVerdicts.Verdict> v = SeedVerdicts.of(tour);
        assertEquals(List.of("cpumask", "timerbase", "cpupri", "locks"), v.stream().map(SeedVerdicts.Verdict::family).toList());
        SeedVerdicts.Verdict cpumask = v.getFirst();
        assertTrue(cpumask.java().contains("4 configurations: 4 not resolvable"), cpumask.java());
        assertTrue(cpumask.extra().contains("nrCpus=64: 86 -> 89 bytes (+3)"), cpumask.extra());
        String text = SeedVerdicts.text(v, 120);
        assertTrue(text.lines().allMatch(l -> l.length() <= 120), text);
        assertTrue(text.startsWith("Verdicts"), text);
        System.out.println(text);
    }

    @Test
    void forkedRowsGiveAnEffectWithItsInterval() {
        ResultsFile f = file(row("any_but_loop", "java", 10.0, 10.05), row("first_but", "java", 9.0, 9.04),
                row("any_but_loop", "native", 10.0), row("first_but", "native", 10.01));
        SeedVerdicts.Verdict v = SeedVerdicts.of(f).getFirst();
        assertEquals(Comparison.SIGNIFICANT, v.finding(), v.line());
        assertTrue(v.java().matches("first_but against any_but_loop: 10\\.0% faster, 99\\.9% CI [0-9.]+-[0-9.]+% \\(significant\\)"), v.java());
        assertTrue(v.c().contains("no change detectable here") && v.c().contains("interleaved in one process"), v.c());
    }

    @Test
    void withoutForksJavaIsNotResolvableEvenForADoublingButIsForAHundredfoldChange() {
        ResultsFile f = file(row("any_but_loop", "java", 10.0), row("first_but", "java", 5.0));
        SeedVerdicts.Verdict v = SeedVerdicts.of(f).getFirst();
        assertEquals(Comparison.NOT_RESOLVABLE, v.finding(), v.line());
        assertTrue(v.why().contains("within the between-run allowance") && v.why().contains("run bench without --quick"), v.why());
        assertTrue(v.java().matches("first_but against any_but_loop -50\\.0%, 99\\.9% CI -[0-9]+\\.\\.\\+[0-9]+%, not resolvable here"), v.java());

        SeedVerdicts.Verdict big = SeedVerdicts.of(file(row("any_but_loop", "java", 1000.0), row("first_but", "java", 5.0))).getFirst();
        assertEquals(Comparison.SIGNIFICANT, big.finding(), big.line());
        assertTrue(big.java().contains("99.5% faster") && big.java().contains("beyond the between-run allowance"), big.java());
    }
}
