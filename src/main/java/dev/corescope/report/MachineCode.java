package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The machine code of one measured function, as {@code code[]} in the results file (see
 * docs/formats-code.md): what the compiler made of a variant, so a reader can check a claim
 * like "the assembly executed in the loop is reduced" instead of assuming it.
 *
 * <p>Counts are static (each instruction counted once, however often it runs) and leave out
 * alignment padding ({@code nop}s). A load or store is an explicit memory operand read or
 * written ({@code lea} and {@code nop} touch no memory), plus the stack slot of {@code push}
 * (a store) and {@code pop} (a load); {@code call} and {@code ret} are not counted.
 *
 * @param benchmark      the family
 * @param variant        the CONTRACT's variant name
 * @param implementation {@code native} (a C twin) or {@code java} (C2's code)
 * @param params         what tells variants of the same name apart (e.g. {@code nrCpus}); may be empty
 * @param symbol         the C function, or the Java method
 * @param bytes          the function's size ({@code st_size} in the ELF symbol table); null when unknown
 * @param instructions   instructions in the function, padding left out; null without a disassembler
 * @param loads          memory reads in the function; null without a disassembler
 * @param stores         memory writes in the function; null without a disassembler
 * @param hotLoop        the measured loop of the function; null when it has none or without a disassembler
 * @param disassembly    the function's disassembly text ({@code objdump -d}, AT&amp;T syntax); null without one
 * @param reason         why a field is missing (no disassembler, symbol not found, ...); null when nothing is
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MachineCode(String benchmark, String variant, String implementation, Map<String, Object> params, String symbol,
                          Long bytes, Integer instructions, Integer loads, Integer stores, HotLoop hotLoop,
                          String disassembly, String reason) {

    public MachineCode {
        params = params == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /**
     * The measured loop: a natural loop of the function's control-flow graph (a back edge, whose
     * target dominates its source, and every block that reaches it without passing that target,
     * the header). {@code innermost} is the loop with the fewest instructions; {@code timed} the
     * one with the most, chosen by the family for a harness whose timed loop holds spin-wait
     * retries that an uncontended run never takes. See docs/formats-code.md.
     *
     * @param kind         {@code innermost} or {@code timed}
     * @param fromOffset   the header's first byte, from the function's start
     * @param toOffset     the last back edge's branch, from the function's start (the loop's
     *                     blocks need not lie between the two)
     * @param instructions instructions in the loop's blocks, padding left out
     * @param loads        memory reads in the loop
     * @param stores       memory writes in the loop
     */
    public record HotLoop(String kind, long fromOffset, long toOffset, int instructions, int loads, int stores) {
    }

    /** The key rows of the same benchmark, implementation and params are grouped on (before/after pairs). */
    public String groupKey() {
        return benchmark + "/" + implementation + "/" + new TreeMap<>(params);
    }
}
