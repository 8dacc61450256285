package dev.corescope.report;

import dev.corescope.text.Markup;
import dev.corescope.text.Shorten;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.StringReader;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An SVG picture read from a results file, rebuilt from an allow-list before it goes into a
 * page: a results file is input from anyone (a colleague's attachment, a bug report), and a
 * {@code <script>}, an {@code onload=} or a {@code <foreignObject>} in its topology picture
 * would otherwise run when the report is opened.
 *
 * <p>The picture is parsed as XML (no DOCTYPE, no entities, nothing fetched), then written out
 * again element by element: only the drawing elements corescope's own pictures use (and a few
 * plain shapes), only presentation attributes, no event handlers, no links, no {@code style},
 * no {@code url(...)} other than a reference to an element of the same picture
 * ({@code url(#offline)}). Text is escaped. Whatever is not allowed is left out and counted.
 */
public final class SvgSanitizer {

    static final String SVG_NS = "http://www.w3.org/2000/svg";

    private static final Set<String> ELEMENTS = Set.of(
            "svg", "g", "defs", "pattern", "title", "desc", "text", "tspan",
            "rect", "line", "circle", "ellipse", "polyline", "polygon", "path");

    private static final Set<String> ATTRIBUTES = Set.of(
            "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy",
            "width", "height", "viewBox", "preserveAspectRatio", "points", "d", "transform",
            "id", "class", "patternUnits", "patternTransform",
            "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity",
            "stroke-linecap", "stroke-linejoin", "opacity",
            "font-family", "font-size", "font-weight", "font-style", "text-anchor", "dominant-baseline");

    /** {@code url(#name)}, the only reference allowed: to an element of the same picture. */
    private static final Pattern LOCAL_URL = Pattern.compile("url\\(#[A-Za-z0-9_.-]+\\)");

    /** The picture rebuilt from what is allowed, and how many elements and attributes were left out. */
    public record Result(String svg, int removed) {
    }

    private SvgSanitizer() {
    }

    /**
     * An SVG picture as an element of a page, rebuilt by {@link #sanitize} (only drawing
     * elements and presentation attributes): anything else is left out with a note, and a
     * picture that is not well-formed SVG is replaced by a note. {@code what} names it in the notes.
     */
    static String embed(String svg, String what) {
        try {
            Result r = sanitize(inline(svg));
            if (r.removed() == 0) return r.svg();
            return r.svg() + "<p class=\"note\">" + r.removed() + " part" + (r.removed() == 1 ? "" : "s")
                    + " of this " + Markup.escape(what) + " that are not plain drawing (scripts, links, event handlers, styles) were left out.</p>";
        } catch (IllegalArgumentException e) {
            return "<p class=\"note\">The " + Markup.escape(what) + " in this file cannot be shown: " + Markup.escape(Shorten.end(e.getMessage(), 120)) + "</p>";
        }
    }

    /** An SVG document as an element of the page: without an XML declaration or doctype. */
    static String inline(String svg) {
        String s = svg.strip();
        if (s.startsWith("<?xml")) s = s.substring(s.indexOf("?>") + 2).strip();
        if (s.startsWith("<!DOCTYPE")) s = s.substring(s.indexOf('>') + 1).strip();
        return s;
    }

    /**
     * {@code svg} rebuilt from the allow-list; throws {@link IllegalArgumentException} when it is
     * not a well-formed SVG document (then nothing of it should be shown).
     */
    public static Result sanitize(String svg) {
        Document doc = parse(svg);
        Element root = doc.getDocumentElement();
        if (!isSvg(root) || !"svg".equals(root.getLocalName())) {
            throw new IllegalArgumentException("not an SVG picture (its root is <" + root.getNodeName() + ">)");
        }
        StringBuilder out = new StringBuilder(svg.length());
        int[] removed = {0};
        write(root, out, removed, true);
        return new Result(out.toString(), removed[0]);
    }

    private static Document parse(String svg) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new DefaultHandler()); // silent: the JDK's default prints [Fatal Error] lines
            return b.parse(new InputSource(new StringReader(svg)));
        } catch (SAXException e) {
            throw new IllegalArgumentException("not well-formed SVG: " + e.getMessage(), e);
        } catch (ParserConfigurationException | IOException e) {
            throw new IllegalStateException("the JDK's XML parser cannot be configured: " + e.getMessage(), e);
        }
    }

    private static boolean isSvg(Element e) {
        return SVG_NS.equals(e.getNamespaceURI());
    }

    private static void write(Element e, StringBuilder out, int[] removed, boolean root) {
        out.append('<').append(e.getLocalName());
        if (root) out.append(" xmlns=\"").append(SVG_NS).append('"');
        NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            Attr a = (Attr) attrs.item(i);
            if (XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(a.getNamespaceURI())) continue;
            if (a.getNamespaceURI() == null && ATTRIBUTES.contains(a.getLocalName()) && safeValue(a.getValue())) {
                out.append(' ').append(a.getLocalName()).append("=\"").append(Markup.escape(a.getValue())).append('"');
            } else {
                removed[0]++;
            }
        }
        out.append('>');
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
            switch (c.getNodeType()) {
                case Node.ELEMENT_NODE -> {
                    Element child = (Element) c;
                    if (isSvg(child) && ELEMENTS.contains(child.getLocalName())) {
                        write(child, out, removed, false);
                    } else {
                        removed[0]++;
                    }
                }
                case Node.TEXT_NODE, Node.CDATA_SECTION_NODE -> out.append(Markup.escape(c.getNodeValue()));
                default -> {
                    // comments and processing instructions: not part of the picture
                }
            }
        }
        out.append("</").append(e.getLocalName()).append('>');
    }

    /** A presentation value: no reference other than {@code url(#id)}, no script scheme, no CSS escape. */
    private static boolean safeValue(String v) {
        String s = v.toLowerCase(Locale.ROOT);
        if (s.contains("javascript:") || s.contains("expression(") || s.contains("\\") || s.contains("@import")) return false;
        if (s.contains("url(")) return LOCAL_URL.matcher(v.strip()).matches();
        return true;
    }
}
