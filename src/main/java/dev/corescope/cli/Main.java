package dev.corescope.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code corescope} command line: one picocli class per subcommand. With no arguments
 * it runs the tour.
 */
@Command(name = "corescope",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Linux CPU topology probe and kernel-patch micro-benchmarks, from Java (FFM).",
        subcommands = {
                CommandLine.HelpCommand.class,
        })
public final class Main implements Runnable {

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs corescope with {@code args} and returns the exit code (0 done, 1 failure, 2 bad input). */
    public static int execute(String... args) {
        return new CommandLine(new Main()).execute(args);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"corescope " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")"};
        }
    }
}
