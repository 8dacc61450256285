package dev.corescope.text;

/**
 * Shortening of strings for one line of output: the one place that decides how a long value is
 * cut. Lengths count characters; the cut is marked with {@code ...}.
 */
public final class Shorten {

    private Shorten() {
    }

    /** {@return {@code s} (or null) cut to at most {@code max} characters (3 or more), its start kept: {@code abcdef...}} */
    public static String end(String s, int max) {
        if (s == null || s.length() <= max) return s;
        return s.substring(0, Math.max(0, max - 3)) + "...";
    }

    /** {@return {@code s} (or null) cut to at most {@code max} characters (3 or more), its end kept: {@code ...uvwxyz}} */
    public static String start(String s, int max) {
        if (s == null || s.length() <= max) return s;
        return "..." + s.substring(s.length() - Math.max(0, max - 3));
    }

    /**
     * {@return the line, white space kept, with every word longer than {@code limit} (20 or more) cut to its
     * start and its length ({@code 0,1,2,...(10240 characters)})} A long CPU list or file name is quoted, not pasted whole.
     */
    public static String words(String line, int limit) {
        StringBuilder out = new StringBuilder(Math.min(line.length(), 1024));
        int i = 0;
        while (i < line.length()) {
            int j = i;
            boolean space = Character.isWhitespace(line.charAt(i));
            while (j < line.length() && Character.isWhitespace(line.charAt(j)) == space) j++;
            String word = line.substring(i, j);
            if (!space && word.length() > limit) {
                out.append(word, 0, Math.max(0, limit - 20)).append("...(").append(word.length()).append(" characters)");
            } else {
                out.append(word);
            }
            i = j;
        }
        return out.toString();
    }
}
