/**
 * corescope as a library: CPU masks, the machine's topology, the OS seam (allowed set, pin,
 * current CPU, counters), CPU reservations and strategies, and pinning for JMH benchmarks.
 * Everything else in the jar (the command line, the reports, corescope's own benchmark
 * families) is not exported, and its dependencies are {@code requires static}: a library user
 * needs none of them, and JMH only for {@code dev.corescope.jmh}.
 *
 * <p>On the module path, FFM needs {@code --enable-native-access=dev.corescope}.
 */
module dev.corescope {
    requires static info.picocli;
    requires static com.fasterxml.jackson.annotation;
    requires static com.fasterxml.jackson.core;
    requires static com.fasterxml.jackson.databind;
    requires static HdrHistogram;
    requires static jmh.core;
    requires static jol.core;
    requires static commons.math3;

    exports dev.corescope.cpumask;
    exports dev.corescope.sys;
    exports dev.corescope.topology;
    exports dev.corescope.affinity;
    exports dev.corescope.jmh;
}
