package dev.corescope.cli;

import dev.corescope.sys.internal.Os;

import java.util.ArrayList;
import java.util.List;

/**
 * The training run behind {@code run.sh}'s AOT cache (JDK 25, {@code -XX:AOTCacheOutput}): runs
 * the short commands named in {@code args} (all four when none is named) once each, through the
 * jar's own path ({@link Launcher#main}), so the cache holds the classes and profiles of each
 * ({@code topology} also with {@code --root /}, the path of a saved tree).
 * A JVM started with the cache loads all it holds, so the training runs nothing a short command
 * would not (no picocli, no child process); {@code pin} runs up to its failing {@code execvp} of
 * {@link #NO_SUCH_COMMAND}.
 */
public final class AotTraining {

    static final List<String> COMMANDS = List.of("topology", "affinity", "mask", "pin");

    /** An absolute path (so {@code execvp} does not search PATH) that no system has. */
    static final String NO_SUCH_COMMAND = "/nonexistent/corescope-aot-training/true";

    private AotTraining() {
    }

    /**
     * The first argument that makes this the training of the JSON cache (Jackson's ~700
     * classes), which {@code run.sh} passes only to JSON runs: in the text cache they would be
     * loaded at every start of every command (docs/performance.md).
     */
    static final String JSON = "--format=json";

    /** The short commands with {@code --format}, in the JSON training. */
    static final List<String> JSON_COMMANDS = List.of("topology", "affinity", "mask");

    public static void main(String[] args) {
        StandardOutput stdout = StandardOutput.install();
        boolean json = args.length > 0 && args[0].equals(JSON);
        List<String> known = json ? JSON_COMMANDS : COMMANDS;
        List<String> named = List.of(args).subList(json ? 1 : 0, args.length);
        for (String command : named.isEmpty() ? known : named) {
            if (!known.contains(command)) {
                throw new IllegalArgumentException("not a short command" + (json ? " with --format json: " : ": ") + command + "; one of " + known);
            }
            if (command.equals("pin")) {
                pinUpToExec();
                continue;
            }
            List<String> line = new ArrayList<>(List.of(command));
            if (json) line.addAll(List.of("--format", "json"));
            if (command.equals("mask")) line.add("0-3");
            Launcher.run(line.toArray(String[]::new));
            if (line.equals(List.of("topology"))) Launcher.run(new String[] {"topology", "--root", "/"});  // a saved tree's path
        }
        stdout.finish(Main.EXIT_OK, System.err);
    }

    /**
     * {@code pin --cpus FIRST -- COMMAND} as a program ({@link Launcher#standalone}), up to the
     * failed {@code execvp}; its error is caught here, since reporting it would load picocli's
     * {@link Main}, which the cache must not hold.
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
