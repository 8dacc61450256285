package dev.corescope.cli;

import picocli.CommandLine;

/** {@code --format}: text for people, json for scripts (and svg where a command draws). */
enum OutputFormat {
    text, json, svg;

    /**
     * {@code --format} of a command that does not draw: its error names text and json only,
     * not every constant of this enum.
     */
    static final class TextOrJson implements CommandLine.ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            if (value.equals("text")) return text;
            if (value.equals("json")) return json;
            throw new CommandLine.TypeConversionException(why(value));
        }

        static String why(String value) {
            return "expected text or json but was '" + Main.shorten(value) + "'";
        }

        /**
         * The same line picocli prints for a value this converter refuses, for a command that
         * was started without picocli ({@link ShortCommands}) and gets svg.
         */
        static UsageException refused(OutputFormat f) {
            return new UsageException("Invalid value for option '--format': " + why(f.name()) + " (see --help)");
        }
    }
}
