package dev.corescope.cpumask;

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

    public CpuMaskFormatException(String input, Code code, String reason) {
        super(reason);
        this.input = input;
        this.code = code;
    }

    public String input() {
        return input;
    }

    public Code code() {
        return code;
    }
}
