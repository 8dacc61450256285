/**
 * The benchmark families' common ground: the {@link BenchFamily} SPI, the
 * run context, the JMH harness through which every reported speed is measured, and the
 * {@link BenchSession} that runs families with counters, survives their
 * failures and stops cleanly on Ctrl-C. Each family lives in its own sub-package.
 */
package dev.corescope.bench;
