/**
 * corescope as a library ({@code dev.corescope:corescope-affinity}): CPU masks with the kernel's
 * semantics, the machine's topology, the OS seam (allowed set, pinning, current CPU, counters),
 * CPU reservations and strategies, and pinning for JMH benchmarks. No required dependency: JMH
 * only for {@code dev.corescope.jmh}, which a JMH project has anyway.
 *
 * <p>On the module path, FFM needs {@code --enable-native-access=dev.corescope}; the grant goes
 * to this module alone, and nothing it exports hands raw memory or a native capability on to
 * the modules that read it.
 */
module dev.corescope {
    requires static jmh.core;
    // topology.HwlocXmlReader: StAX, with DTDs and external entities off
    requires java.xml;

    exports dev.corescope.cpumask;
    exports dev.corescope.sys;
    exports dev.corescope.topology;
    exports dev.corescope.topology.proc;
    exports dev.corescope.affinity;
    exports dev.corescope.jmh;
    exports dev.corescope.text;
}
