package dev.corescope.report;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * A row's params held compactly, immutable, in the order given (or sorted by name): the rows of
 * a file repeat a few sets of names, so each set is one shared array and the values sit in an
 * array beside it. A {@code LinkedHashMap} per row was most of a large file's heap (issue 35).
 */
final class Params<V> extends AbstractMap<String, V> {

    /** The sets of names seen, each kept once; bounded, so a file of ever new names only stops sharing them. */
    private static final Map<List<String>, String[]> NAMES = new ConcurrentHashMap<>();

    private final String[] names;
    private final Object[] values;

    private Params(String[] names, Object[] values) {
        this.names = names;
        this.values = values;
    }

    /** {@code params} in their order, string values shared ({@link String#intern}). */
    static Map<String, Object> of(Map<String, ?> params) {
        return make(params, false, v -> v instanceof String s ? s.intern() : v);
    }

    /** {@code params} sorted by name, each value as its {@code String.valueOf} (shared). */
    static Map<String, String> sortedText(Map<String, ?> params) {
        return make(params, true, v -> String.valueOf(v).intern());
    }

    private static <V> Map<String, V> make(Map<String, ?> params, boolean sorted, Function<Object, Object> value) {
        if (params == null || params.isEmpty()) return Map.of();
        List<Map.Entry<String, ?>> list = new ArrayList<>(params.entrySet());
        if (sorted) list.sort((a, b) -> a.getKey().compareTo(b.getKey()));
        String[] names = list.stream().map(e -> e.getKey().intern()).toArray(String[]::new);
        Object[] values = list.stream().map(e -> value.apply(e.getValue())).toArray();
        String[] shared = NAMES.size() < 1024 ? NAMES.computeIfAbsent(List.of(names), k -> names) : names;
        return new Params<>(shared, values);
    }

    @Override
    public int size() {
        return names.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return Arrays.asList(names).contains(key);
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int i = Arrays.asList(names).indexOf(key);
        return i < 0 ? null : (V) values[i];
    }

    @Override
    public Set<Entry<String, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return names.length;
            }

            @Override
            @SuppressWarnings("unchecked")
            public Iterator<Entry<String, V>> iterator() {
                return IntStream.range(0, names.length).<Entry<String, V>>mapToObj(i -> new SimpleImmutableEntry<>(names[i], (V) values[i])).iterator();
            }
        };
    }
}
