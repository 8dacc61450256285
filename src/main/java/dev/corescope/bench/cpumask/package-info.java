/**
 * {@code bench cpumask}: seed 000's {@code cpumask_any_but()} loop against
 * {@code cpumask_first_but()}, on this machine's CPU mask, in Java (JMH) and in C, with the C
 * functions' code size from the shared library's symbol table. The inputs live in
 * {@link CpumaskInputs} so Java, C and tests see the same ones.
 */
package dev.corescope.bench.cpumask;
