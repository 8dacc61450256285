package dev.corescope.topology.proc;

import java.util.Collection;
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


    /** {@return the sources through {@code r} (each {@code type} read, so a capture holds every folder); empty without the directory} */
    public static Optional<EventSources> read(SysfsReader r) {
        if (!r.isDirectory(DIR)) return Optional.empty();
        Map<String, Integer> types = new LinkedHashMap<>();
        for (String name : r.list(DIR)) types.put(name, r.readInt(DIR + "/" + name + "/type").orElse(-1));
        return Optional.of(new EventSources(types));
    }

    /** {@return the sources' names, in name order} */
    public List<String> names() {
        return List.copyOf(types.keySet());
    }

    /** {@return whether a hardware PMU ({@code cpu}, {@code cpu_*}, {@code armv*}) is among them} */
    public boolean hardware() {
        return hardware(types.keySet());
    }

    /** {@return whether a hardware PMU is among the event sources {@code names}, as saved from {@link #names}} */
    public static boolean hardware(Collection<String> names) {
        return names.stream().anyMatch(n -> n.equals("cpu") || n.startsWith("cpu_") || n.startsWith("armv"));
    }
}
