package dev.corescope.bench.locks;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.corescope.bench.Jmh;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Result;
import dev.corescope.report.RunFigures;
import dev.corescope.topology.proc.EventSources;

import java.util.Arrays;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What one {@code bench locks} run measured, as saved in the results file ({@code models.locks}):
 * plain numbers, keys and lists (a figure that is not known is null), worded by {@link LocksView}. It is
 * the one source of the family's text and of its results rows ({@link #results}), for a live run and a
 * saved file alike.
 *
 * docs/formats.md describes each field, and the sentences older files hold instead ({@code notes},
 * {@code javaSettings}, {@code nativeSettings}, {@code load}, {@code pmu}, {@code contendedSkipped}), shown as saved.
 *
 * @param cpu           the CPU the uncontended rows ran on
 * @param cpuChoice     why that CPU
 * @param nativeRuns    how the C loops ran, or null when they did not
 * @param rows          the uncontended figures, one per line of the list and implementation
 * @param contendedSkip why contended mode did not run, or null when it ran
 * @param eventSources  perf's event sources ({@link EventSources#names}), null when unreadable
 */
public record LocksModel(int cpu, CpuChoice cpuChoice, Tsc tsc, Jmh.Settings jmh, NativeRuns nativeRuns, List<Row> rows,
                         List<Contended> contended, ContendedSkip contendedSkip, List<String> eventSources,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> notes, Facts facts,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String javaSettings,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String nativeSettings,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String load,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String pmu,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String contendedSkipped) {

    public LocksModel {
        rows = List.copyOf(rows);
        contended = List.copyOf(contended);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** A live run's model: data only. */
    LocksModel(int cpu, CpuChoice cpuChoice, Tsc tsc, Jmh.Settings jmh, NativeRuns nativeRuns, List<Row> rows, List<Contended> contended,
               ContendedSkip contendedSkip, List<String> eventSources, Facts facts) {
        this(cpu, cpuChoice, tsc, jmh, nativeRuns, rows, contended, contendedSkip, eventSources, List.of(), facts, null, null, null, null, null);
    }

    /** Which CPU the uncontended rows ran on; read from its name or, in older files, its words. */
    public enum CpuChoice {
        FIRST_OF_CPUS("the first CPU of --cpus"),
        LAST_ALLOWED("the last allowed CPU, often the quietest; --cpus picks another");

        final String words;

        CpuChoice(String words) {
            this.words = words;
        }

        @JsonCreator
        static CpuChoice of(String saved) {
            return Stream.of(values()).filter(c -> c.name().equals(saved) || c.words.equals(saved)).findFirst().orElse(null);
        }
    }

    /** Why contended mode did not run: {@code why}, about the CPUs of {@code cpus} (a cpulist). */
    public record ContendedSkip(Why why, String cpus) {

        /** The reasons, each with its words. */
        public enum Why {
            ONE_CPU_GIVEN("--cpus %s names one CPU, and it needs two"),
            ONE_CPU_ALLOWED("only CPU %s is allowed, and it needs two"),
            FEW_ONLINE("fewer than two of the allowed CPUs %s are online");

            private final String words;

            Why(String words) {
                this.words = words;
            }
        }

        /** {@code contended mode skipped: only CPU 3 is allowed, and it needs two}. */
        String words() {
            return "contended mode skipped: " + String.format(Locale.ROOT, why.words, cpus);
        }
    }

    /**
     * The run's facts the notes are worded from.
     *
     * @param quick             whether the run was {@code --quick} (some lines and contended locks left out)
     * @param nativeUnavailable why the native rows are missing, or null when they ran
     * @param loadOneMinute     the 1-minute load average before the run, or null when unknown
     * @param loadCpus          the CPUs that load is weighed against
     * @param topologyError     why the topology could not be read (contended mode then takes the first two allowed CPUs), or null
     */
    public record Facts(boolean quick, String nativeUnavailable, Double loadOneMinute, int loadCpus, String topologyError) {
    }

    /** The C loops' plan: {@code runs} separately started runs per loop, each {@code batches} batches of about {@code batchMillis}. */
    public record NativeRuns(int runs, int batches, long batchMillis) {
    }

    /** The TSC rate used ({@code mhz}, null when unknown), its {@code source}, and the calibration here. */
    public record Tsc(Double mhz, String source, String evidence, Double calibratedMhz, Double calibratedErr, int calibrations,
                      List<String> flags, String clocksource) {
    }

    /**
     * One figure of the uncontended list: {@code line} names the line ({@code spin_lock_unlock},
     * {@code function_call_downcall}, ...), {@code variant} is the results' variant; {@code calls}
     * the out-of-line calls per element of the C loop that measured a native figure (null for Java
     * and in files from before round three, whose loops may have made others).
     */
    public record Row(String line, String variant, String implementation, Double ns, Double nsError, long samples, Double cycles,
                      Double cyclesError, String cyclesFrom, int migrated, Integer calls) {
    }

    /**
     * Several threads on one lock: the placement (a {@code Placement} key, {@code any} or {@code cpus}
     * for a {@code --cpus} list) and its CPUs, the rate, and each thread's share.
     */
    public record Contended(String variant, String implementation, String label, String placement, List<Integer> cpus,
                            Double nsPerOp, Double nsError, long samples, List<Share> shares, int migratedRounds) {

        /** The least-served thread's rate over the best-served one's: 1 is perfectly fair (NaN when no thread ran). */
        double fairness() {
            double min = Double.MAX_VALUE;
            double max = 0;
            for (LocksModel.Share s : shares) {
                min = Math.min(min, s.opsPerUs());
                max = Math.max(max, s.opsPerUs());
            }
            return max == 0 ? Double.NaN : min / max;
        }
    }

    /** A thread's operations per microsecond over the measured time. */
    public record Share(int thread, int cpu, double opsPerUs) {
    }

    /** The CONTRACT's results rows, from the model (each figure once: the text and the rows read the same model). */
    List<Result> results() {
        return results(Map.of());
    }

    /** {@link #results()}, each uncontended row's {@code runs[]} (its JMH forks or C runs) from {@code runs}. */
    List<Result> results(Map<Row, List<RunFigures>> runs) {
        List<Result> out = new ArrayList<>();
        String cpu = Integer.toString(this.cpu);
        if (tsc.calibratedMhz() != null) {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("used", tsc.source());
            if (tsc.mhz() != null) params.put("usedMHz", Math.round(tsc.mhz() * 1000) / 1000.0);
            out.add(row("tsc_rate", "native", "calibrated", "MHz", tsc.calibratedMhz(), tsc.calibratedErr(), tsc.calibrations(), cpu, params));
        }
        for (Row m : rows) {
            Map<String, Object> params = new LinkedHashMap<>(lineParams(m));
            if (m.migrated() != 0) params.put("migrated", m.migrated());
            Result op = row(m.variant(), m.implementation(), "op", "ns/op", m.ns(), m.nsError(), m.samples(), cpu, params);
            out.add(runs.containsKey(m) ? op.withRuns(runs.get(m)) : op);
            if (m.cycles() != null) {
                Map<String, Object> p = new LinkedHashMap<>(params);
                p.put("cycles", cyclesFrom(m.cyclesFrom()));
                out.add(row(m.variant(), m.implementation(), "op_cycles", "cycles/op", m.cycles(), m.cyclesError(), m.samples(), cpu, p));
            }
        }
        for (Contended c : contended) {
            int[] cpus = c.cpus().stream().mapToInt(Integer::intValue).toArray();
            String list = CpuMask.of(Arrays.stream(cpus).max().orElse(0) + 1, cpus).toList();
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("placement", c.placement());
            params.put("threads", cpus.length);
            if (c.migratedRounds() > 0) params.put("migrated", c.migratedRounds());
            out.add(row(c.variant(), c.implementation(), "contended", "ns/op", c.nsPerOp(), c.nsError(), c.samples(), list, params));
            out.add(row(c.variant(), c.implementation(), "contended_fairness", "min/max", c.fairness(), null, c.samples(), list, params));
            for (Share s : c.shares()) {
                Map<String, Object> p = new LinkedHashMap<>(params);
                p.put("thread", s.thread());
                out.add(row(c.variant(), c.implementation(), "contended_thread", "ops/us", s.opsPerUs(), null, c.samples(),
                        Integer.toString(s.cpu()), p));
            }
        }
        return out;
    }

    /** The params that tell a saved row's line apart ({@link Line#params}); none for a line this version does not know. */
    private static Map<String, Object> lineParams(Row m) {
        for (Line l : Line.values()) if (l.name().equalsIgnoreCase(m.line())) return l.params(m.implementation());
        return Map.of();
    }

    /** How the cycles were obtained, in the words the rows' params use. */
    private static String cyclesFrom(String saved) {
        for (CyclesFrom c : CyclesFrom.values()) if (c.name().equalsIgnoreCase(saved)) return c.text;
        return saved;
    }

    private static Result row(String variant, String implementation, String metric, String unit, Double score, Double error,
                              long samples, String cpus, Map<String, Object> params) {
        return Result.builder().benchmark("locks").variant(variant).implementation(implementation).metric(metric)
                .unit(unit).score(score == null ? Double.NaN : score).error(error).samples(samples).cpus(cpus).params(params).build();
    }

    /** The saved form of a live TSC rate. */
    static Tsc of(TscRate t) {
        return new Tsc(num(t.mhz()), t.source().name().toLowerCase(Locale.ROOT), t.evidence(), num(t.calibratedMhz()),
                num(t.calibratedErr()), t.calibrations(), t.flags(), t.clocksource());
    }

    /**
     * One live figure of {@code line}, per element, measured one way (Java through JMH, or the C twin's loop): the
     * mean ns, its 99.9% half-width, the iterations or batches it comes from, TSC cycles (NaN: not known, saved as
     * null) and how they were obtained, and the batches that ended off their CPU (native only).
     */
    static Row row(Line line, String implementation, double ns, double nsError, long samples, double cycles, double cyclesError,
                   CyclesFrom cyclesFrom, int migrated) {
        return new Row(line.name().toLowerCase(Locale.ROOT), line.variant().contractName(), implementation, num(ns), num(nsError),
                samples, num(cycles), num(cyclesError), cyclesFrom.name().toLowerCase(Locale.ROOT), migrated,
                implementation.equals("native") && line.loop() != null ? line.loop().calls() : null);
    }

    /**
     * Several threads, one per CPU of {@code placement}, on one lock: the wall time per operation of all threads
     * together and its half-width (NaN: not known), the iterations (Java) or rounds (native), each thread's share, and
     * the native rounds in which a thread ran off its CPU (0 for Java, whose threads check their pinning once).
     */
    static Contended contended(Variant variant, String implementation, String label, ThreadPlacement placement, double nsPerOp,
                               double nsError, long samples, List<Share> shares, int migratedRounds) {
        return new Contended(variant.contractName(), implementation, label, placement.name(), placement.cpus(), num(nsPerOp),
                num(nsError), samples, List.copyOf(shares), migratedRounds);
    }

    /** How a row's cycles were obtained. */
    enum CyclesFrom {
        /** rdtsc before and after the C loop: what time_bench does. */
        RDTSC("rdtsc"),
        /** ns times the TSC rate: Java cannot read the TSC without a downcall dearer than the read. */
        TSC_RATE("ns x TSC rate"),
        NONE("none");

        final String text;

        CyclesFrom(String text) {
            this.text = text;
        }
    }

    private static Double num(double d) {
        return Double.isNaN(d) ? null : d;
    }
}
