package dev.corescope.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializerProvider;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * How a family's model points at the rows of its results file instead of holding a copy of
 * them: a row by its {@link RowKey}, a layout by its name and params, a histogram by its
 * benchmark, variant and implementation. A model's field says so with
 * {@code @JsonSerialize(using = Pointers.RowOut.class) @JsonDeserialize(using = Pointers.RowIn.class)}
 * (or the layout and histogram pair); the model is then written with the pointer and read back,
 * through {@link #reader}, with the file's own row in its place. A file written before models
 * pointed holds the whole row there, and that still reads.
 */
public final class Pointers {

    /** The reading context's attribute that holds the results file the pointers point into. */
    private static final Object FILE = ResultsFile.class;

    /** How a pointer that finds nothing is reported ({@code points at what layouts[] does not hold}). */
    static final String POINTS_AT = "points at what ";

    private Pointers() {
    }

    /** A reader of a model saved in {@code file}, which finds what the model points at in {@code file}. */
    public static ObjectReader reader(ResultsFile file) {
        return Json.MAPPER.reader().withAttribute(FILE, file);
    }

    /** Writes a row as its key: benchmark, variant, implementation, metric, params. */
    public static final class RowOut extends JsonSerializer<Result> {
        @Override
        public void serialize(Result r, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartObject();
            g.writeStringField("benchmark", r.benchmark());
            g.writeStringField("variant", r.variant());
            g.writeStringField("implementation", r.implementation());
            g.writeStringField("metric", r.metric());
            if (!r.params().isEmpty()) p.defaultSerializeField("params", r.params(), g);
            g.writeEndObject();
        }
    }

    /**
     * Reads a row pointer ({@link RowOut}) as the file's row; a whole row (files from before) as the file's row of its
     * key too (the rows are the figures' one home: an edited file shows its rows), or as itself where results[] has none.
     */
    public static final class RowIn extends JsonDeserializer<Result> {
        @Override
        public Result deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode n = ctxt.readTree(p);
            if (n.has("score")) {
                Result copy = Json.MAPPER.treeToValue(n, Result.class);
                ResultsFile file = (ResultsFile) ctxt.getAttribute(FILE);
                return file == null ? copy : file.results().stream().filter(r -> r.key().equals(copy.key())).findFirst().orElse(copy);
            }
            RowKey key = new RowKey(text(n, "benchmark"), text(n, "variant"), text(n, "implementation"), text(n, "metric"), params(n));
            return find(ctxt, "rows", f -> index(f.results(), Result::key), key, "results[]");
        }
    }

    /**
     * The rows {@code models.family} holds whole (files from before models pointed) whose figures differ from the
     * file's own row of the same key, or that results[] lacks: where the model's own judgements (a change found
     * significant, a verdict) were drawn from figures the file's rows no longer hold.
     */
    public static List<RowKey> disagreements(ResultsFile file, String family) {
        JsonNode model = file.models().get(family);
        if (model == null) return List.of();
        Map<RowKey, Result> rows = index(file.results(), Result::key);
        Map<RowKey, Boolean> out = new LinkedHashMap<>();
        List<JsonNode> todo = new ArrayList<>(List.of(model));
        while (!todo.isEmpty()) {
            JsonNode n = todo.removeLast();
            if (n.has("score") && n.has("benchmark") && n.has("metric")) {
                Result saved;
                try {
                    saved = Json.MAPPER.convertValue(n, Result.class);
                } catch (IllegalArgumentException notARow) {
                    continue;
                }
                Result now = rows.get(saved.key());
                if (now == null || now.score() != saved.score() || !Objects.equals(now.error(), saved.error())) out.put(saved.key(), true);
            } else {
                n.forEach(todo::add);
            }
        }
        return List.copyOf(out.keySet());
    }

    /** The note a family's text carries when its saved model and the file's rows {@linkplain #disagreements disagree}; empty when they agree. */
    public static Optional<String> disagreementNote(ResultsFile file, String family) {
        List<RowKey> differ = disagreements(file, family);
        if (differ.isEmpty()) return Optional.empty();
        RowKey first = differ.getFirst();
        return Optional.of("models." + family + " was saved with " + differ.size() + (differ.size() == 1 ? " row" : " rows")
                + " that results[] holds with other figures or not at all (e.g. " + first.variant() + " " + first.implementation()
                + " " + first.metric() + " " + first.params() + "): the tables show the file's rows, but what the model judged from "
                + "its own copy (a change found significant, a saved verdict) may not hold for them; the verdicts are judged from the rows");
    }

    /** Writes a layout as its name and params. */
    public static final class LayoutOut extends JsonSerializer<Layout> {
        @Override
        public void serialize(Layout l, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartObject();
            g.writeStringField("name", l.name());
            if (l.params() != null && !l.params().isEmpty()) p.defaultSerializeField("params", l.params(), g);
            g.writeEndObject();
        }
    }

    /** Reads a layout pointer ({@link LayoutOut}) as the file's layout; a whole layout (files from before) as itself. */
    public static final class LayoutIn extends JsonDeserializer<Layout> {
        @Override
        public Layout deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode n = ctxt.readTree(p);
            if (n.has("sizeBytes")) return Json.MAPPER.treeToValue(n, Layout.class);
            return find(ctxt, "layouts", f -> index(f.layouts(), l -> layoutKey(l.name(), l.params())),
                    layoutKey(text(n, "name"), params(n)), "layouts[]");
        }
    }

    /** Writes a histogram as its benchmark, variant and implementation. */
    public static final class HistogramOut extends JsonSerializer<Histogram> {
        @Override
        public void serialize(Histogram h, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartObject();
            g.writeStringField("benchmark", h.benchmark());
            g.writeStringField("variant", h.variant());
            g.writeStringField("implementation", h.implementation());
            g.writeEndObject();
        }
    }

    /** Reads a histogram pointer ({@link HistogramOut}) as the file's histogram; a whole one (files from before) as itself. */
    public static final class HistogramIn extends JsonDeserializer<Histogram> {
        @Override
        public Histogram deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode n = ctxt.readTree(p);
            if (n.has("counts")) return Json.MAPPER.treeToValue(n, Histogram.class);
            return find(ctxt, "histograms", f -> index(f.histograms(), h -> List.of(h.benchmark(), h.variant(), h.implementation())),
                    List.of(text(n, "benchmark"), text(n, "variant"), text(n, "implementation")), "histograms[]");
        }
    }

    private static List<Object> layoutKey(String name, Map<String, ?> params) {
        return List.of(String.valueOf(name), stringValues(params));
    }

    private static <K, V> Map<K, V> index(List<V> items, Function<V, K> key) {
        Map<K, V> out = new HashMap<>();
        for (V v : items) out.putIfAbsent(key.apply(v), v);
        return out;
    }

    /** What {@code key} points at in the file being read; the index of the file's section is built once per read. */
    @SuppressWarnings("unchecked")
    private static <K, V> V find(DeserializationContext ctxt, String section, Function<ResultsFile, Map<K, V>> indexOf, K key,
                                 String where) throws JsonMappingException {
        ResultsFile file = (ResultsFile) ctxt.getAttribute(FILE);
        if (file == null) throw JsonMappingException.from(ctxt, "a model that points at " + where + " read without its results file");
        Object cacheKey = List.of(FILE, section);
        Map<K, V> index = (Map<K, V>) ctxt.getAttribute(cacheKey);
        if (index == null) {
            index = indexOf.apply(file);
            ctxt.setAttribute(cacheKey, index);
        }
        V v = index.get(key);
        if (v == null) throw JsonMappingException.from(ctxt, POINTS_AT + where + " does not hold");
        return v;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Map<String, String> params(JsonNode n) {
        Map<String, String> out = new TreeMap<>();
        JsonNode ps = n.get("params");
        if (ps != null) ps.properties().forEach(e -> out.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString()));
        return out;
    }

    private static Map<String, String> stringValues(Map<String, ?> params) {
        Map<String, String> out = new TreeMap<>();
        if (params != null) params.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }
}
