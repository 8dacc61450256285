package dev.corescope.text;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A table laid out at a width keeps each row's key on every line it prints. */
class TextTableTest {

    private static TextTable wide() {
        TextTable t = new TextTable(TextTable.Column.key("variant"), TextTable.Column.key("params"),
                TextTable.Column.number("java ns/op"), TextTable.Column.number("java 99.9%"),
                TextTable.Column.number("C ns/op"), TextTable.Column.number("C 99.9%"),
                TextTable.Column.text("cpus").optional(1));
        t.row("first_but", "input=random nrCpus=64", "8.62", "[8.36, 8.88]", "7.36", "[7.23, 7.50]", "0-1");
        t.row("any_but_loop", "input=random nrCpus=64", "8.62", "[8.36, 8.88]", "7.36", "[7.23, 7.50]", "0-1");
        return t;
    }

    @Test
    void atItsNaturalWidthATableIsOneLinePerRow() {
        String s = wide().render("", Width.NONE);
        assertEquals(3, s.lines().count(), s);
    }

    @Test
    void anOptionalColumnIsLeftOutFirstAndSaidSo() {
        String full = wide().render("", Width.NONE);
        int natural = full.lines().mapToInt(String::length).max().orElseThrow();
        String s = wide().render("", natural - 2);
        assertTrue(s.lines().limit(3).noneMatch(l -> l.contains("0-1")), s);
        assertTrue(s.contains("(left out at " + (natural - 2) + " columns: cpus; --wide shows them)"), s);
        assertEquals(3, s.lines().filter(l -> !l.startsWith("(")).count(), s);
    }

    @Test
    void foldedRowsKeepTheirKeyOnEveryLineAndNoLineIsWider() {
        for (int width : List.of(50, 60, 70)) {
            String s = wide().render("", width);
            for (String l : s.lines().toList()) {
                assertTrue(l.length() <= width, width + ": " + l);
                if (l.isEmpty() || l.startsWith("variant") || l.startsWith("(") || l.startsWith(" ")) continue;
                assertTrue(l.matches("(first_but|any_but_loop) +input=random nrCpus=64 .*"), l);
            }
            assertTrue(s.lines().filter(l -> l.startsWith("any_but_loop")).count() >= 2, "folded: " + s);
        }
    }

    @Test
    void aLongLastCellWrapsUnderItselfWithTheOtherColumnsBlankSoItReadsAsOneRow() {
        TextTable t = new TextTable(TextTable.Column.key("family"), TextTable.Column.key("seed"), TextTable.Column.text("note"));
        t.row("cpumask", "6.1", "the native rows are missing because no C compiler was found when corescope was built");
        t.row("c2c", "6.2", "measured");
        String s = t.render("", 48);
        List<String> lines = s.lines().toList();
        assertTrue(lines.get(1).startsWith("cpumask  6.1   the native"), s);
        assertTrue(lines.subList(2, lines.size() - 1).stream().allMatch(l -> l.startsWith(" ".repeat("cpumask  6.1   ".length())) && !l.isBlank()), s);
        assertEquals("c2c      6.2   measured", lines.getLast(), s);
        assertTrue(s.lines().allMatch(l -> l.length() <= 48), s);
    }

    @Test
    void cellsFromInputAreEscapedForTheTerminal() {
        TextTable t = new TextTable(TextTable.Column.key("key"), TextTable.Column.text("value"));
        t.row("x", "\u001b]0;PWNED\u0007");
        assertTrue(t.render("", Width.NONE).contains("\\e]0;PWNED\\x07"), t.render("", Width.NONE));
    }

    @Test
    void numbersHaveThreeSignificantFiguresAndIntervalsTheirDecimals() {
        assertEquals("8.62", Num.of(8.622));
        assertEquals("40.9", Num.of(40.90));
        assertEquals("0.0123", Num.of(0.012345));
        assertEquals("1235", Num.of(1234.6));
        assertEquals("8.62 [8.37, 8.88]", Num.withInterval(8.622, 0.2565));
        assertEquals("40.9 [40.1, 41.7]", Num.withInterval(40.90, 0.7756));
        assertEquals("+3.10", Num.signed(3.1));
    }

