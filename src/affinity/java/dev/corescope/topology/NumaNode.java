package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.List;

/**
 * A NUMA node from {@code /sys/devices/system/node/nodeN}: its CPUs ({@code cpulist}, limited
 * to online CPUs), its memory ({@code MemTotal} of its {@code meminfo}) and its row of the
 * SLIT distance table ({@code distance}, in the order of {@link Topology#numaNodes()}).
 *
 * @param id          the node's number ({@code nodeN})
 * @param cpus        its online CPUs
 * @param memoryBytes -1 when the node's {@code meminfo} could not be read
 * @param distances   empty when the node has no {@code distance} file
 */
public record NumaNode(int id, CpuMask cpus, long memoryBytes, List<Integer> distances) {
    /**
     * A node; {@code distances} is copied (unmodifiable).
     *
     * @param id          the node's number ({@code nodeN})
     * @param cpus        its online CPUs
     * @param memoryBytes its memory, or -1
     * @param distances   its row of the distance table, or empty
     */
    public NumaNode {
        distances = List.copyOf(distances);
    }
}
