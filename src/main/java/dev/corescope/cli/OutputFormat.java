package dev.corescope.cli;

import picocli.CommandLine;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code --format} of every command: text for people, json for scripts, svg where a command
 * draws, html where it makes a page. Each command names what it accepts with one of the
 * converters below, so its error lists those and nothing it would refuse.
 */
enum OutputFormat {
    text, json, svg, html, hwloc_xml, prometheus, nfd;

    /** What the user types: the name, with {@code -} for {@code _} ({@code hwloc-xml}). */
    String word() {
        return name().replace('_', '-');
    }

    /** The format {@code file}'s extension asks for when {@code accepted} takes it, as lstopo picks it; else text. */
    static OutputFormat byName(Path file, Only accepted) {
        String name = file == null || file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = name.lastIndexOf('.');
        OutputFormat f = switch (dot < 0 ? "" : name.substring(dot + 1)) {
            case "json" -> json;
            case "svg" -> svg;
            case "xml" -> hwloc_xml;
            case "html", "htm" -> html;
            default -> text;
        };
        return accepted.accepted().contains(f) ? f : text;
    }

    /**
     * Some formats; a refusal lists them. No picocli type here: a class in the AOT cache that names
     * one (a converter, an exception it throws or catches) loads picocli from the jar at every start.
     */
    record Only(List<OutputFormat> accepted) {
        static final Only TEXT_OR_JSON = new Only(List.of(text, json));
        static final Only FOR_TOPOLOGY = new Only(List.of(text, json, svg, hwloc_xml));

        /** The format named {@code value}; else an {@link IllegalArgumentException} that lists the accepted. */
        OutputFormat convert(String value) {
            for (OutputFormat f : accepted) if (f.word().equals(value)) return f;
            throw new IllegalArgumentException(why(value));
        }

        String why(String value) {
            List<String> names = accepted.stream().map(OutputFormat::word).toList();
            String list = String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();  // two or more
            return "expected " + list + " but was '" + Main.shorten(value) + "'";
        }

        /** The line picocli prints for a refused value, for a command started without picocli ({@link ShortCommands}). */
        UsageException refused(OutputFormat f) {
            return new UsageException("Invalid value for option '--format': " + why(f.word()) + " (see --help)");
        }
    }

    /** picocli's converter of {@code --format}: one of {@link Only}'s formats. */
    abstract static class Converter implements CommandLine.ITypeConverter<OutputFormat> {
        private final Only only;

        Converter(Only only) {
            this.only = only;
        }

        Converter(OutputFormat... accepted) {
            this(new Only(List.of(accepted)));
        }

        @Override
        public OutputFormat convert(String value) {
            try {
                return only.convert(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** mask, affinity, jitter, reservations. */
    static final class TextOrJson extends Converter {
        TextOrJson() {
            super(Only.TEXT_OR_JSON);
        }
    }

    /** bench and topology, which draw. */
    static final class TextJsonOrSvg extends Converter {
        TextJsonOrSvg() {
            super(text, json, svg);
        }
    }

    /** topology: the drawing commands' three, and hwloc's XML. */
    static final class ForTopology extends Converter {
        ForTopology() {
            super(Only.FOR_TOPOLOGY);
        }
    }

    /** export: node_exporter's textfile format, or a node-feature-discovery feature file. */
    static final class PrometheusOrNfd extends Converter {
        PrometheusOrNfd() {
            super(prometheus, nfd);
        }
    }

    /** compare: its html is the report page's before/after view. */
    static final class TextJsonOrHtml extends Converter {
        TextJsonOrHtml() {
            super(text, json, html);
        }
    }

    /** report: the page, or the text bench printed. */
    static final class HtmlOrText extends Converter {
        HtmlOrText() {
            super(html, text, svg);
        }
    }
}
