package dev.corescope.jmh;

import dev.corescope.sys.PerfCounters;
import dev.corescope.sys.Pinning;
import dev.corescope.affinity.ThreadAffinity;
import org.openjdk.jmh.infra.ThreadParams;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor of JMH's benchmark threads in a fork that {@link PinningProfiler} set up: each
 * per-iteration task runs pinned to the CPU of its JMH thread index, with the thread's own
 * {@code perf_event_open} counters around it, and the pin undone when the task ends.
 *
 * <p>JMH binds each worker to a thread index in its first iteration, in arrival order; this
 * executor reads that binding by reflection (JMH 1.2x to 1.37) and lets workers arrive one at a
 * time, so worker k gets index k. Where the reflection does not fit, workers are pinned in
 * arrival order and the results say so.
 */
public final class PinningExecutor extends ThreadPoolExecutor {

    /** The CPU of each JMH thread index, as {@code -Dcorescope.jmh.cpus=2,3}. */
    static final String CPUS = "corescope.jmh.cpus";
    /** {@code false} to skip the counters. */
    static final String COUNTERS = "corescope.jmh.counters";

    /** What each task saw, for {@link PinningProfiler#afterIteration}; drained there. */
    record TaskRecord(int threadIndex, int cpu, int endCpu, Long migrations, Long contextSwitches,
                      String countersRefused, String bindingNote) {
    }

    static final ConcurrentLinkedQueue<TaskRecord> LOG = new ConcurrentLinkedQueue<>();
    static volatile boolean active;

    private final int[] cpus;
    private final boolean counters;
    private final AtomicInteger ordinals = new AtomicInteger();
    private final ThreadLocal<Integer> ordinal = new ThreadLocal<>();

    /**
     * The constructor JMH calls ({@code -Djmh.executor=CUSTOM}, which the profiler sets).
     *
     * @param maxThreads the benchmark's thread count: the pool's fixed size
     * @param prefix the threads' name prefix
     */
    public PinningExecutor(int maxThreads, String prefix) {
        super(maxThreads, maxThreads, 1, TimeUnit.DAYS, new LinkedBlockingQueue<>(), namedThreads(prefix));
        this.cpus = parseCpus(System.getProperty(CPUS, ""));
        this.counters = !"false".equals(System.getProperty(COUNTERS));
        active = cpus.length > 0;
    }

    private static ThreadFactory namedThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-jmh-worker-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    static int[] parseCpus(String list) {
        return list.isBlank() ? new int[0] : Arrays.stream(list.split(",")).mapToInt(p -> Integer.parseInt(p.strip())).toArray();
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> task) {
        return super.newTaskFor(() -> runPinned(task));
    }

    private <T> T runPinned(Callable<T> task) throws Exception {
        if (cpus.length == 0) return task.call();
        Integer mine = ordinal.get();
        if (mine == null) {
            mine = ordinals.getAndIncrement();
            ordinal.set(mine);
        }
        Binding b = Binding.of(task);
        String note = null;
        int index = b == null ? -1 : b.indexOf(Thread.currentThread());
        if (index < 0) {
            // first iteration: JMH binds this worker when its task starts; let the workers before it bind first
            if (b != null && !b.awaitBound(mine)) note = "workers did not bind in order within 10 s; pinned by arrival";
            if (b == null) note = "JMH's thread binding could not be read (JMH version?); pinned by worker arrival order";
            index = mine;
        }
        int cpu = cpus[index % cpus.length];
        PerfCounters.Session s = null;
        T result;
        try (Pinning p = ThreadAffinity.pin(cpu)) {
            if (counters) s = PerfCounters.start(List.of(PerfCounters.Event.CPU_MIGRATIONS, PerfCounters.Event.CONTEXT_SWITCHES));
            try {
                result = task.call();
            } finally {
                int end = ThreadAffinity.currentCpu();
                Long migrations = null;
                Long switches = null;
                String refused = null;
                if (s != null) {
                    for (PerfCounters.Count c : s.stop()) {
                        if (!c.available()) refused = c.unavailable();
                        else if (c.event() == PerfCounters.Event.CPU_MIGRATIONS) migrations = c.value();
                        else switches = c.value();
                    }
                }
                int bound = b == null ? -1 : b.indexOf(Thread.currentThread());
                if (b != null && bound >= 0 && bound != index) {
                    note = "JMH bound this worker to thread index " + bound + ", not " + index;
                }
                LOG.add(new TaskRecord(bound >= 0 ? bound : index, cpu, end, migrations, switches, refused, note));
            }
        }
        return result;
    }

    /** JMH's worker-to-ThreadParams map, reached from its task by reflection. */
    private record Binding(Map<?, ?> workerData, Field params) {

        static Binding of(Object task) {
            try {
                Field outer = task.getClass().getDeclaredField("this$0");
                outer.setAccessible(true);
                Object handler = outer.get(task);
                Field wd = handler.getClass().getDeclaredField("workerData");
                wd.setAccessible(true);
                Class<?> data = Class.forName(handler.getClass().getName() + "$WorkerData");
                Field params = data.getDeclaredField("params");
                params.setAccessible(true);
                return new Binding((Map<?, ?>) wd.get(handler), params);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        /** The JMH thread index of {@code t}, or -1 when it is not bound (yet). */
        int indexOf(Thread t) {
            Object d = workerData.get(t);
            if (d == null) return -1;
            try {
                return ((ThreadParams) params.get(d)).getThreadIndex();
            } catch (IllegalAccessException e) {
                return -1;
            }
        }

        /** Waits until {@code n} workers are bound. */
        boolean awaitBound(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (workerData.size() < n) {
                if (System.nanoTime() > deadline) return false;
                Thread.sleep(1);
            }
            return true;
        }
    }
}
