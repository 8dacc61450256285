package dev.corescope.bench;

import java.util.Map;

/**
 * A function a family times, so {@code bench} can record its machine code
 * ({@link MachineCodeReader}): the variant it stands for, its C symbol in
 * {@code libcorescope.so}, and the Java method that is the same variant's Java side.
 *
 * @param variant    the CONTRACT's variant name
 * @param symbol     the C function ({@code cs_...}); null when the variant has no C twin
 * @param javaMethod the Java method, {@code Class::method} with the class's binary name; null when none
 * @param params     what tells two functions of the same variant apart ({@code nrCpus=64}); the
 *                   text report compares each function with the first one of the same params
 * @param loop       which natural loop of the function is the measured one: the innermost
 *                   (the fewest instructions; the default) or, for a harness function, the
 *                   timed loop (the one with the most: its body holds the measured code with
 *                   any retry or spin-wait loops an uncontended run never takes)
 */
public record MeasuredFunction(String variant, String symbol, String javaMethod, Map<String, Object> params, Loop loop) {

    /** Which natural loop is counted. */
    public enum Loop {
        /** the natural loop with the fewest instructions */
        INNERMOST("innermost"),
        /** a harness function's timed loop: its natural loop with the most instructions */
        TIMED("timed");

        private final String kind;

        Loop(String kind) {
            this.kind = kind;
        }

        /** As {@code hotLoop.kind} in the results file. */
        public String kind() {
            return kind;
        }
    }

    public MeasuredFunction {
        params = params == null ? Map.of() : Map.copyOf(params);
        loop = loop == null ? Loop.INNERMOST : loop;
    }

    /** The innermost loop counted. */
    public MeasuredFunction(String variant, String symbol, String javaMethod, Map<String, Object> params) {
        this(variant, symbol, javaMethod, params, Loop.INNERMOST);
    }

    /** A C twin and its Java side, no params, the innermost loop counted. */
    public static MeasuredFunction of(String variant, String symbol, String javaMethod) {
        return new MeasuredFunction(variant, symbol, javaMethod, Map.of());
    }
}
