package dev.corescope.topology.proc;

import dev.corescope.testing.Sources;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue #26's rule, kept by a test: every /proc and /sys file is parsed in one place, the
 * {@code topology.proc} package, and read through {@link SysfsReader}'s capped, root-relative
 * reader, so that {@code capture} can save it and {@code --root} replay it.
 */
class OneReaderTest {

    private static final String READER = "topology/proc/";

    /** The files parsed by one class each, by the literal their parser reads. */
    private static final List<String> PARSED_ONCE = List.of(
            "\"proc/stat\"", "\"proc/interrupts\"", "\"proc/cpuinfo\"", "\"proc/locks\"", "\"proc/self/mountinfo\"",
            "\"proc/cmdline\"", "\"proc/self/cgroup\"", "\"proc/loadavg\"", "\"proc/softirqs\"",
            "\"proc/sys/kernel/osrelease\"", "\"proc/version\"", "\"sys/hypervisor/type\"", "\"sys/class/dmi/id/product_name\"",
            "scaling_governor\"", "scaling_cur_freq\"", "\"sys/devices/system/clocksource/clocksource0/current_clocksource\"");

    /**
     * Below {@code topology} in the package map, so they cannot call up to its reader: reads
     * of the live machine at start-up ({@code cpu/possible} for the size of a {@code cpu_set_t},
     * {@code perf_event_paranoid} for why counters are refused). Links ({@code /proc/self/fd/N})
     * are not files read and are not counted.
     */
    private static final Map<String, String> ALLOWED = Map.of(
            "sys/internal/Affinity.java", "nr_cpu_ids before any topology exists, in the package the topology reader uses",
            "sys/PerfCounters.java", "perf_event_paranoid and the PMU list, for the message when counters are refused",
            "cpumask/CpuListParser.java", "nr_cpu_ids for the default width, at the bottom of the map below topology");

    private static final Pattern FILE_READ = Pattern.compile(
            "Files\\.(readString|readAllLines|readAllBytes|lines|newBufferedReader|newInputStream|list|walk)\\(");
    private static final Pattern PROC_OR_SYS = Pattern.compile("\"/?(proc|sys)(/|\")");

    private static Map<String, String> sources() throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (var e : Sources.files().entrySet()) out.put(e.getKey(), Files.readString(e.getValue()));
        return out;
    }

    @Test
    void eachProcFileIsNamedByOneParserInTheReaderPackage() throws IOException {
        Map<String, String> src = sources();
        Map<String, List<String>> found = new TreeMap<>();
        Map<String, List<String>> expected = new TreeMap<>();
        for (String literal : PARSED_ONCE) {
            List<String> files = new ArrayList<>();
            src.forEach((name, text) -> {
                if (text.contains(literal)) files.add(name);
            });
            found.put(literal, files);
            expected.put(literal, files.size() == 1 && files.getFirst().startsWith(READER) ? files : List.of("one file in " + READER));
        }
        assertEquals(expected, found);
    }

    @Test
    void noFileOfProcOrSysIsReadOutsideTheReaderPackage() throws IOException {
        List<String> offenders = new ArrayList<>();
        sources().forEach((name, text) -> {
            if (name.startsWith(READER) || ALLOWED.containsKey(name)) return;
            if (FILE_READ.matcher(text).find() && PROC_OR_SYS.matcher(text).find()) offenders.add(name);
        });
        assertEquals(List.of(), offenders, "read /proc or /sys through topology.proc.SysfsReader");
    }
}
