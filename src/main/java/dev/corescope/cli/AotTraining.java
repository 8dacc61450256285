package dev.corescope.cli;

import dev.corescope.sys.internal.Os;

import java.util.List;

/**
 * The training run behind {@code run.sh}'s AOT cache (JDK 25, {@code -XX:AOTCacheOutput}):
 * runs the short commands named in {@code args} (all four when none is named) once each,
 * through the same path as the jar's entry point ({@link Launcher#main}: the checked stdout,
 * {@link ShortCommands}), so the cache holds the classes, linkage and method profiles of each,
 * not only of {@code topology}. Their output is the caller's to discard.
 *
 * <p>The cache holds what the training loaded, and a JVM started with it loads all of that at
 * start-up, whichever command it runs; so the training runs nothing a short command would not
 * (no picocli, no child process).
 *
 * <p>{@code pin} cannot be run to its end here: it replaces the process. The training runs its
 * path up to and including the {@code execvp} call, pinned to the first CPU this process may use,
 * with a command that cannot exist ({@link #NO_SUCH_COMMAND}), so {@code execvp} fails with
 * ENOENT, the thread's mask and signal mask are put back, and the training goes on.
 */
public final class AotTraining {

    static final List<String> COMMANDS = List.of("topology", "affinity", "mask", "pin");

    /** An absolute path (so {@code execvp} does not search PATH) that no system has. */
    static final String NO_SUCH_COMMAND = "/nonexistent/corescope-aot-training/true";

    private AotTraining() {
    }

    /**
     * The first argument that makes this the training of the JSON cache: {@code topology},
     * {@code affinity} and {@code mask} with {@code --format json} (Jackson: some 700 classes that
     * a JSON run otherwise loads and links from the jar, 2.4x the text's CPU time). A cache of its
     * own, which {@code run.sh} passes only to JSON runs: in the text cache those classes would be
     * loaded at every start of every command (mask 0-3: 1.6x the CPU time, 8 MiB more RSS).
     */
    static final String JSON = "--format=json";

    /** The short commands with {@code --format}, in the JSON training. */
    static final List<String> JSON_COMMANDS = List.of("topology", "affinity", "mask");

    public static void main(String[] args) {
        StandardOutput stdout = StandardOutput.install();
        if (args.length > 0 && args[0].equals(JSON)) {
            for (String command : args.length == 1 ? JSON_COMMANDS : List.of(args).subList(1, args.length)) {
                switch (command) {
                    case "topology" -> Launcher.run(new String[] {"topology", "--format", "json"});
                    case "affinity" -> Launcher.run(new String[] {"affinity", "--format", "json"});
                    case "mask" -> Launcher.run(new String[] {"mask", "--format", "json", "0-3"});
                    default -> throw new IllegalArgumentException("not a short command with --format json: " + command + "; one of " + JSON_COMMANDS);
                }
            }
            stdout.finish(Main.EXIT_OK, System.err);
            return;
        }
        for (String command : args.length == 0 ? COMMANDS : List.of(args)) {
            switch (command) {
                case "topology" -> Launcher.run(new String[] {"topology"});
                case "affinity" -> Launcher.run(new String[] {"affinity"});
                case "mask" -> Launcher.run(new String[] {"mask", "0-3"});
                case "pin" -> pinUpToExec();
                default -> throw new IllegalArgumentException("not a short command: " + command + "; one of " + COMMANDS);
            }
        }
        stdout.finish(Main.EXIT_OK, System.err);
    }

    /**
     * What {@code pin --cpus FIRST -- COMMAND} runs as a program ({@link Launcher#standalone}), up
     * to the failed {@code execvp} and the usage error it becomes. The error is caught here, not
     * reported as {@link ShortCommands} would: that goes through picocli's {@link Main}, which a
     * short command that succeeds never loads, so the cache must not hold it.
     */
    static void pinUpToExec() {
        String first = Integer.toString(Os.live().processAllowed().first());
        PinCommand pin = ShortCommands.plainPin(new String[] {"pin", "--cpus", first, "--", NO_SUCH_COMMAND});
        boolean was = Launcher.standalone;
        Launcher.standalone = true;
        try {
            pin.call();
            throw new IllegalStateException("pin returned although " + NO_SUCH_COMMAND + " cannot be run");
        } catch (PinCommand.CannotRun expected) {
            // "cannot run it: No such file or directory" (exit 127): this JVM was not replaced
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Launcher.standalone = was;
        }
    }
}
