package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import java.util.Comparator;
import java.util.Locale;

/**
 * One cache instance, as {@code /sys/devices/system/cpu/cpuN/cache/indexM/} describes it,
 * shared by {@code cpus} (its {@code shared_cpu_map}, limited to online CPUs).
 *
 * @param level     1, 2, 3, ...
 * @param type      data, instruction or unified
 * @param sizeBytes {@code size} in bytes, or -1 when the file is missing
 * @param lineSize  {@code coherency_line_size} in bytes, or -1
 * @param ways      {@code ways_of_associativity}, or -1 (0 means fully associative)
 * @param cpus      the online CPUs that share this instance
 */
public record Cache(int level, Type type, long sizeBytes, int lineSize, int ways, CpuMask cpus) {

    /** The kernel's {@code type} file: {@code Data}, {@code Instruction}, {@code Unified}. */
    public enum Type {
        /** A data cache ({@code L1d}). */
        DATA("data", "d"),
        /** An instruction cache ({@code L1i}). */
        INSTRUCTION("instruction", "i"),
        /** Data and instructions ({@code L2}, {@code L3}). */
        UNIFIED("unified", "");

        private final String jsonName;
        /** {@code d}, {@code i} or nothing, as in {@code L1d}. */
        final String suffix;

        Type(String jsonName, String suffix) {
            this.jsonName = jsonName;
            this.suffix = suffix;
        }

        /** {@return the name in the JSON form: {@code data}, {@code instruction} or {@code unified}} */
        public String jsonName() {
            return jsonName;
        }

        static Type parse(String sysfs) {
            return switch (sysfs.strip().toLowerCase(Locale.ROOT)) {
                case "data" -> DATA;
                case "instruction" -> INSTRUCTION;
                case "unified" -> UNIFIED;
                default -> null;
            };
        }
    }

    /** By level, then data, instruction, unified, then first CPU (one lambda: {@code Comparator.comparing}'s are spun at each start). */
    static final Comparator<Cache> ORDER = (a, b) -> a.level != b.level ? Integer.compare(a.level, b.level)
            : a.type != b.type ? a.type.compareTo(b.type) : Integer.compare(a.cpus().first(), b.cpus().first());

    /** {@return the name lstopo and hwloc use: {@code L1d}, {@code L1i}, {@code L2}, {@code L3}, ...} */
    public String name() {
        return "L" + level + type.suffix;
    }

    /** {@return the size as the kernel writes it: {@code 32K}, {@code 32M}; {@code size unknown} when unknown} */
    public String sizeText() {
        return Sizes.kernelStyle(sizeBytes);
    }

    /** {@return the name and size, as the text form shows a cache: e.g. {@code L3 32M}} */
    public String label() {
        return name() + " " + sizeText();
    }
}
