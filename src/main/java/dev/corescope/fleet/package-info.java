/**
 * corescope in the tools a fleet already runs: the node_exporter textfile metrics and the
 * node-feature-discovery feature file of {@code corescope export}, and the comparison of two
 * machines' results files by relation and by claim. Each view renders the live topology and a
 * results file's {@link dev.corescope.report.MachineSummary}; nothing here collects or schedules.
 */
package dev.corescope.fleet;
