/**
 * The jitter probe: a pinned thread spins reading the clock on each CPU and records every gap
 * (the time the CPU was taken away from it); the interrupts, softirqs, steal time and context
 * switches over the same window say why; the CPUs are ranked quietest first. The parsers take
 * a stream and the readers a root, so tests feed them saved {@code /proc} files.
 */
package dev.corescope.jitter;
