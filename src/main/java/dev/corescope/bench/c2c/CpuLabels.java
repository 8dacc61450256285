package dev.corescope.bench.c2c;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a CPU sits, for the heatmap's labels: its core, its last-level cache and its package,
 * read from {@code sys/devices/system/cpu/cpuN} under a root (so tests use saved trees).
 * Anything missing is left out of the label, not guessed.
 *
 * <p>This is the seam to {@code dev.corescope.topology}: once that package is on main, the
 * labels come from its model.
 */
public record CpuLabels(Path root) {

    public static CpuLabels live() {
        return new CpuLabels(Path.of("/"));
    }

    /** One CPU's place. */
    public record Place(int cpu, Optional<Integer> core, Optional<String> cache, Optional<Integer> pkg) {

        /** {@code cpu3 c1 L3#0 p0}: short enough for an axis. */
        public String shortLabel() {
            StringBuilder b = new StringBuilder("cpu").append(cpu);
            core.ifPresent(c -> b.append(" c").append(c));
            cache.ifPresent(c -> b.append(' ').append(c));
            pkg.ifPresent(p -> b.append(" p").append(p));
            return b.toString();
        }

        /** {@code CPU 3: core 1, L3 #0, package 0}. */
        public String longLabel() {
            StringBuilder b = new StringBuilder("CPU ").append(cpu);
            String sep = ": ";
            if (core.isPresent()) {
                b.append(sep).append("core ").append(core.get());
                sep = ", ";
            }
            if (cache.isPresent()) {
                b.append(sep).append(cache.get().replace("#", " #"));
                sep = ", ";
            }
            if (pkg.isPresent()) b.append(sep).append("package ").append(pkg.get());
            return b.toString();
        }
    }

    public Place of(int cpu) {
        Path dir = root.resolve("sys/devices/system/cpu/cpu" + cpu);
        return new Place(cpu, readInt(dir.resolve("topology/core_id")), lastLevelCache(dir),
                readInt(dir.resolve("topology/physical_package_id")));
    }

    /** The highest-level unified cache, as {@code L3#id} (the id, or the lowest CPU sharing it). */
    private static Optional<String> lastLevelCache(Path cpuDir) {
        Path caches = cpuDir.resolve("cache");
        if (!Files.isDirectory(caches)) return Optional.empty();
        int bestLevel = -1;
        String best = null;
        try (var dirs = Files.list(caches)) {
            for (Path index : dirs.filter(p -> p.getFileName().toString().startsWith("index")).sorted().toList()) {
                Optional<Integer> level = readInt(index.resolve("level"));
                Optional<String> type = read(index.resolve("type"));
                if (level.isEmpty() || type.isEmpty() || type.get().equals("Instruction")) continue;
                if (level.get() <= bestLevel) continue;
                Optional<String> id = readInt(index.resolve("id")).map(String::valueOf)
                        .or(() -> read(index.resolve("shared_cpu_list")).map(l -> l.split("[-,]")[0]));
                bestLevel = level.get();
                best = "L" + level.get() + id.map(i -> "#" + i).orElse("");
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.ofNullable(best);
    }

    private static Optional<Integer> readInt(Path p) {
        return read(p).flatMap(s -> {
            try {
                return Optional.of(Integer.parseInt(s));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }

    private static Optional<String> read(Path p) {
        try {
            return Optional.of(Files.readString(p).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
