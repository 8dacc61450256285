package dev.corescope.cli;

import dev.corescope.sys.Affinity;

import java.util.List;

/**
 * The training run behind {@code run.sh}'s AOT cache (JDK 25, {@code -XX:AOTCacheOutput}):
 * runs the short commands named in {@code args} (all four when none is named) once each,
 * through the same path as the jar's entry point ({@link Launcher}), so the cache holds the
 * classes, linkage and method profiles of each, not only of {@code topology}. Their output is
 * the caller's to discard.
 *
 * <p>{@code pin} runs {@code true} pinned to the first CPU this process may use.
 */
public final class AotTraining {

    static final List<String> COMMANDS = List.of("topology", "affinity", "mask", "pin");

    private AotTraining() {
    }

    public static void main(String[] args) {
        for (String command : args.length == 0 ? COMMANDS : List.of(args)) {
            String[] line = switch (command) {
                case "topology" -> new String[] {"topology"};
                case "affinity" -> new String[] {"affinity"};
                case "mask" -> new String[] {"mask", "0-3"};
                case "pin" -> new String[] {"pin", "--cpus", Integer.toString(Affinity.processAllowed().first()), "--", "true"};
                default -> throw new IllegalArgumentException("not a short command: " + command + "; one of " + COMMANDS);
            };
            Launcher.run(line);
        }
    }
}
