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
    public enum Code { EINVAL, ERANGE, EOVERFLOW }

    private final String input;
    private final Code code;
    private final long bit;

    public CpuMaskFormatException(String input, Code code, String reason) {
        this(input, code, reason, -1);
    }

    /** With the bit that was out of range ({@code ERANGE}), so a caller may retry with more bits. */
    public CpuMaskFormatException(String input, Code code, String reason, long bit) {
        super(reason);
        this.input = input;
        this.code = code;
        this.bit = bit;
    }

    public String input() {
        return input;
    }

    public Code code() {
        return code;
    }

    /** For {@code ERANGE}: the CPU number at or beyond nbits that the list asked for. */
    public OptionalLong bit() {
        return bit < 0 ? OptionalLong.empty() : OptionalLong.of(bit);
    }
}
