package dev.corescope.cli;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.jitter.Quiet;
import dev.corescope.sys.internal.Os;
import dev.corescope.text.Shorten;
import dev.corescope.topology.Topology;


/**
 * {@code --cpus quiet} and {@code --cpus quiet:N}: the quietest usable CPUs (the start mask plus the
 * isolated and nohz_full CPUs the cpuset allows, {@code Topology.usable()}), measured by the jitter probe.
 */
final class QuietCpus {

    private QuietCpus() {
    }

    static CpuMask choose(String value) {
        int n = 1;
        if (value.startsWith("quiet:")) {
            String digits = value.substring("quiet:".length());
            if (!digits.matches("[0-9]{1,7}")) {
                throw new UsageException("--cpus " + Shorten.end(value, 43) + ": quiet:N takes a number of CPUs, e.g. quiet:2");
            }
            n = Integer.parseInt(digits);
        }
        CpuMask candidates;
        try {
            candidates = Topology.live().usable();
        } catch (RuntimeException e) {
            candidates = Os.live().processAllowed();
        }
        if (n < 1 || n > candidates.weight()) {
            throw new UsageException("--cpus " + value + ": between 1 and " + candidates.weight() + " CPUs can be chosen from " + candidates.toList());
        }
        try {
            Quiet.Choice c = Quiet.choose(candidates, n, line -> { });
            System.err.println("corescope: --cpus " + value + ": CPU" + (n == 1 ? " " : "s ") + c.cpus().toList()
                    + " (quietest first of " + candidates.toList() + ": " + c.evidence().quietest() + "; "
                    + Quiet.CHOOSE_SECONDS + " s each; ./run.sh jitter for the evidence)");
            return c.cpus();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("--cpus " + value + ": interrupted while measuring");
        }
    }
}
