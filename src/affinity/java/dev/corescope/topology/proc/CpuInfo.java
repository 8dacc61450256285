package dev.corescope.topology.proc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code /proc/cpuinfo} says that corescope uses, parsed by one set of rules for the
 * topology and the results file's environment alike: the CPU's name, the first CPU's flags
 * and each CPU's {@code cpu MHz}.
 *
 * @param model the CPU's name, or null when the file names none
 * @param flags the first CPU's {@code flags} (x86) or {@code Features} (Arm)
 * @param mhz   every {@code cpu MHz} line, in file order (empty where the kernel prints none)
 * @param vendor x86's first {@code vendor_id} ({@code AuthenticAMD}), or null
 * @param family x86's first {@code cpu family} ({@code 25}), or null
 */
public record CpuInfo(String model, Set<String> flags, List<Double> mhz, String vendor, String family) {

    /** The file, relative to a root. */
    public static final String FILE = "proc/cpuinfo";

    /**
     * Keys naming the CPU, best first: x86's {@code model name}; old Arm's {@code Processor};
     * MIPS's {@code cpu model}; PowerPC's {@code cpu}; RISC-V's {@code uarch}; then the board
     * ({@code Model}, {@code Hardware}). arm64 names none, so its implementer and part follow.
     */
    private static final List<String> MODEL_KEYS = List.of("model name", "Processor", "cpu model", "cpu", "uarch", "Model", "Hardware");

    /** What a tree without {@code /proc/cpuinfo} says: nothing. */
    public static final CpuInfo NONE = new CpuInfo(null, Set.of(), List.of(), null, null);

    /** The parsed file; the collections are copied. */
    public CpuInfo {
        flags = Set.copyOf(flags);
        mhz = List.copyOf(mhz);
    }


    /** {@return {@code proc/cpuinfo} through {@code r}, or {@link #NONE} when it is absent or unreadable} */
    public static CpuInfo read(SysfsReader r) {
        return r.readLines(FILE).map(CpuInfo::parse).orElse(NONE);
    }

    /** {@return what the file's lines say: the first value of each key counts (the first CPU's)} */
    public static CpuInfo parse(List<String> lines) {
        Map<String, String> first = new LinkedHashMap<>();
        List<Double> mhz = new ArrayList<>();
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon).strip();
            boolean mhzLine = key.equals("cpu MHz");
            if (first.containsKey(key) && !mhzLine) continue;  // later CPUs' values: not copied (8192 flags lines are 10 MB)
            String value = line.substring(colon + 1).strip();
            first.putIfAbsent(key, value);
            if (mhzLine) {
                try {
                    mhz.add(Double.parseDouble(value));
                } catch (NumberFormatException ignored) {
                    // not a number: left out
                }
            }
        }
        String features = Optional.ofNullable(first.get("flags")).orElse(first.getOrDefault("Features", ""));
        return new CpuInfo(model(first), features.isBlank() ? Set.of() : Set.copyOf(Arrays.asList(features.split("\\s+"))), mhz,
                first.get("vendor_id"), first.get("cpu family"));
    }

    /** {@return whether this is AMD's family 0x15 or 0x16, whose compute units the kernel lists as SMT siblings with their own core_id} */
    public boolean amdWithComputeUnits() {
        return "AuthenticAMD".equals(vendor) && ("21".equals(family) || "22".equals(family));
    }

    private static String model(Map<String, String> first) {
        for (String key : MODEL_KEYS) {
            String v = first.get(key);
            if (v != null && !v.isBlank()) return v;
        }
        String part = first.get("CPU part");
        if (part != null) return "Arm CPU implementer " + first.getOrDefault("CPU implementer", "?") + " part " + part;
        return null;
    }
}