    @Test
    void aDocumentGivesItsPartsAsDataForThePageWithCellsAsGivenAndUnitsApart() {
        TextTable t = new TextTable(TextTable.Column.key("variant"), TextTable.Column.number("java", "ns/op"));
        t.row("first_but", "<8.62>");
        TextDoc d = new TextDoc().title("bench cpumask").table(t).notes(List.of("one", "two"))
                .findings(List.of(new TextDoc.Finding("supports", "0.6% faster", "-0.8% [-1.2, -0.4]")));
        assertEquals(List.of(TextDoc.Heading.class, TextDoc.Table.class, TextDoc.Notes.class, TextDoc.Findings.class),
                d.parts().stream().map(Object::getClass).toList());
        assertEquals(List.of(List.of("first_but", "<8.62>")), d.tables().getFirst().rows());
        assertEquals("ns/op", d.tables().getFirst().columns().get(1).unit());
        assertEquals(List.of("one", "two"), d.allNotes());
        String text = d.render(80);
        assertTrue(text.contains("java ns/op"), text);
        assertTrue(text.contains("- supports: 0.6% faster (-0.8% [-1.2, -0.4])"), text);
    }

    @Test
    void anIntervalCellPrintsAsLowHighWithItsUnitOrItsWordsAndKeepsItsNumbersForThePage() {
        TextTable.Interval pct = TextTable.Interval.of(-3.1, -4.414, -1.8).unit("%").claimed(-5.0);
        TextTable.Interval ns = TextTable.Interval.of(-0.21, -0.3, -0.12).unit("ns");
        TextTable.Interval none = TextTable.Interval.none(-2.64, "not measured");
        assertEquals("[-4.41, -1.80]%", pct.text());
        assertEquals("[-0.300, -0.120] ns", ns.text());
        assertEquals("[-1.00, +2.50]", TextTable.Interval.of(null, 2.5, -1.0).text(), "ends in order, both signed");
        assertEquals("not measured", none.text());
        TextTable t = new TextTable(TextTable.Column.key("claim"), TextTable.Column.text("finding"), TextTable.Column.text("99.9% interval"));
        t.statusRow("supports", "time per call", "supports", pct).row("size", "inconclusive", none);
        assertEquals(List.of(List.of("time per call", "supports", "[-4.41, -1.80]%"), List.of("size", "inconclusive", "not measured")), t.rows());
        assertEquals("supports", t.typedRows().get(0).status());
        assertEquals("", t.typedRows().get(1).status());
        assertEquals(pct, t.typedRows().get(0).cells().get(2), "the cell as given, numbers and claim with it");
        assertTrue(t.render("", Width.NONE).contains("time per call  supports      [-4.41, -1.80]%"), t.render("", Width.NONE));
    }

    @Test
    void definitionsPrintAsALegendWithAHangingIndent() {
        TextDoc d = new TextDoc().definitions(List.of(new TextDoc.Term("supports", "the interval excludes zero in the claimed direction and reaches the claimed size"),
                new TextDoc.Term("x\u001b[2J", "y")));
        String text = d.render(50);
        assertEquals("""
                  | supports: the interval excludes zero in the
                    claimed direction and reaches the claimed size
                  | x\\e[2J: y
                """, text);
        assertEquals(List.of(TextDoc.Definitions.class), d.parts().stream().map(Object::getClass).toList());
    }

    /**
     * {@code wrappingLast}: a long last cell wraps beside the other columns instead of folding
     * them into a block of their own; a word longer than the room is cut; continuation lines
     * are blank before it and none is wider. Without it the same table folds (as before).
     */
    @Test
    void aWrappingLastColumnKeepsOneBlockCutsLongWordsAndLeavesContinuationsUnkeyed() {
        TextTable t = new TextTable(new TextTable.Column("CPU", "", TextTable.Align.RIGHT, true, 0), TextTable.Column.text("state"),
                TextTable.Column.number("pid"), TextTable.Column.text("holder")).wrappingLast();
        t.row("3", "held", "4242", "pid=4242 thread=" + "w".repeat(70) + " since=2026-12-01T18:00:00Z cmd=java");
        t.row("12", "free", "-", "");
        String s = t.render("", 40);
        List<String> lines = s.lines().toList();
        assertEquals("CPU  state   pid  holder", lines.getFirst(), s);
        for (String l : lines) assertTrue(l.length() <= 40, "wider than 40: " + l);
        int holder = lines.getFirst().indexOf("holder");
        assertTrue(lines.get(1).startsWith("  3  held") && lines.get(1).indexOf("pid=4242") == holder, s);
        for (String l : lines.subList(2, lines.size() - 1)) assertTrue(l.startsWith(" ".repeat(holder)) && !l.isBlank(), "a continuation: " + l);
        assertEquals(" 12  free      -", lines.getLast(), s);
        assertTrue(s.replaceAll("\n +", "").contains("w".repeat(70)), s);
        String folded = new TextTable(t.columns()).row("3", "held", "4242", "pid=4242 " + "w".repeat(70)).render("", 40);
        assertTrue(folded.lines().filter(l -> l.startsWith("CPU")).count() > 1, "without it the table folds: " + folded);
    }
}
