package dev.corescope.fleet;

import dev.corescope.testing.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * examples/slurm and examples/kubernetes: the task prolog decides right on a two-node machine
 * (corescope answered by a stub, so the test needs no jar and no Slurm), and the DaemonSet keeps
 * its least-privilege settings and writes where node_exporter and nfd-worker read.
 */
class FleetExamplesTest {

    @TempDir
    Path tmp;

    private static Path repo() {
        return Path.of(System.getProperty("corescope.basedir", "."));
    }

    /** A corescope that answers as a task bound to {@code allowed} on a machine with NUMA nodes 0-3 and 4-7. */
    private Path stub(String allowed) throws Exception {
        Path s = tmp.resolve("corescope");
        Files.writeString(s, """
                #!/bin/sh
                case "$1" in
                  affinity) echo '{"pid": 1, "allowed": "%s", "online": "0-7", "currentCpu": 0}' ;;
                  topology) echo '{"numaNodes": [{"id": 0, "cpus": "0-3"}, {"id": 1, "cpus": "4-7"}]}' ;;
                esac
                """.formatted(allowed));
        Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwxr-xr-x"));
        return s;
    }

    private Tools.Output prolog(String allowed, Map<String, String> env) throws Exception {
        Tools.require("jq", "jq");
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("CORESCOPE", stub(allowed).toString());
        all.put("CORESCOPE_STRICT", "1");
        return Tools.run(List.of("bash", repo().resolve("examples/slurm/task-prolog.sh").toString()), all, 30);
    }

    @Test
    void thePrologPassesATaskThatGotWhatItAskedFor() throws Exception {
        Tools.Output o = prolog("0-3", Map.of("SLURM_CPUS_PER_TASK", "4", "CORESCOPE_EXPECT_NUMA_NODES", "1"));
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().startsWith("print corescope: task ? has CPUs 0-3 on NUMA node(s) 0, as asked"), o.out());
    }

    @Test
    void thePrologFailsATaskWithTooFewCpus() throws Exception {
        Tools.Output o = prolog("0-1", Map.of("SLURM_CPUS_PER_TASK", "4"));
        assertEquals(1, o.exitCode());
        assertTrue(o.err().contains("asked for 4 CPUs (SLURM_CPUS_PER_TASK) but may run on 2: 0-1"), o.err());
    }

    @Test
    void thePrologFailsATaskSpreadOverMoreNumaNodesThanExpected() throws Exception {
        Tools.Output o = prolog("2-5", Map.of("SLURM_CPUS_PER_TASK", "4", "CORESCOPE_EXPECT_NUMA_NODES", "1"));
        assertEquals(1, o.exitCode());
        assertTrue(o.err().contains("span NUMA nodes 0,1, more than the 1 expected"), o.err());
    }

    @Test
    void theDaemonSetRunsWithLeastPrivilegeAndWritesWhereTheConsumersRead() throws Exception {
        String y = Files.readString(repo().resolve("examples/kubernetes/corescope-daemonset.yaml"));
        for (String must : List.of("readOnlyRootFilesystem: true", "allowPrivilegeEscalation: false", "runAsNonRoot: true",
                "drop: [\"ALL\"]", "privileged: false", "type: RuntimeDefault", "hostPID: false", "hostNetwork: false",
                "automountServiceAccountToken: false",
                "path: /etc/kubernetes/node-feature-discovery/features.d", "path: /var/lib/node_exporter/textfile_collector",
                "export $results --format prometheus -o /textfile/corescope.prom", "export $results --format nfd -o /features.d/corescope")) {
            assertTrue(y.contains(must), "the DaemonSet has " + must);
        }
        assertTrue(!y.contains("privileged: true") && !y.contains("SYS_ADMIN"), "no privilege");
    }
}
