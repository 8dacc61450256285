package dev.corescope.topology.proc;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * perf's event sources, {@code sys/bus/event_source/devices}: each source's name and its
 * {@code type} (the number {@code perf_event_open} takes in {@code attr.type}). A hardware PMU
 * is a {@code cpu}, {@code cpu_core}/{@code cpu_atom} or {@code armv*} source; a guest without
 * a virtual PMU has only software ones ({@code software}, {@code tracepoint}, {@code breakpoint}).
 *
 * @param types each source's {@code type}, by name in name order; -1 where it is unreadable
 */
public record EventSources(Map<String, Integer> types) {

    /** The directory, relative to a root. */
    public static final String DIR = "sys/bus/event_source/devices";

    /** A reading; {@code types} is copied, in its order. */
    public EventSources {
        types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
    }

    /**
     * Under {@code root}.
     *
     * @return the sources, or empty when the directory is absent or unreadable
     */
    public static Optional<EventSources> read(Path root) {
        return read(new SysfsReader(root));
    }

    /**
     * Through {@code r}; each source's {@code type} is read, so that a capture holds every
     * source's folder and a replay lists the same names.
     *
     * @return the sources, or empty when the directory is absent or unreadable
     */
    public static Optional<EventSources> read(SysfsReader r) {
        if (!r.isDirectory(DIR)) return Optional.empty();
        Map<String, Integer> types = new LinkedHashMap<>();
        for (String name : r.list(DIR)) types.put(name, r.readInt(DIR + "/" + name + "/type").orElse(-1));
        return Optional.of(new EventSources(types));
    }

    /**
     * The sources' names.
     *
     * @return the names, in name order
     */
    public List<String> names() {
        return List.copyOf(types.keySet());
    }

    /**
     * Whether a hardware PMU is among them.
     *
     * @return true for a {@code cpu}, {@code cpu_*} or {@code armv*} source
     */
    public boolean hardware() {
        return types.keySet().stream().anyMatch(n -> n.equals("cpu") || n.startsWith("cpu_") || n.startsWith("armv"));
    }
}
