package dev.corescope.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The one Jackson mapper corescope uses, and reading results files with a size cap and errors in
 * plain words. Files are written whole or not at all by {@code sys.internal.AtomicFile}.
 */
public final class Json {

    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private Json() {
    }

    /** {@code value} as indented JSON, ending with a newline. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The largest results or input file corescope reads: 256 MiB, refused before anything is read
     * (docs/files-and-signals.md: a tour writes about 0.2 MiB; a file near the cap needs a heap of some 3 GB).
     */
    public static final long MAX_INPUT_BYTES = 256L << 20;

    /** How many files {@link #readTreeChecked} read as a whole JSON tree: tests check that a good results file needs none. */
    static final LongAdder TREES_READ = new LongAdder();

    /**
     * The JSON tree of {@code file}, whose size is checked first; a FIFO or {@code /dev/stdin}
     * is read through a stream that stops at {@link #MAX_INPUT_BYTES}. Anything that is not
     * readable JSON of that size is a {@link BadResultsFileException} saying why.
     */
    public static JsonNode readTreeChecked(Path file) {
        TREES_READ.increment();
        if (!Files.exists(file)) throw new BadResultsFileException(file, "no such file");
        if (Files.isDirectory(file)) throw new BadResultsFileException(file, "is a directory, not a results file");
        if (!Files.isReadable(file)) throw new BadResultsFileException(file, "not readable");
        try {
            if (Files.isRegularFile(file) && Files.size(file) > MAX_INPUT_BYTES) throw tooLarge(file, Files.size(file));
            try (InputStream in = new BoundedInput(Files.newInputStream(file), file)) {
                JsonNode tree = MAPPER.readTree(in);
                return tree == null ? MissingNode.getInstance() : tree;
            }
        } catch (StreamConstraintsException e) {
            // valid JSON, but deeper, longer or larger than the parser's limits: say that, not "not JSON"
            String why = String.valueOf(e.getOriginalMessage()).lines().findFirst().orElse("").replaceAll("\\(.*\\)", "").strip();
            throw new BadResultsFileException(file, "JSON beyond what corescope reads (" + why + "); a results file is far smaller and flatter");
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            throw new BadResultsFileException(file, "not JSON" + (loc == null ? "" : " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")"));
        } catch (IOException e) {
            throw new BadResultsFileException(file, "cannot be read: " + e.getMessage());
        }
    }

    private static BadResultsFileException tooLarge(Path file, long bytes) {
        return new BadResultsFileException(file, (bytes < 0 ? "more than " + (MAX_INPUT_BYTES >> 20) + " MiB" : (bytes >> 20) + " MiB")
                + "; corescope reads results files of at most " + (MAX_INPUT_BYTES >> 20) + " MiB (a tour writes well under 1 MiB)");
    }

    /** An input stream that fails once more than {@link #MAX_INPUT_BYTES} came through it. */
    private static final class BoundedInput extends FilterInputStream {
        private final Path file;
        private long read;

        BoundedInput(InputStream in, Path file) {
            super(in);
            this.file = file;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) count(1);
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0) count(n);
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > MAX_INPUT_BYTES) throw tooLarge(file, -1);
        }
    }

    /**
     * Reads a results file a user names (fields this version does not know are skipped, so files
     * from a newer corescope still read): anything that is not a readable {@code corescope-results/1}
     * file of a sane size and shape is a {@link BadResultsFileException} saying why.
     */
    public static ResultsFile readResultsChecked(Path file) {
        return readResultsStreaming(file).orElseGet(() -> readResultsChecked(file, readTreeChecked(file)));
    }

    /**
     * A results file bound straight from its bytes, without the JSON tree that
     * {@link #readTreeChecked} builds (about ten times the file in the heap, issue 28): the
     * common case, a well-formed {@code corescope-results/1} file, costs the model only. Empty
     * when anything is not as expected (not an object, another schema, a type or shape Jackson
     * or {@link ResultsShape} refuses, no {@code results}): the caller then reads the tree, whose
     * path says exactly what is wrong. A file that cannot be read at all or is too large is
     * refused here as there.
     */
    public static Optional<ResultsFile> readResultsStreaming(Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) return Optional.empty();
        ResultsFile f;
        try {
            if (Files.size(file) > MAX_INPUT_BYTES) throw tooLarge(file, Files.size(file));
            try (InputStream in = new BoundedInput(new BufferedInputStream(Files.newInputStream(file), 1 << 16), file)) {
                int first = firstByte(in);
                if (first != '{') return Optional.empty();
            }
            try (InputStream in = new BoundedInput(Files.newInputStream(file), file)) {
                f = MAPPER.readerFor(ResultsFile.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(in);
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof BadResultsFileException bad) throw bad;
            return Optional.empty();
        }
        if (f == null || !ResultsFile.SCHEMA.equals(f.schema()) || f.results().isEmpty()) return Optional.empty();
        // the one inner list the model does not copy (List.copyOf refuses the others' nulls while binding)
        if (f.layouts().stream().anyMatch(l -> l.rows() != null && l.rows().contains(null))) return Optional.empty();
        try {
            ResultsShape.check(file, f);
        } catch (BadResultsFileException e) {
            return Optional.empty();
        }
        return Optional.of(f);
    }

    /** The first byte that is not JSON white space, or -1. */
    static int firstByte(InputStream in) throws IOException {
        int b;
        do {
            b = in.read();
        } while (b == ' ' || b == '\t' || b == '\n' || b == '\r');
        return b;
    }

    /** {@link #readResultsChecked(Path)} of a tree already read from {@code file}. */
    public static ResultsFile readResultsChecked(Path file, JsonNode tree) {
        if (tree == null || tree.isMissingNode() || !tree.isObject()) throw new BadResultsFileException(file, "not a corescope results file (not a JSON object)");
        var schema = tree.get("schema");
        if (schema == null || !ResultsFile.SCHEMA.equals(schema.asText())) {
            throw new BadResultsFileException(file, "not a corescope results file (schema " + (schema == null ? "missing" : "'" + schema.asText() + "'")
                    + ", expected " + ResultsFile.SCHEMA + ")");
        }
        ResultsShape.checkTree(file, tree);
        ResultsFile f;
        try {
            f = MAPPER.readerFor(ResultsFile.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(tree);
        } catch (IOException e) {
            throw new BadResultsFileException(file, wrongType(e, tree));
        }
        ResultsShape.check(file, f);
        return f;
    }

    /**
     * A binding failure in plain words, by the field's JSON path: {@code results[0].score:
     * expected a number, found a string}, not Jackson's message with its Java class names.
     */
    static String wrongType(IOException e, JsonNode tree) {
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            StringBuilder path = new StringBuilder();
            StringBuilder pointer = new StringBuilder();
            for (JsonMappingException.Reference r : m.getPath()) {
                if (r.getFieldName() != null) {
                    if (!path.isEmpty()) path.append('.');
                    path.append(r.getFieldName());
                    pointer.append('/').append(r.getFieldName().replace("~", "~0").replace("/", "~1"));
                } else if (r.getIndex() >= 0) {
                    path.append('[').append(r.getIndex()).append(']');
                    pointer.append('/').append(r.getIndex());
                }
            }
            JsonNode found = tree.at(pointer.toString());
            String why = m.getOriginalMessage();
            if (why != null && why.startsWith(Pointers.POINTS_AT)) return path + ": " + why;
            String expected = m instanceof MismatchedInputException mi && mi.getTargetType() != null ? kind(mi.getTargetType()) : null;
            if (expected != null && !found.isMissingNode()) return path + ": expected " + expected + ", found " + kind(found);
            if (expected != null) return path + ": expected " + expected;
            return path + ": " + (found.isMissingNode() ? "not understood" : kind(found) + " that does not fit here");
        }
        String msg = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
        return "a field has the wrong type: " + msg.replaceAll("`[\\w.$]+`", "a value").replaceAll("\\(class [\\w.$]+\\)", "");
    }

    /**
     * Why a family's part of a results file ({@code part}: {@code models.c2c}) could not be
     * rendered, in plain words: a binding failure by its path inside the part, anything else as
     * "not the shape this corescope reads".
     */
    public static String describeModelFailure(String part, RuntimeException e, JsonNode model) {
        if (model != null && !model.isObject()) return part + ": expected an object, found " + kind(model);
        if (e.getCause() instanceof JsonMappingException m && model != null && !m.getPath().isEmpty()) {
            return part + "." + wrongType(m, model);
        }
        if (model != null && causedByNull(e)) {
            String field = firstNullField(model, "");
            return part + (field == null ? ": a field it needs is missing or null" : "." + field + ": null where a value is needed");
        }
        if (e.getCause() instanceof JsonMappingException) return part + ": not the shape this corescope reads";
        String why = e instanceof NullPointerException || e.getMessage() == null ? "not understood" : e.getMessage().lines().findFirst().orElse("");
        return part + ": not the shape this corescope reads (" + why.replaceAll("`[\\w.$<>]+`", "a value") + ")";
    }

    /** True when a null value (a field missing or null in the file) is somewhere in {@code e}'s causes. */
    private static boolean causedByNull(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NullPointerException) return true;
        }
        return false;
    }

    /** The path ({@code cpus}, {@code pairs[0].java}) of the first null value in {@code node}; null when there is none. */
    private static String firstNullField(JsonNode node, String at) {
        if (node.isObject()) {
            for (var it = node.properties().iterator(); it.hasNext(); ) {
                var f = it.next();
                String path = at.isEmpty() ? f.getKey() : at + "." + f.getKey();
                if (f.getValue().isNull()) return path;
                String inner = firstNullField(f.getValue(), path);
                if (inner != null) return inner;
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String path = at + "[" + i + "]";
                if (node.get(i).isNull()) return path;
                String inner = firstNullField(node.get(i), path);
                if (inner != null) return inner;
            }
        }
        return null;
    }

    private static String kind(Class<?> type) {
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) return "a number";
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class
                || type == short.class || type == Short.class) return "a whole number";
        if (type == boolean.class || type == Boolean.class) return "true or false";
        if (CharSequence.class.isAssignableFrom(type)) return "a string";
        if (type.isArray() || Collection.class.isAssignableFrom(type)) return "a list";
        return "an object";
    }

    private static String kind(JsonNode n) {
        return switch (n.getNodeType()) {
            case ARRAY -> "a list";
            case OBJECT, POJO -> "an object";
            case NUMBER -> "a number";
            case STRING -> "a string";
            case BOOLEAN -> "true or false";
            case NULL -> "null";
            default -> "a value";
        };
    }
}
