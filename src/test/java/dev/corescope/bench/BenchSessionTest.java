package dev.corescope.bench;

import dev.corescope.report.EnvironmentProbe;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.topology.Fixtures;
import dev.corescope.topology.CpuPair;
import dev.corescope.topology.Placements;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The session on a saved 128-CPU Arm server, through a fake OS: no live kernel call decides anything here. */
class BenchSessionTest {

    private static final String SERVER = "128arm-2pa2n8cluster4co";

    private final Path root = Fixtures.root(SERVER);
    private final Topology topology = Topology.read(root);
    private final FakeOs os = new FakeOs(topology.online());
    private final BenchContext context = dev.corescope.testing.BenchContexts.smoke().on(os, topology);

    private BenchSession session(BenchFamily... families) {
        EnvironmentProbe probe = new EnvironmentProbe(root, new EnvironmentProbe.Facts("j", List.of(), os.processAllowed(), null), topology);
        return new BenchSession(List.of(families), context, probe, BenchSession.Listener.NONE);
    }

    @Test
    void familiesChooseTheirPairsFromTheSavedMachineAndPinThroughTheSeam() throws InterruptedException {
        BenchFamily pairs = family("pairs", ctx -> {
            List<Result> results = new ArrayList<>();
            for (CpuPair p : Placements.of(ctx.topology(), ctx.os().processAllowed())) {
                try (var ignored = ctx.os().pin(p.to())) {
                    results.add(Result.builder().benchmark("pairs").variant(p.name()).implementation("java").metric("cpu").unit("cpu")
                            .score(ctx.os().currentCpu()).error(null).samples(1).cpus(p.from() + "," + p.to()).params(Map.of()).build());
                }
            }
            return new FamilyRun("pairs", results, null);
        });
        BenchSession s = session(pairs);
        s.run();
        ResultsFile file = s.resultsFile();

        assertEquals(List.of(), file.failures());
        Result crossPackage = file.results().stream().filter(r -> r.variant().equals("cross-package")).findFirst().orElseThrow();
        assertEquals("0,64", crossPackage.cpus(), "the second package of the saved server starts at CPU 64");
        assertEquals(64.0, crossPackage.score(), "the thread ran where it was pinned");
        assertEquals("0-127", file.environment().online());
        assertTrue(file.counters().getFirst().counters().getFirst().unavailable().contains("the fake OS has no hardware counters"),
                file.counters().toString());
    }

    @Test
    void aFamilyThatLeavesItsThreadPinnedFailsAndTheSessionPutsTheMaskBack() throws InterruptedException {
        BenchFamily leaky = family("leaky", ctx -> {
            ctx.os().pin(100);
            return new FamilyRun("leaky", List.of(), null);
        });
        BenchFamily after = family("after", ctx -> {
            assertEquals(topology.online(), ctx.os().allowed(), "the next family starts with the whole mask");
            return new FamilyRun("after", List.of(), null);
        });
        BenchSession s = session(leaky, after);
        s.run();

        List<ResultsFile.Failure> failures = s.resultsFile().failures();
        assertEquals(1, failures.size(), failures::toString);
        assertEquals("leaky", failures.getFirst().benchmark());
        assertEquals("left its thread pinned to CPUs 100 (corescope put back 0-127); its results were kept", failures.getFirst().reason());
    }

    private interface Body {
        FamilyRun run(BenchContext ctx) throws Exception;
    }

    private static BenchFamily family(String name, Body body) {
        return new BenchFamily() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String summary() {
                return name;
            }

            @Override
            public FamilyRun run(BenchContext ctx) throws Exception {
                return body.run(ctx);
            }
        };
    }
}
