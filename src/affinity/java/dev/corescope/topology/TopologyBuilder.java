package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Shorten;
import dev.corescope.topology.proc.CgroupCpuset;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a reader ({@link TopologyReader}, {@link HwlocXmlReader}) fills in, once: {@link #build()}
 * freezes it into the {@link Topology}, which keeps it and never changes it.
 */
final class TopologyBuilder {
    String source;
    String cpuModel;
    int nbits;
    CpuMask online, offline, possible, present, isolated, nohzFull, allowed;
    CgroupCpuset cgroupCpuset;
    Boolean smtActive;
    List<TopologyNode> roots = new ArrayList<>();
    List<Cache> machineCaches = new ArrayList<>();
    String cacheSource = "sysfs";
    List<NumaNode> numaNodes = new ArrayList<>();
    List<CoreKind> coreKinds = new ArrayList<>();
    int cacheLineSize = Topology.DEFAULT_CACHE_LINE;
    List<String> warnings = new ArrayList<>();
    Map<String, byte[]> filesRead = new LinkedHashMap<>();
    boolean readRecorded = true;
    List<String> dirsSeen = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();

    Topology build() {
        cpuModel = Shorten.end(cpuModel, Topology.MAX_NAME);
        roots = List.copyOf(roots);
        machineCaches = List.copyOf(machineCaches);
        numaNodes = List.copyOf(numaNodes);
        coreKinds = List.copyOf(coreKinds);
        warnings = List.copyOf(warnings);
        filesRead = Collections.unmodifiableMap(new LinkedHashMap<>(filesRead));
        dirsSeen = List.copyOf(dirsSeen);
        unreadable = List.copyOf(unreadable);
        return new Topology(this);
    }
}
