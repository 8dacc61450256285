package dev.corescope.bench;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.bench.c2c.C2cFamily;
import dev.corescope.bench.locks.LocksFamily;
import dev.corescope.report.EnvironmentProbe;
import dev.corescope.report.ResultsFile;
import dev.corescope.topology.Fixtures;
import dev.corescope.topology.Topology;
import dev.corescope.testing.Sources;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One route to the OS: in every package outside {@code sys}, every call of {@code sys.internal.Affinity} and
 * {@code CurrentCpu} goes through the seam {@code Os} ({@code ctx.os()} in a family's
 * {@code run(ctx)}, {@code Os.live()} elsewhere, as OpenHFT's callers go through
 * {@code Affinity}), so that a family can run against a saved machine; the only direct calls are
 * the ones the syscalls family measures.
 */
class OsSeamTest {


    /**
     * The calls that are the measurement (a seam between the timed loop and the call would be
     * measured with it): file -> the calls it makes directly.
     */
    private static final Map<String, Set<String>> MEASURED = Map.of(
            "bench/syscalls/SyscallBenchmark.java", Set.of("Affinity.currentCpuPlain", "Affinity.currentCpuCritical",
                    "Affinity.get", "Affinity.set", "CurrentCpu.forThisThread"),
            "bench/syscalls/SyscallBatches.java", Set.of("Affinity.currentCpu", "Affinity.currentCpuPlain", "Affinity.currentCpuCritical",
                    "Affinity.get", "Affinity.set", "CurrentCpu.forThisThread"));

    /** {@code Affinity.pin(}, {@code Affinity::pin}, {@code sys.internal.CurrentCpu.forThisThread(}; not {@code ThreadAffinity.}. */
    private static final Pattern DIRECT = Pattern.compile("\\b(Affinity|CurrentCpu)\\s*(?:\\.|::)\\s*(\\w+)");

    @Test
    void outsideSysOnlyTheMeasuredSyscallsCallAffinityOrCurrentCpuDirectly() throws IOException {
        Map<String, Set<String>> found = new TreeMap<>();
        for (var source : Sources.files().entrySet()) {
            String file = source.getKey();
            Path p = source.getValue();
            if (file.startsWith("sys/")) continue;
            String code = codeOnly(Files.readString(p));
            Set<String> calls = new TreeSet<>();
            Matcher m = DIRECT.matcher(code);
            while (m.find()) calls.add(m.group(1) + "." + m.group(2));
            if (!calls.isEmpty()) found.put(file, calls);
        }
        Map<String, Set<String>> expected = new TreeMap<>();
        MEASURED.forEach((file, calls) -> expected.put(file, new TreeSet<>(calls)));
        assertEquals(expected, found, "pin, allowed CPUs, nr_cpu_ids and the current CPU go through Os: ctx.os() "
                + "(run(ctx) code) or Os.live(); only the measured syscalls stay direct");
    }

    @Test
    void theSourceRuleSeesCallsAndMethodReferencesButNotCommentsStringsOrImports() {
        String code = codeOnly("""
                import dev.corescope.sys.internal.Affinity;
                /** {@link Affinity#pin} and Affinity.pin(1) in a comment */
                class X { // Affinity.allowed()
                    String s = "Affinity.pin(2)"; char c = '"';
                    Object a = Optional.of(1).map(Affinity::pin);
                    int b = dev.corescope.sys.internal.CurrentCpu . forThisThread().read() + ThreadAffinity.currentCpu();
                }
                """);
        Set<String> calls = new TreeSet<>();
        Matcher m = DIRECT.matcher(code);
        while (m.find()) calls.add(m.group(1) + "." + m.group(2));
        assertEquals(Set.of("Affinity.pin", "CurrentCpu.forThisThread"), calls);
    }

    /**
     * The run(ctx) side: on a saved 128-CPU server whose fake OS does not allow CPU 100, each
     * family that pins in Java before its JMH forks and C twins fails with the fake's refusal, in
     * its one line of the results file. A live pin would name this machine's allowed CPUs instead.
     */
    @Test
    void aFamilyPinnedToACpuTheFakeOsRefusesFailsWithTheFakesOneLine() throws InterruptedException {
        Path root = Fixtures.root("128arm-2pa2n8cluster4co");
        Topology topology = Topology.read(root);
        FakeOs os = new FakeOs(topology.online().andNot(CpuMask.of(topology.nbits(), 100)));
        BenchContext context = new BenchContext(Optional.of(CpuMask.of(topology.nbits(), 100, 101)), RunSize.SMOKE, Progress.NONE,
                os, topology);
        EnvironmentProbe probe = new EnvironmentProbe(root, new EnvironmentProbe.Facts("j", List.of(), os.processAllowed(), null), topology);
        BenchSession session = new BenchSession(List.of(new C2cFamily(), new LocksFamily()), context, probe, BenchSession.Listener.NONE);
        session.run();

        Map<String, String> reasons = new TreeMap<>();
        for (ResultsFile.Failure f : session.resultsFile().failures()) reasons.put(f.benchmark(), f.reason());
        String refused = "CpuNotAllowedException: CPU 100 is not in the allowed set 0-99,101-127";
        assertEquals(Map.of("c2c", refused, "locks", refused), reasons,
                "c2c's ping-pong threads and locks' measuring thread pin through ctx.os()");
    }

    @Test
    void aForkPinsFromItsPropertyThroughTheSeamAndTheReportLineNamesTheSeamsCpus() throws Exception {
        FakeOs os = new FakeOs(CpuMask.parseList("64-127", 128));
        CpuMask cpus = CpuMask.of(128, 100);
        try (var pin = ForkPinning.withProperty(Optional.of(cpus), () -> ForkPinning.pinFromProperty(os))) {
            assertEquals("100", os.allowed().toList(), "the thread is pinned on the fake machine");
            assertEquals(100, os.currentCpu());
        }
        assertEquals("64-127", os.allowed().toList(), "closing the pin puts the fake's mask back");
        assertEquals("unpinned: the scheduler may move the measuring thread between CPUs 64-127 (pin with --cpus)",
                RunSetup.of(os, Optional.empty(), RunSize.SMOKE, Jmh.Settings.SMOKE).pinning());
    }

    /** The source with comments, string and character literals blanked and import lines dropped. */
    static String codeOnly(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                while (i < n && source.charAt(i) != '\n') i++;
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < n && source.charAt(i) != c && source.charAt(i) != '\n') i += source.charAt(i) == '\\' ? 2 : 1;
                i++;
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString().replaceAll("(?m)^\\s*import\\s[^;]*;", "");
    }
}
