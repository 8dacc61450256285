package dev.corescope.report;

import dev.corescope.text.Markup;
import dev.corescope.text.Shorten;
import dev.corescope.topology.HwlocXmlReader;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologySvg;

import java.io.PrintWriter;
import java.util.Optional;

/**
 * The page's part about the machine a results file was measured on: its topology picture, drawn
 * now from the model the file saved ({@link MachineTopology#hwlocXml()}, read back by the hardened
 * {@link HwlocXmlReader} and drawn by {@link TopologySvg}, as {@code lstopo -i FILE.xml} re-renders
 * hwloc's XML), and the environment table. A file from before the model kept the drawn picture,
 * which is shown through {@link SvgSanitizer} as it always was.
 */
final class MachineHtml {

    private MachineHtml() {
    }

    /** Where a topology the page cannot draw is named in its reasons. */
    static final String SAVED_TOPOLOGY = "the file's topology (hwloc XML)";

    /**
     * The topology of {@code t} as it goes into a page: an inline SVG (rebuilt by the sanitiser
     * even when drawn here, so a picture never reaches the page unchecked), or a note saying why
     * there is none. Empty when the file holds neither a model nor a picture.
     */
    static Optional<String> picture(MachineTopology t) {
        if (t == null) return Optional.empty();
        if (t.hwlocXml() != null) {
            String svg;
            try {
                svg = TopologySvg.render(model(t).orElseThrow());
            } catch (IllegalArgumentException e) {
                return Optional.of("<p class=\"note\">The topology in this file cannot be drawn: "
                        + Markup.escape(Shorten.end(e.getMessage(), 160)) + "</p>");
            }
            return Optional.of(SvgSanitizer.embed(svg, "topology picture"));
        }
        if (t.svg() != null) return Optional.of(SvgSanitizer.embed(t.svg(), "topology picture"));
        return Optional.empty();
    }

    /**
     * The machine the file saved, read back from its hwloc XML; empty when it saved none.
     *
     * @throws IllegalArgumentException why the saved XML is not a topology corescope reads
     */
    static Optional<Topology> model(MachineTopology t) {
        if (t == null || t.hwlocXml() == null) return Optional.empty();
        return Optional.of(HwlocXmlReader.read(t.hwlocXml(), SAVED_TOPOLOGY));
    }

    /** The machine's section of one file: the picture, or why there is none. */
    static void topology(PrintWriter h, int index, MachineTopology t) {
        if (t == null) {
            h.append("<p class=\"note\">No topology in this file (it was written by a corescope without topology support); "
                    + "draw this machine's with <code>./run.sh topology --format svg -o topology.svg</code>.</p>\n");
            return;
        }
        Optional<String> picture = picture(t);
        if (t.summary() != null && picture.isEmpty()) h.append("<p>").append(Markup.escape(t.summary())).append("</p>\n");
        if (picture.isPresent()) {
            h.append("<figure class=\"topology\" id=\"topology-").append(String.valueOf(index))
                    .append("\"><figcaption>Topology of the machine the results were measured on</figcaption>")
                    .append(picture.get()).append("</figure>\n");
        } else {
            h.append("<p class=\"note\">No topology picture: ")
                    .append(Markup.escape(t.error() == null ? "it could not be drawn" : t.error())).append("</p>\n");
        }
    }

    /** The environment as a table, the rows of its text ({@link ResultsText#environmentDocument}). */
    static void environment(PrintWriter h, Environment e) {
        h.append("<table class=\"env\">\n");
        for (String[] r : ResultsText.environmentRows(e)) row(h, r[0], r[1]);
        h.append("</table>\n");
    }

    private static void row(PrintWriter h, String k, String v) {
        h.append("<tr><th>").append(Markup.escape(k)).append("</th><td>").append(Markup.escape(v == null ? "unknown" : v)).append("</td></tr>\n");
    }
}
