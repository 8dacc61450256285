/**
 * The command line: one picocli class per subcommand. Commands parse arguments and print; they
 * never call FFM themselves. Bad input exits 2 and an internal failure exits 1, each with one
 * line on stderr and nothing on stdout.
 */
package dev.corescope.cli;
