/**
 * corescope as a library ({@code dev.corescope:corescope-affinity}): CPU masks with the kernel's
 * semantics, the machine's topology, the OS seam (allowed set, pinning, current CPU, counters),
 * CPU reservations and strategies. No dependency. The pinning profiler for JMH is the artifact
 * {@code dev.corescope:corescope-jmh} (the automatic module {@code dev.corescope.jmh}), which uses
 * only what this module exports.
 *
 * <p>{@code dev.corescope.text} (the tool's terminal layout) and {@code dev.corescope.topology.proc}
 * (the /proc and /sys parsers) are in the jar for the library's own use and for the command-line
 * tool, which runs on the class path; they are not exported and not API.
 *
 * <p>On the module path, FFM needs {@code --enable-native-access=dev.corescope}; the grant goes
 * to this module alone, and nothing it exports hands raw memory or a native capability on to
 * the modules that read it.
 */
module dev.corescope {
    // topology.HwlocXmlReader: StAX, with DTDs and external entities off
    requires java.xml;

    exports dev.corescope.cpumask;
    exports dev.corescope.sys;
    exports dev.corescope.topology;
    exports dev.corescope.affinity;
}
