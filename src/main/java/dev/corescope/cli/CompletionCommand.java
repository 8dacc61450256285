package dev.corescope.cli;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code completion}: the bash completion script picocli generates from the command model
 * ({@link AutoComplete}; zsh loads it through its {@code bashcompinit}), or with {@code --man}
 * a man page in roff made from the same model. Printed, installed by nothing.
 */
@Command(name = "completion",
        mixinStandardHelpOptions = true,
        description = {
                "Prints shell completion for corescope (bash, and zsh through bashcompinit), or its man page.",
                "",
                "Both are made from the command line's own model, so they list every command and option of",
                "this build. Nothing is installed: the output is yours to source or save.",
                "",
                "Examples:",
                "  source <(./run.sh completion)                 (bash or zsh, this shell only)",
                "  ./run.sh completion > ~/.local/share/bash-completion/completions/corescope",
                "  ./run.sh completion --man > corescope.1 && man -l corescope.1"})
final class CompletionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--man", description = "print the man page (roff, for man -l or a man1 folder) instead of the completion script")
    boolean man;

    @Override
    public Integer call() {
        CommandLine root = spec.root().commandLine();
        var out = spec.commandLine().getOut();
        if (man) {
            out.print(manPage(root.getCommandSpec()));
        } else {
            // the script completes "corescope"; run.sh is completed as the same command
            out.print(AutoComplete.bash("corescope", root));
            out.println("complete -F _complete_corescope -o default run.sh ./run.sh");
        }
        out.flush();
        return Main.EXIT_OK;
    }

    /** The man page of {@code root}: its description, then each command with its options, then the footer (exit codes). */
    static String manPage(CommandSpec root) {
        StringBuilder sb = new StringBuilder();
        String version = root.version().length > 0 ? root.version()[0] : "";
        sb.append(".TH CORESCOPE 1 \"\" \"").append(roff(version)).append("\" \"User Commands\"\n");
        sb.append(".SH NAME\ncorescope \\- ").append(roff(first(root))).append('\n');
        sb.append(".SH SYNOPSIS\n.B corescope\n[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR]\n");
        sb.append(".SH DESCRIPTION\n");
        paragraphs(sb, root.usageMessage().description());
        options(sb, root);
        sb.append(".SH COMMANDS\n");
        for (var e : root.subcommands().entrySet()) {
            CommandSpec c = e.getValue().getCommandSpec();
            if (c.usageMessage().hidden() || e.getKey().equals("help")) continue;
            sb.append(".SS \"corescope ").append(roff(e.getKey())).append("\"\n");
            paragraphs(sb, c.usageMessage().description());
            for (PositionalParamSpec p : c.positionalParameters()) {
                if (p.hidden()) continue;
                sb.append(".TP\n\\fI").append(roff(p.paramLabel())).append("\\fR\n").append(roff(String.join(" ", p.description()))).append('\n');
            }
            options(sb, c);
        }
        sb.append(".SH EXIT STATUS\n");
        paragraphs(sb, root.usageMessage().footer());
        return sb.toString();
    }

    private static String first(CommandSpec spec) {
        String[] d = spec.usageMessage().description();
        return d.length == 0 ? "" : d[0];
    }

    private static void options(StringBuilder sb, CommandSpec spec) {
        for (OptionSpec o : spec.options()) {
            if (o.hidden()) continue;
            sb.append(".TP\n\\fB").append(roff(String.join(", ", o.names()))).append("\\fR");
            if (!o.typeInfo().isBoolean()) sb.append(" \\fI").append(roff(o.paramLabel())).append("\\fR");
            sb.append('\n').append(roff(String.join(" ", o.description()))).append('\n');
        }
    }

    /** Prose lines as paragraphs; indented lines (examples) kept as they are, without filling. */
    private static void paragraphs(StringBuilder sb, String[] lines) {
        boolean literal = false;
        for (String line : lines) {
            String l = line.replace("%n", "");
            boolean example = !l.isBlank() && Character.isWhitespace(l.charAt(0));
            if (example != literal) sb.append(example ? ".nf\n" : ".fi\n");
            literal = example;
            sb.append(l.isBlank() ? ".PP" : roff(l)).append('\n');
        }
        if (literal) sb.append(".fi\n");
    }

    /** Text safe in roff: backslashes written as {@code \e}, a line never starting with a control character, %% as %. */
    static String roff(String s) {
        String t = s.replace("\\", "\\e").replace("%%", "%").replace("-", "\\-");
        return t.startsWith(".") || t.startsWith("'") ? "\\&" + t : t;
    }
}
