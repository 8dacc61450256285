/**
 * corescope in the tools a fleet already runs, and only that: the node_exporter textfile metrics
 * and the node-feature-discovery feature file of {@code corescope export}. Each renders the live
 * topology and a results file's {@code report.MachineSummary}; nothing here collects, schedules
 * or compares (two machines are compared by {@code report.Comparison}).
 */
package dev.corescope.fleet;
