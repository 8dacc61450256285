package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.proc.SysfsReader;

import java.util.List;

/**
 * What every part of one {@link Reading} shares ({@link CpuTreeReader}, {@link CacheReader},
 * {@link NumaReader}, {@link CoreKindReader}): the reading itself, its reader beneath the root,
 * the mask width, the online CPUs and the warnings all parts add to.
 */
abstract class ReadingPart {

    final Reading x;
    final SysfsReader r;
    final int nbits;
    final CpuMask online;
    final List<String> warnings;

    ReadingPart(Reading x) {
        this.x = x;
        this.r = x.r;
        this.nbits = x.nbits;
        this.online = x.online;
        this.warnings = x.warnings;
    }
}
