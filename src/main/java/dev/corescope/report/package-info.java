/**
 * The results model that every family fills and every output reads: results, layouts,
 * histograms, the c2c matrix and the environment, as CONTRACT.md's {@code corescope-results/1}
 * JSON. Text, JSON and HTML are all rendered from these records, never from each other.
 */
package dev.corescope.report;
