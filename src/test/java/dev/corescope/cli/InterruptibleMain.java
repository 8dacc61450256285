package dev.corescope.cli;

import java.nio.file.Path;
import java.util.List;

/**
 * corescope's command line with the test families {@code finishes}, {@code blocking} and
 * {@code never}: the child process {@link InterruptTest} sends SIGINT to.
 */
public final class InterruptibleMain {

    private InterruptibleMain() {
    }

    public static void main(String[] args) {
        Path tour = Path.of(System.getProperty("corescope.tour", "corescope-results.json"));
        StandardOutput stdout = StandardOutput.install();  // as Launcher does: the guarded stdout
        int code = Main.commandLine(() -> List.of(new TestFamilies.Sleeping("finishes"), new TestFamilies.Blocking(),
                new TestFamilies.Sleeping("never")), tour).execute(args);
        System.exit(stdout.finish(code, System.err));
    }
}
