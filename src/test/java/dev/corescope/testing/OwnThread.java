package dev.corescope.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executor;

/**
 * Test helpers for work beside a child process: an executor that runs each task on a thread of
 * its own, and whether this JVM inherited a signal as ignored.
 *
 * <p>Why not the common pool: on a 2-CPU machine it has one thread, so a task that blocks
 * (reading a child's stdout until it ends) holds up every later task of every test in the JVM;
 * one child that never ends then fails the rest of the suite ("never started").
 */
public final class OwnThread {

    /** Runs each task on a new daemon thread. */
    public static final Executor EACH = task -> Thread.ofPlatform().daemon().name("test-own-thread").start(task);

    private OwnThread() {
    }

    /**
     * True when signal {@code signo} is ignored in this JVM (SIG_IGN inherited from whoever
     * started the build, e.g. {@code nohup} for SIGHUP, or a background job of a shell without
     * job control for SIGINT and SIGQUIT). A child inherits an ignored signal across exec, and a
     * JVM or shell started that way cannot catch it, so a test that sends it must skip.
     */
    public static boolean signalIgnoredHere(int signo) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) return (Long.parseUnsignedLong(line.substring(7).strip(), 16) >>> (signo - 1) & 1) != 0;
            }
        } catch (IOException | NumberFormatException e) {
            return false;
        }
        return false;
    }

    /** The number of signal {@code name} (HUP, INT, QUIT, USR1, USR2, TERM) on Linux x86-64 and arm64. */
    public static int signalNumber(String name) {
        return switch (name) {
            case "HUP" -> 1;
            case "INT" -> 2;
            case "QUIT" -> 3;
            case "KILL" -> 9;
            case "USR1" -> 10;
            case "USR2" -> 12;
            case "TERM" -> 15;
            default -> throw new IllegalArgumentException(name);
        };
    }
}
