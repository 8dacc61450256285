package dev.corescope.cli;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertFalse;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code pin} end to end with real child processes. The children write to files rather than
 * to the inherited stdout, which belongs to the test runner.
 */
class PinCommandTest {

    private CpuMask before;

    @BeforeEach
    void rememberMask() {
        before = Affinity.allowed();
    }

    @AfterEach
    void launchingThreadGetsItsMaskBack() {
        assertEquals(before, Affinity.allowed());
    }

    @Test
    void theCommandRunsOnTheGivenCpuAsProcSelfStatusShows(@TempDir Path dir) throws Exception {
        assumeTrue(before.weight() >= 2 && before.test(1), "needs CPUs 0 and 1 allowed; allowed: " + before);
        Path status = dir.resolve("status");
        CliRun r = CliRun.run("pin", "--cpus", "1", "--", "sh", "-c", "cat /proc/self/status > " + status);
        r.succeeded();
        assertEquals("", r.out());
        String line = Files.readAllLines(status).stream().filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow();
        assertEquals("Cpus_allowed_list:\t1", line);
    }

    @Test
    void eachAllowedCpuCanBeChosen(@TempDir Path dir) throws Exception {
        assumeTrue(before.weight() >= 2, "needs at least 2 allowed CPUs; allowed: " + before);
        for (int cpu : before.toArray()) {
            Path out = dir.resolve("cpu" + cpu);
            CliRun.run("pin", "--cpus", String.valueOf(cpu), "--", "sh", "-c",
                    "grep Cpus_allowed_list /proc/self/status > " + out).succeeded();
            assertEquals("Cpus_allowed_list:\t" + cpu, Files.readString(out).strip());
        }
    }

    @Test
    void exitsWithTheCommandsExitCode() {
        assertEquals(7, CliRun.run("pin", "--cpus", String.valueOf(before.first()), "--", "sh", "-c", "exit 7").exitCode());
        assertEquals(1, CliRun.run("pin", "--cpus", String.valueOf(before.first()), "--", "false").exitCode());
        assertEquals(0, CliRun.run("pin", "--cpus", String.valueOf(before.first()), "--", "true").exitCode());
    }

    @Test
    void aCommandKilledBySignalNExitsWith128PlusN() {
        assertEquals(128 + 15, CliRun.run("pin", "--cpus", before.toList(), "--", "sh", "-c", "kill -TERM $$").exitCode());
    }

    @Test
    void optionsAfterTheCommandBelongToTheCommandEvenWithoutDoubleDash() {
        assertEquals(3, CliRun.run("pin", "--cpus", before.toList(), "sh", "-c", "exit 3").exitCode());
    }

    @Test
    void aCommandNotFoundExits127AndOneThatCannotRunExits126AsTasksetDoes(@TempDir Path dir) throws Exception {
        CliRun missing = CliRun.run("pin", "--cpus", before.toList(), "--", "corescope-no-such-command");
        assertEquals(127, missing.exitCode(), missing.err());
        assertEquals("corescope: corescope-no-such-command: cannot run it: No such file or directory\n", missing.err());
        Path plain = Files.writeString(dir.resolve("not-executable.sh"), "echo hi\n");
        CliRun cannot = CliRun.run("pin", "--cpus", before.toList(), "--", plain.toString());
        assertEquals(126, cannot.exitCode(), cannot.err());
        assertTrue(cannot.err().startsWith("corescope: " + plain + ": cannot run it: "), cannot.err());
        assertEquals(126, CliRun.run("pin", "--cpus", before.toList(), "--", dir.toString()).exitCode(), "a folder");
    }

    @Test
        void aMissingCommandExits2() {
        CliRun.run("pin", "--cpus", before.toList(), "--").badInput("missing COMMAND after --");
        CliRun.run("pin", "--cpus", before.toList()).badInput("missing COMMAND after --");
    }

    @Test
    void aCpuOutsideTheAllowedSetExits2NamingIt() {
        int outside = Affinity.nrCpuIds() + 5;
        CliRun.run("pin", "--cpus", String.valueOf(outside), "--", "true")
                .badInput("--cpus " + outside + ": CPU " + outside + " is not in the allowed set " + Affinity.processAllowed().toList());
    }

    @Test
    void aMalformedOrEmptyListExits2() {
        CliRun.run("pin", "--cpus", "3-1", "--", "true").badInput("--cpus 3-1: range start 3 is after its end 1");
        CliRun.run("pin", "--cpus", "x", "--", "true").badInput("--cpus x: expected a number but found 'x'");
        CliRun.run("pin", "--cpus", "", "--", "true").badInput("the set is empty");
        CliRun.run("pin", "--", "true").badInput("--cpus");
    }

    /** {@code --cpus all} is every allowed CPU (the kernel's "all" is every possible CPU, which could never be allowed). */
    @Test
    void allIsEveryAllowedCpu() {
        assertEquals(dev.corescope.sys.internal.Affinity.processAllowed(), BenchCommand.parseCpus("all"));
        CliRun run = CliRun.run("pin", "--cpus", "all", "--", "true");
        assertEquals(0, run.exitCode(), run.err());
    }

    /** {@code @FILE} is an argument, not a file of arguments: {@code mask @/etc/hostname} reads nothing. */
    @Test
    void anAtFileArgumentIsNotExpanded(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path args = tmp.resolve("args");
        java.nio.file.Files.writeString(args, "0-3\n");
        CliRun run = CliRun.run("mask", "@" + args);
        assertEquals(2, run.exitCode(), run.out());
        assertTrue(run.err().contains("'@" + args + "'"), run.err());
        assertFalse(run.out().contains("0-3"), run.out());
    }
}
