/**
 * The benchmark families' common ground: the {@link dev.corescope.bench.BenchFamily} SPI, the
 * run context, and the JMH harness through which every reported speed is measured. Each family
 * lives in its own sub-package, one idea per benchmark class.
 */
package dev.corescope.bench;
