package dev.corescope.testing;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.Progress;
import dev.corescope.bench.RunSize;

import java.util.Optional;

/** Contexts for family tests. */
public final class BenchContexts {

    private BenchContexts() {
    }

    /** A smoke-sized run on this machine, unpinned, without progress: proves the code works; its numbers mean nothing. */
    public static BenchContext smoke() {
        return new BenchContext(Optional.empty(), RunSize.SMOKE, Progress.NONE);
    }
}
