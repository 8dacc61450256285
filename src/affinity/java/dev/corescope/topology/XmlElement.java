package dev.corescope.topology;

import dev.corescope.text.Shorten;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * One element of an XML document read whole, with its attributes, children and text: the safe
 * parse under {@link HwlocXmlReader}. StAX with DTDs and external entities off: hwloc's one-line
 * {@code <!DOCTYPE>} is accepted and not loaded; an internal subset (how XXE and "billion laughs"
 * arrive) and any entity reference are refused. Size, nesting and attributes are capped by this
 * class's limits; errors are one-line {@link IllegalArgumentException}s, never to stderr.
 */
record XmlElement(String name, Map<String, String> attrs, List<XmlElement> children, String text) {

    /** Larger than hwloc's XML of a 8192-CPU machine with its I/O tree. */
    static final long MAX_BYTES = 64L << 20;
    static final int MAX_DEPTH = 128;
    static final int MAX_ELEMENTS = 4_000_000;
    /** hwloc writes at most a dozen attributes per element. */
    static final int MAX_ATTRIBUTES = 64;

    String attr(String n) {
        return attrs.get(n);
    }

    List<XmlElement> all(String n) {
        return children.stream().filter(e -> e.name.equals(n)).toList();
    }

    /** The element tree of a document, with the protections of the class comment; {@code name} names it in the reasons. */
    static XmlElement parse(InputStream in, String name) {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        trySet(f, XMLConstants.ACCESS_EXTERNAL_DTD, "");
        trySet(f, XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        // the JDK's own limits (depth 100, 200 attributes, ...) lifted: this class's apply, in its words
        for (String limit : List.of("jdk.xml.maxElementDepth", "jdk.xml.elementAttributeLimit", "jdk.xml.maxXMLNameLimit")) trySet(f, limit, "0");
        f.setXMLReporter((message, type, info, location) -> {
            // warnings are not printed: a refusal is the exception, in one line
        });
        XMLStreamReader r = null;
        try {
            // decoded here, not by the parser: hwloc writes UTF-8, and the parser's own decoder
            // prints "[Fatal Error]" lines to stderr on bytes that are not
            r = f.createXMLStreamReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)));
            List<XmlElement> stack = new ArrayList<>();
            List<StringBuilder> texts = new ArrayList<>();
            XmlElement top = null;
            int elements = 0;
            while (r.hasNext()) {
                int ev = r.next();
                switch (ev) {
                    case XMLStreamConstants.DTD -> {
                        String dtd = r.getText();
                        if (dtd != null && dtd.indexOf('[') >= 0) {
                            throw new IllegalArgumentException(name + ": has a document type with declarations (an internal DTD subset); refused, hwloc's XML has none");
                        }
                    }
                    case XMLStreamConstants.ENTITY_REFERENCE -> throw new IllegalArgumentException(
                            name + ": line " + r.getLocation().getLineNumber() + ": entity reference &" + r.getLocalName() + "; refused, hwloc's XML has none");
                    case XMLStreamConstants.START_ELEMENT -> {
                        if (++elements > MAX_ELEMENTS) throw new IllegalArgumentException(name + ": more than " + MAX_ELEMENTS + " elements");
                        if (stack.size() >= MAX_DEPTH) throw new IllegalArgumentException(name + ": nested deeper than " + MAX_DEPTH + " elements");
                        if (r.getAttributeCount() > MAX_ATTRIBUTES) {
                            throw new IllegalArgumentException(name + ": line " + r.getLocation().getLineNumber() + ": an element with "
                                    + r.getAttributeCount() + " attributes, more than the " + MAX_ATTRIBUTES + " an hwloc XML element may have");
                        }
                        Map<String, String> attrs = new LinkedHashMap<>();
                        for (int i = 0; i < r.getAttributeCount(); i++) attrs.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
                        XmlElement e = new XmlElement(r.getLocalName(), attrs, new ArrayList<>(), null);
                        stack.add(e);
                        texts.add(new StringBuilder());
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
                        if (!texts.isEmpty() && texts.getLast().length() < (1 << 24)) texts.getLast().append(r.getText());
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        XmlElement open = stack.removeLast();
                        XmlElement e = new XmlElement(open.name, open.attrs, open.children, texts.removeLast().toString());
                        if (stack.isEmpty()) top = e;
                        else stack.getLast().children.add(e);
                    }
                    default -> {
                    }
                }
            }
            if (top == null) throw new IllegalArgumentException(name + ": no root element");
            return top;
        } catch (XMLStreamException e) {
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof CharacterCodingException) {
                    throw new IllegalArgumentException(name + ": not UTF-8 text, so not hwloc's XML (which is UTF-8)");
                }
            }
            String msg = String.valueOf(e.getMessage()).replace('\n', ' ').replaceAll("\\s+", " ");
            // the JDK's message starts with "ParseError at [row,col]:[r,c] Message: ..."
            int m = msg.indexOf("Message: ");
            String why = (m >= 0 ? msg.substring(m + 9) : msg).replaceAll("JAXP\\d+:\\s*", "");
            String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNumber() + ": ";
            throw new IllegalArgumentException(name + ": not well-formed XML: " + where + Shorten.end(why.strip(), 120));
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException ignored) {
                    // the stream is closed by its owner
                }
            }
        }
    }

    private static void trySet(XMLInputFactory f, String property, Object value) {
        try {
            f.setProperty(property, value);
        } catch (IllegalArgumentException ignored) {
            // a StAX implementation without the property: DTDs are off anyway
        }
    }
}
