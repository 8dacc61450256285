package dev.corescope.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command's {@code --help} wraps its prose as paragraphs (issue 23 point 18): no line of
 * a word or two left alone in the middle of a sentence, as when picocli wrapped each source line
 * on its own ("summary)," then "saved to ...", "is" then "kept, ..."). A short line that ends a
 * sentence before the next paragraph is the paragraph's last line, not an orphan.
 */
class HelpLayoutTest {

    @Test
    void noHelpLeavesAWordOrTwoAloneOnALine() {
        List<String> orphans = new ArrayList<>();
        CommandLine main = Main.commandLine();
        List<CommandLine> all = new ArrayList<>(List.of(main));
        all.addAll(main.getSubcommands().values());
        for (CommandLine cl : all) {
            String[] lines = cl.getUsageMessage().split("\n", -1);
            for (int i = 1; i + 1 < lines.length; i++) {
                String before = lines[i - 1];
                String line = lines[i];
                String after = lines[i + 1];
                boolean endsParagraph = (line.endsWith(".") || line.endsWith(":")) && !(prose(after) && Character.isLowerCase(after.charAt(0)));
                if (prose(before) && prose(line) && prose(after) && before.length() > 60 && line.length() < 40 && !endsParagraph) {
                    orphans.add(cl.getCommandName() + ": \"" + line + "\" between \"" + before + "\" and \"" + after + "\"");
                }
                // an example (indented) too long for the width: picocli puts its end at the margin
                if (!before.isBlank() && !prose(before) && before.stripLeading().startsWith("./run.sh") && before.length() > 70 && prose(line)) {
                    orphans.add(cl.getCommandName() + ": \"" + line + "\" wrapped from the example \"" + before + "\"");
                }
            }
        }
        assertEquals(List.of(), orphans);
    }

    @Test
    void aParagraphIsJoinedAndExamplesStayAsTheyAre() {
        String[] in = {"The tour (topology, every family, a", "summary), saved to a file.", "Next sentence.", "",
                "Examples:", "  ./run.sh mask 1", "  ./run.sh mask 2", "- an item", "that goes on."};
        String[] out = Main.reflow(in);
        assertEquals(List.of("The tour (topology, every family, a summary), saved to a file.", "Next sentence.", "",
                "Examples:", "  ./run.sh mask 1", "  ./run.sh mask 2", "- an item that goes on."), List.of(out));
        assertTrue(Main.reflow(out) == out || List.of(Main.reflow(out)).equals(List.of(out)), "idempotent");
    }

    /** A line of running text: not blank and not indented (options, examples and tables are). */
    private static boolean prose(String line) {
        return !line.isBlank() && !Character.isWhitespace(line.charAt(0));
    }
}
