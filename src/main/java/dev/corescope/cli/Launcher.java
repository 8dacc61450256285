package dev.corescope.cli;

import java.util.OptionalInt;

/**
 * The jar's entry point: the short commands through {@link ShortCommands}, everything else
 * through picocli ({@link Main#execute}). It names no picocli type, so a short command never
 * loads {@link Main}, whose signatures pull in picocli's {@code CommandLine} (a large Java 5
 * class the AOT cache cannot hold).
 */
public final class Launcher {

    /** Whether this JVM is corescope the program ({@link #main}): only then may {@code pin} replace the process. */
    static volatile boolean standalone;

    private Launcher() {
    }

    public static void main(String[] args) {
        standalone = true;
        StandardOutput stdout = StandardOutput.install();
        OptionalInt fast;
        int code;
        try {
            fast = ShortCommands.run(args);
            code = stdout.finish(fast.isPresent() ? fast.getAsInt() : Main.execute(args), System.err);
        } catch (Error | RuntimeException e) {
            if (!nativeAccessDenied(e)) throw e;
            System.err.println("corescope: the JVM denies corescope native access (--illegal-native-access=deny): start it with"
                    + " --enable-native-access=ALL-UNNAMED (as run.sh does; java -jar corescope.jar has it in the manifest)");
            System.exit(Main.EXIT_FAILURE);
            return;
        }
        // a short command that succeeded just returns (it starts no thread): exit 0 without
        // Runtime.exit's logger lookup, a few milliseconds (docs/performance.md)
        if (fast.isPresent() && code == Main.EXIT_OK) return;
        System.exit(code);
    }

    /** True when {@code e} comes of a JVM that refuses this class path native access (a restricted method). */
    static boolean nativeAccessDenied(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IllegalCallerException && String.valueOf(t.getMessage()).contains("native access")) return true;
        }
        return false;
    }

    /** The exit code of corescope run with {@code args}. */
    static int run(String[] args) {
        OptionalInt fast = ShortCommands.run(args);
        return fast.isPresent() ? fast.getAsInt() : Main.execute(args);
    }
}
