package dev.corescope.fleet;

import dev.corescope.testing.Tools;
import dev.corescope.topology.Fixtures;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * examples/slurm and examples/kubernetes, run as shipped: the task prolog decides right on saved
 * machines (corescope's real JSON for them, answered by a stub, so the test needs no jar and no
 * Slurm; no jq), a whole-core allocation included, and the DaemonSet keeps its least-privilege
 * settings, writes where node_exporter and nfd-worker read, and can write there as UID 65534.
 */
class FleetExamplesTest {

    @TempDir
    Path tmp;

    private static Path repo() {
        return Path.of(System.getProperty("corescope.basedir", "."));
    }

    /**
     * A corescope that answers {@code topology --format json} as the real one does on the saved
     * machine {@code fixture} for a task bound to {@code allowed} (the live form adds
     * {@code cpus.allowed}), so the test needs no jar and no Slurm.
     */
    private Path stub(String fixture, String allowed) throws Exception {
        String json = TopologyJson.render(Topology.read(Fixtures.root(fixture)));
        String live = json.replaceFirst("(\"present\" : \"[^\"]*\",\n)", "$1    \"allowed\" : \"" + allowed + "\",\n");
        assertTrue(live.contains("\"allowed\" : \"" + allowed + "\""), live);
        Path answer = Files.writeString(tmp.resolve("topology.json"), live);
        Path s = tmp.resolve("corescope");
        Files.writeString(s, """
                #!/bin/sh
                echo "$@" >> %s
                case "$1" in
                  topology) cat %s ;;
                  *) exit 2 ;;
                esac
                """.formatted(tmp.resolve("calls"), answer));
        Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwxr-xr-x"));
        return s;
    }

