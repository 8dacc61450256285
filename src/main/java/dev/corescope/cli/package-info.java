/**
 * The command line: one picocli class per subcommand. Commands parse arguments and print; they
 * never call FFM themselves. Bad input exits 2 and an internal failure exits 1, each with one
 * line on stderr and nothing on stdout; the one exception is a bench run in which some families
 * failed, which still prints what the others measured and exits 3 ("partial").
 */
package dev.corescope.cli;
