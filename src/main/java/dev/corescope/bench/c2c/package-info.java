/**
 * {@code bench c2c}: what it costs to move one cache line between two cores, for every pair of
 * usable CPUs, by two pinned threads ping-ponging a flag (Java, its C twin, and a JMH
 * cross-check); the matrix as text and as an SVG heatmap labelled by core, cache and package.
 */
package dev.corescope.bench.c2c;
