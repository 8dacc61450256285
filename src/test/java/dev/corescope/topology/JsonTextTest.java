package dev.corescope.topology;

import dev.corescope.report.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The library writes its JSON without Jackson ({@link JsonText}); what it writes must be what
 * the tool's Jackson mapper writes, so {@code topology --format json} did not change when the
 * library lost the dependency.
 */
class JsonTextTest {

    static List<String> trees() {
        return Fixtures.names();
    }

    @ParameterizedTest
    @MethodSource("trees")
    void theTopologyReportIsWhatJacksonWrites(String name) {
        Topology t = Topology.read(Fixtures.root(name));
        assertEquals(Json.write(TopologyJson.toMap(t)), TopologyJson.render(t));
    }

    @Test
    void theLiveMachineToo() {
        Topology t = Topology.live();
        assertEquals(Json.write(TopologyJson.toMap(t)), TopologyJson.render(t));
    }

    @Test
    void everyKindOfValueAndEscape() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "quote \" backslash \\ slash / tab \t nl \n cr \r bs \b ff \f nul \u0000 us \u001f del \u007f é ☃");
        m.put("i", 42);
        m.put("l", -1L << 40);
        m.put("d", 0.1);
        m.put("big", 1.0e21);
        m.put("small", 1.0e-7);
        m.put("nan", Double.NaN);
        m.put("inf", Double.NEGATIVE_INFINITY);
        m.put("t", true);
        m.put("n", null);
        m.put("empty list", List.of());
        m.put("empty map", Map.of());
        List<Object> nested = new ArrayList<>();
        nested.add(Map.of("a", 1));
        nested.add(List.of(1, List.of(2, 3)));
        nested.add(Map.of());
        m.put("nested", nested);
        m.put("deep", Map.of("x", Map.of("y", List.of(Map.of("z", "w")))));
        assertEquals(Json.write(m), JsonText.write(m));
    }
}