    /** The prolog, with no jq on the PATH, on {@code fixture}: 16amd64-8n2c has NUMA nodes of 2 CPUs (0-1, 2-3, ...), no SMT. */
    private Tools.Output prolog(String fixture, String allowed, Map<String, String> env) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("CORESCOPE", stub(fixture, allowed).toString());
        all.put("CORESCOPE_STRICT", "1");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        for (String tool : List.of("bash", "awk", "cat", "sed")) {
            Path real = Tools.require(tool, tool);
            Files.createSymbolicLink(bin.resolve(tool), real);
        }
        all.put("PATH", bin.toString());
        Tools.Output o = Tools.run(List.of(Tools.require("bash", "bash").toString(), repo().resolve("examples/slurm/task-prolog.sh").toString()), all, 30);
        assertEquals(List.of("topology --format json"), Files.readAllLines(tmp.resolve("calls")), "one corescope start");
        return o;
    }

    @Test
    void thePrologPassesATaskThatGotWhatItAskedFor() throws Exception {
        Tools.Output o = prolog("16amd64-8n2c", "0-1", Map.of("SLURM_CPUS_PER_TASK", "2", "CORESCOPE_EXPECT_NUMA_NODES", "1"));
        assertEquals(0, o.exitCode(), o.err());
        assertEquals("print corescope: task ? has CPUs 0-1 on NUMA node(s) 0, as asked", o.out().strip());
    }

    @Test
    void thePrologFailsATaskWithTooFewCpus() throws Exception {
        Tools.Output o = prolog("16amd64-8n2c", "0-1", Map.of("SLURM_CPUS_PER_TASK", "4"));
        assertEquals(1, o.exitCode());
        assertTrue(o.err().contains("asked for 4 CPUs (SLURM_CPUS_PER_TASK) but may run on 2: 0-1"), o.err());
    }

    @Test
    void thePrologFailsATaskSpreadOverMoreNumaNodesThanExpected() throws Exception {
        Tools.Output o = prolog("16amd64-8n2c", "2-5", Map.of("SLURM_CPUS_PER_TASK", "4", "CORESCOPE_EXPECT_NUMA_NODES", "1"));
        assertEquals(1, o.exitCode());
        assertTrue(o.err().contains("CPUs 2-5 span NUMA nodes 1,2, more than the 1 expected"), o.err());
    }

    /**
     * A cluster that allocates whole SMT cores: a task asking for 1 CPU gets both threads of a
     * core (16em64t-4s2c2t: core 0 is CPUs 0 and 8). Accepted; two cores for one CPU, or a core's
     * thread beside another core's, are not.
     */
    @Test
    void thePrologAcceptsAWholeCoreForOneCpu() throws Exception {
        Tools.Output o = prolog("16em64t-4s2c2t", "0,8", Map.of("SLURM_CPUS_PER_TASK", "1", "CORESCOPE_EXPECT_NUMA_NODES", "1"));
        assertEquals(0, o.exitCode(), o.err());
        assertEquals("print corescope: task ? has CPUs 0,8 on NUMA node(s) 0, as asked (whole cores: 2 CPUs on 1 core for 1 asked)", o.out().strip());
    }

    @Test
    void thePrologRefusesMoreThanTheWholeCoresNeeded() throws Exception {
        Tools.Output two = prolog("16em64t-4s2c2t", "0,4,8,12", Map.of("SLURM_CPUS_PER_TASK", "1"));
        assertEquals(1, two.exitCode(), two.out());
        assertTrue(two.err().contains("asked for 1 CPUs (SLURM_CPUS_PER_TASK) but may run on 4: 0,4,8,12"), two.err());
    }

    @Test
    void thePrologRefusesHalfCores() throws Exception {
        Tools.Output half = prolog("16em64t-4s2c2t", "0,4", Map.of("SLURM_CPUS_PER_TASK", "1"));
        assertEquals(1, half.exitCode(), half.out());
    }

    @Test
    void theDaemonSetRunsWithLeastPrivilegeAndWritesWhereTheConsumersRead() throws Exception {
        String y = Files.readString(repo().resolve("examples/kubernetes/corescope-daemonset.yaml"));
        for (String must : List.of("readOnlyRootFilesystem: true", "allowPrivilegeEscalation: false", "runAsNonRoot: true",
                "drop: [\"ALL\"]", "privileged: false", "type: RuntimeDefault", "hostPID: false", "hostNetwork: false",
                "automountServiceAccountToken: false",
                "path: /etc/kubernetes/node-feature-discovery/features.d", "path: /var/lib/node_exporter/textfile_collector",
                "export \"$@\" -o /textfile/corescope.prom --nfd-output /features.d/corescope", "-XX:AOTCache=/opt/corescope/corescope.aot",
                "/opt/corescope/prepare-folders.sh\", \"/textfile\", \"/features.d\"", "add: [\"CHOWN\"]")) {
            assertTrue(y.contains(must), "the DaemonSet has " + must);
        }
        assertTrue(!y.contains("privileged: true") && !y.contains("SYS_ADMIN"), "no privilege");
        assertEquals(1, y.split("java ", -1).length - 1, "one JVM start per cycle");
        String docker = Files.readString(repo().resolve("examples/kubernetes/Dockerfile"));
        assertTrue(docker.contains("-XX:AOTCacheOutput=/opt/corescope/corescope.aot"), "the image makes the AOT cache the DaemonSet uses");
    }

    /**
     * The DaemonSet's folders as the kubelet makes them (root-owned, 0755), prepared by the
     * shipped init step, then written as the export container writes them: as UID/GID 65534, a
     * temporary file renamed over the output, in both folders.
     */
    @Test
    void uid65534WritesIntoTheFoldersTheInitStepPrepared() throws Exception {
        assumeTrue("0".equals(Tools.run(List.of("id", "-u"), Map.of(), 10).out().strip()),
                "needs root to make root-owned folders and to run a step as UID 65534");
        Path setpriv = Tools.require("setpriv", "util-linux");
        Path base = Files.createDirectories(tmp.resolve("host"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path textfile = base.resolve("textfile_collector");
        Path features = base.resolve("features.d");
        for (Path d : List.of(textfile, features)) {
            Files.createDirectory(d);
            Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        String write = "for d in \"$@\"; do printf 'x 1\\n' > \"$d/.corescope.tmp\" && mv \"$d/.corescope.tmp\" \"$d/corescope\" || exit 1; done";
        List<String> asNobody = List.of(setpriv.toString(), "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", write, "sh",
                textfile.toString(), features.toString());
        assertTrue(Tools.run(asNobody, Map.of(), 30).exitCode() != 0, "the kubelet's folders are not writable for 65534 (the old DaemonSet's failure)");
        Tools.Output init = Tools.run(List.of("sh", repo().resolve("examples/kubernetes/prepare-folders.sh").toString(),
                textfile.toString(), features.toString()), Map.of(), 30);
        assertEquals(0, init.exitCode(), init.err());
        Tools.Output o = Tools.run(asNobody, Map.of(), 30);
        assertEquals(0, o.exitCode(), o.out() + o.err());
        for (Path d : List.of(textfile, features)) {
            assertEquals(65534, (Integer) Files.getAttribute(d.resolve("corescope"), "unix:uid"));
            assertEquals(0, (Integer) Files.getAttribute(d, "unix:uid"), "the folder stays root's");
        }
    }
}
