package dev.corescope.bench.c2c;

import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Core-to-core ping-pong in Java, the method of nviennot/core-to-core-latency: a "pong"
 * thread pinned to one CPU waits for the flag to read PING and flips it to PONG; a "ping"
 * thread pinned to the other waits for PONG and flips it back. Both flips are
 * compare-and-set on one int alone in a 128-byte-aligned off-heap block, so every flip moves
 * the line from one core's cache to the other's. A sample times {@code roundTrips} round
 * trips with {@link System#nanoTime()}; one-way latency is that time / round trips / 2.
 *
 * <p>The spin loops are methods of their own, so the JIT compiles them once ({@link #warmUp})
 * and every pair runs the same compiled code.
 */
final class PingPong {

    private static final VarHandle FLAG = ValueLayout.JAVA_INT.varHandle();
    private static final int PING = 0;
    private static final int PONG = 1;
    /** Written by the caller when it is interrupted: both loops see it as their CAS's witness and stop. */
    private static final int ABORT = -1;
    /** A flag alone on its line and on the adjacent-line-prefetch pair of lines. */
    static final long LINE_BLOCK = 128;

    private PingPong() {
    }

    /**
     * One-way latency samples from {@code pingCpu} to {@code pongCpu}, both threads pinned through
     * {@code os} (the family's {@code ctx.os()}).
     *
     * @throws IllegalStateException when a thread does not run on its CPU after pinning
     */
    static double[] run(Os os, int pingCpu, int pongCpu, int roundTrips, int samples) throws InterruptedException {
        double[] oneWayNs = new double[samples];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(2);
        // Shared by design: the two threads below are the whole point.
        try (Arena arena = Arena.ofShared()) {
            MemorySegment line = arena.allocate(LINE_BLOCK, LINE_BLOCK);
            FLAG.setVolatile(line, 0L, PING);
            Thread pong = Thread.ofPlatform().name("c2c-pong-" + pongCpu).start(() -> {
                try (Pinning p = os.pinChecked(pongCpu)) {
                    if (!startTogether(ready, failure)) return;
                    pongLoop(line, (long) roundTrips * samples);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    ready.countDown();
                }
            });
            Thread ping = Thread.ofPlatform().name("c2c-ping-" + pingCpu).start(() -> {
                try (Pinning p = os.pinChecked(pingCpu)) {
                    if (!startTogether(ready, failure)) return;
                    for (int s = 0; s < samples; s++) {
                        long t0 = System.nanoTime();
                        pingLoop(line, roundTrips);
                        oneWayNs[s] = (System.nanoTime() - t0) / (double) roundTrips / 2.0;
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    ready.countDown();
                }
            });
            try {
                ping.join();
                pong.join();
            } catch (InterruptedException e) {
                FLAG.setVolatile(line, 0L, ABORT);
                ping.join();
                pong.join();
                throw e;
            }
        }
        Throwable t = failure.get();
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        if (t != null) throw new IllegalStateException(t);
        return oneWayNs;
    }

    /** Both threads pinned, or one failed: then neither spins (the other would wait forever). */
    private static boolean startTogether(CountDownLatch ready, AtomicReference<Throwable> failure) throws InterruptedException {
        ready.countDown();
        ready.await();
        return failure.get() == null;
    }

    /**
     * Compiles the spin loops before any pair is measured, both ways round so that each loop
     * has run as a whole method and not only on-stack-replaced: with every CPU spinning, a
     * compiler thread still at work would preempt a pinned thread in the first measured pair.
     */
    static void warmUp(Os os, int pingCpu, int pongCpu) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            run(os, pingCpu, pongCpu, 1000, 100);
            run(os, pongCpu, pingCpu, 1000, 100);
        }
    }

    // The same instruction as the C twin's loop, lock cmpxchg until it succeeds, no pause; the
    // witness it returns also tells the loop when the caller gave up (ABORT).
    private static void pingLoop(MemorySegment line, int roundTrips) {
        for (int i = 0; i < roundTrips; i++) {
            int seen;
            while ((seen = (int) FLAG.compareAndExchange(line, 0L, PONG, PING)) != PONG) {
                if (seen == ABORT) return;
            }
        }
    }

    private static void pongLoop(MemorySegment line, long flips) {
        for (long i = 0; i < flips; i++) {
            int seen;
            while ((seen = (int) FLAG.compareAndExchange(line, 0L, PING, PONG)) != PING) {
                if (seen == ABORT) return;
            }
        }
    }
}
