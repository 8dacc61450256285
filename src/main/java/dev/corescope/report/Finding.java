package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What a run says of one claim of a seed: the one vocabulary of verdicts, the same words in text,
 * JSON and the page (CONTRACT.md, "Findings"). The rule that picks one is in the report package
 * and explained in docs/verdicts.md; the words {@code significant} and {@code no change
 * detectable} belong to row-level statistics only, never here.
 */
public enum Finding {
    /** The interval excludes zero, lies in the claimed direction and is consistent with the claimed size. */
    SUPPORTS("supports"),
    /** The interval excludes zero in the claimed direction, but the effect is smaller than the claimed size. */
    SUPPORTS_SMALLER("supports the direction; smaller than claimed"),
    /** The interval excludes zero in the claimed direction, but the effect is larger than the claimed size. */
    SUPPORTS_LARGER("supports the direction; larger than claimed"),
    /** The interval excludes zero in the opposite direction, or excludes every effect of the claimed size. */
    CONTRADICTS("contradicts"),
    /** The interval holds both zero and the claimed size. */
    INCONCLUSIVE("inconclusive"),
    /** The claim cannot be tested on this machine (the reason travels with the finding). */
    NOT_TESTABLE("not testable here");

    private final String words;

    Finding(String words) {
        this.words = words;
    }

    /** The finding as people read it and as JSON carries it, e.g. {@code not testable here}. */
    @JsonValue
    public String words() {
        return words;
    }

    /** The finding whose {@link #words()} are {@code words}. */
    @JsonCreator
    public static Finding ofWords(String words) {
        for (Finding f : values()) if (f.words.equals(words)) return f;
        throw new IllegalArgumentException("not a finding: " + words);
    }

    @Override
    public String toString() {
        return words;
    }
}
