package dev.corescope.cpumask;

import java.util.OptionalLong;

/**
 * A cpulist or hex cpumap that the kernel's parser would reject, with the error code the
 * kernel would return ({@code EINVAL}, {@code ERANGE} or {@code EOVERFLOW}).
 * {@link #getMessage()} is the reason alone, e.g. {@code range start 9 is after its end 3};
 * {@link #input()} is the text that was read.
 */
public final class CpuMaskFormatException extends IllegalArgumentException {

    /** The kernel's return code for this kind of error in {@code lib/bitmap-str.c}. */
    public enum Code {
        /** Not the grammar: a stray character, an inverted range, a bad group. */
        EINVAL,
        /** A CPU at or beyond the mask's bit count (see {@link #bit()}). */
        ERANGE,
        /** A number or a hex chunk too large, or more chunks than the mask holds. */
        EOVERFLOW
    }

    /** The text that was read. */
    private final String input;
    /** The kernel's error code. */
    private final Code code;
    /** The CPU asked for ({@code ERANGE}), or -1. */
    private final long bit;

    /**
     * A rejected text.
     *
     * @param input the text that was read, as given
     * @param code the kernel's error code for it
     * @param reason what is wrong, the message (without the input)
     */
    public CpuMaskFormatException(String input, Code code, String reason) {
        this(input, code, reason, -1);
    }

    /**
     * A rejected text, with the bit that was out of range ({@code ERANGE}), so a caller may
     * retry with more bits.
     *
     * @param input the text that was read
     * @param code the kernel's error code
     * @param reason what is wrong, the message
     * @param bit the CPU number asked for, or -1 for none
     */
    public CpuMaskFormatException(String input, Code code, String reason, long bit) {
        super(reason);
        this.input = input;
        this.code = code;
        this.bit = bit;
    }

    /** {@return the text that was read, whole and as given (not escaped: escape it before printing it to a terminal)} */
    public String input() {
        return input;
    }

    /** {@return the kernel's error code for this text, never null} */
    public Code code() {
        return code;
    }

    /**
     * For {@code ERANGE}: the CPU number at or beyond nbits that the list asked for.
     *
     * @return the number, or empty for the other codes
     */
    public OptionalLong bit() {
        return bit < 0 ? OptionalLong.empty() : OptionalLong.of(bit);
    }
}
