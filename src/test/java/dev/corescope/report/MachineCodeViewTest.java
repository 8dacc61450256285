package dev.corescope.report;

import dev.corescope.testing.SavedRuns;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The machine code section: in the results file, as text (bloat-o-meter style deltas) and on the HTML page. */
class MachineCodeViewTest {

    private static MachineCode fn(String variant, long bytes, int insns, int loads, int loopLoads, String disassembly) {
        return new MachineCode("timerbase", variant, "native", Map.of(), "cs_timerbase_lock_" + variant, bytes, insns, loads, 0,
                new MachineCode.HotLoop("innermost", 0x10, 0x5b, insns - 4, loads, 0), disassembly, null);
    }

    private static final List<MachineCode> CODE = List.of(
            fn("before", 100, 29, 3, 3, "   0:  mov    0x20(%rcx),%edx\n"),
            fn("before_two_loads", 97, 29, 4, 4, "   0:  mov    (%rdi,%rsi,8),%r9 # <script>alert(1)</script>\n"),
            fn("after", 92, 26, 4, 2, "   0:  ret\n"),
            new MachineCode("timerbase", "after", "java", Map.of(), "TimerBases::lockTimerBaseAfter", null, null, null, null, null,
                    null, "C2's machine code is not shown: -XX:+PrintAssembly needs the hsdis plugin"));

    @Test
    void textPrintsEachVariantAgainstTheFirstAsBloatOMeterDoesAndWhyJavaIsMissing() {
        String text = MachineCodeText.document(CODE, "timerbase").render(Integer.MAX_VALUE);
        assertTrue(text.contains("before -> after"), text);
        assertTrue(text.contains("100 -> 92 (-8)"), text);
        assertTrue(text.contains("29 -> 26 (-3)"), text);
        assertTrue(text.contains("3 -> 4 (+1)"), text);
        assertTrue(text.contains("java: C2's machine code is not shown"), text);
        assertEquals("", MachineCodeText.document(CODE, "cpumask").render(Integer.MAX_VALUE));
    }

    @Test
    void theResultsFileCarriesTheCodeAndReadsItBack() throws Exception {
        ResultsFile f = ResultsFile.builder().code(CODE).build();
        String json = Json.write(f);
        assertTrue(json.contains("\"code\""), json);
        assertTrue(json.contains("\"hotLoop\""), json);
        Path tmp = Files.createTempFile("code", ".json");
        try {
            Files.writeString(tmp, json);
            ResultsFile back = SavedRuns.lenient(tmp);
            assertEquals(CODE, back.code());
        } finally {
            Files.delete(tmp);
        }
        assertFalse(Json.write(ResultsFile.builder().build()).contains("\"code\""),
                "a file without machine code has no code field");
    }

    @Test
    void htmlShowsTheDisassembliesSideBySideInOneCollapsibleBlockAndEscapesThem() {
        Result r = Result.builder().benchmark("timerbase").variant("before").implementation("native").metric("op").unit("ns/op")
                .score(2.5).error(0.1).samples(10).cpus("").params(Map.of()).build();
        ResultsFile f = ResultsFile.builder().results(List.of(r)).code(CODE).build();
        String html = HtmlReport.page(List.of(new HtmlReport.Input("a.json", f)), FamilyViews.NONE, Instant.parse("2026-01-01T00:00:00Z"));
        assertTrue(html.contains("<details class=\"code\" data-family=\"timerbase\">"), html);
        assertTrue(html.contains("<div class=\"code-side\">"), html);
        assertEquals(3, html.split("<pre>", -1).length - 1, "one disassembly per C variant");
        assertFalse(html.contains("<script>alert"), "the disassembly is escaped");
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    }
}
