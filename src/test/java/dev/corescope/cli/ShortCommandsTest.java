package dev.corescope.cli;

import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.ExceptionCatch;
import java.lang.classfile.instruction.NewObjectInstruction;
import java.util.ArrayList;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The picocli-free path of the short commands prints, fails and exits exactly as picocli's,
 * and leaves everything it does not take to picocli without printing anything.
 */
class ShortCommandsTest {

    private record Run(OptionalInt code, String out, String err) {
    }

    /** Runs {@link ShortCommands#run} with System.out and System.err captured. */
    private static Run fast(String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            OptionalInt code = ShortCommands.run(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }

    @Test
    void maskAffinityAndPinPrintFailAndExitAsThroughPicocli() {
        String self = Long.toString(ProcessHandle.current().pid());
        int cpu = Affinity.allowed().first();
        List<String[]> cases = List.of(
                new String[] {"mask", "0-3"},
                new String[] {"mask", "--format", "json", "0-3,8"},
                new String[] {"mask", "--nbits=64", "0-63:1/4"},
                new String[] {"mask", "0-3", "--input", "list", "8"},
                new String[] {"mask", "--input", "hex", "ff,ffffffff"},
                new String[] {"mask", "0-99999999"},
                new String[] {"mask", "--format", "svg", "0-3"},
                new String[] {"mask", "--nbits", "0", "1"},
                new String[] {"affinity"},
                new String[] {"affinity", "--format=json"},
                new String[] {"affinity", "--pid", self},
                new String[] {"affinity", "--pid", "999999999"},
                new String[] {"affinity", "--format", "svg"},
                new String[] {"pin", "--cpus", Integer.toString(cpu), "--", "true"},
                new String[] {"pin", "--cpus=" + cpu, "true"},
                new String[] {"pin", "--cpus", "99999", "--", "true"},
                new String[] {"pin", "--cpus", "0-", "--", "true"},
                new String[] {"pin", "--cpus", Integer.toString(cpu), "--", "/nonexistent/command"});
        // one CPU for both runs, so affinity's currentCpu is the same
        try (Pinning p = Affinity.pin(cpu)) {
            for (String[] args : cases) {
                Run fast = fast(args);
                CliRun picocli = CliRun.run(args);
                String what = String.join(" ", args);
                assertTrue(fast.code().isPresent(), "the plain form " + what + " is taken without picocli");
                assertEquals(picocli.exitCode(), fast.code().getAsInt(), what + "; stderr " + fast.err());
                assertEquals(picocli.out(), fast.out(), what);
                assertEquals(picocli.err(), fast.err(), what);
            }
        }
    }

    @Test
    void helpOddFormsAndValuesPicocliMustConvertAreLeftToPicocli() {
        List<String[]> cases = List.of(
                new String[] {"mask"},
                new String[] {"mask", "--help"},
                new String[] {"mask", "-h", "1"},
                new String[] {"mask", "--nbits", "abc", "1"},
                new String[] {"mask", "--nbits", "\u0661\u0662", "1"},
                new String[] {"mask", "--nbits", "32", "--nbits", "64", "1"},
                new String[] {"mask", "--format", "xml", "1"},
                new String[] {"mask", "@args.txt"},
                new String[] {"mask", "--", "1"},
                new String[] {"mask", "--nbits"},
                new String[] {"affinity", "--pid", "\u0661"},
                new String[] {"affinity", "--pid", "-1"},
                new String[] {"affinity", "--pid", "1234567890"},
                new String[] {"affinity", "extra"},
                new String[] {"affinity", "--version"},
                new String[] {"pin", "--cpus", "0"},
                new String[] {"pin", "--cpus", "0", "--"},
                new String[] {"pin", "--help"},
                new String[] {"pin", "--cpus", "0", "-x"},
                new String[] {"pin", "--cpus", "@list", "true"},
                new String[] {"pin", "true", "--cpus", "0"},
                new String[] {"bench", "cpumask"},
                new String[] {});
        for (String[] args : cases) {
            Run r = fast(args);
            String what = String.join(" ", args);
            assertTrue(r.code().isEmpty(), what);
            assertEquals("", r.out(), what);
            assertEquals("", r.err(), what);
        }
    }

    /**
     * The AOT cache checks the verifier's constraints of each class it holds at every start: a
     * short-path class that catches a picocli exception or makes an object of a picocli type
     * (a converter) loads picocli from the jar, opening it, before {@code main} runs.
     */
    @Test
    void theShortPathCatchesAndMakesNoPicocliType() throws Exception {
        List<String> found = new ArrayList<>();
        for (Class<?> c : List.of(ShortCommands.class, OutputFormat.class, OutputFormat.Only.class, TopologyCommand.class,
                MaskCommand.class, AffinityCommand.class, PinCommand.class, Launcher.class, AotTraining.class)) {
            for (MethodModel m : model(c).methods()) {
                CodeModel code = m.code().orElse(null);
                if (code == null) continue;
                for (var e : code) {
                    String type = e instanceof ExceptionCatch x ? x.catchType().map(t -> t.asInternalName()).orElse("")
                            : e instanceof NewObjectInstruction n ? n.className().asInternalName() : "";
                    if (!type.isEmpty() && namesPicocli(Class.forName(type.replace('/', '.'), false, c.getClassLoader()))) {
                        found.add(c.getSimpleName() + "." + m.methodName().stringValue() + ": " + type);
                    }
                }
            }
        }
        assertTrue(found.isEmpty(), "picocli types on the short path: " + found);
    }

    private static boolean namesPicocli(Class<?> c) {
        if (c == null) return false;
        if (c.getName().startsWith("picocli.")) return true;
        for (Class<?> i : c.getInterfaces()) if (namesPicocli(i)) return true;
        return namesPicocli(c.getSuperclass());
    }

    private static ClassModel model(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getName().substring(c.getPackageName().length() + 1) + ".class")) {
            return ClassFile.of().parse(in.readAllBytes());
        }
    }
}
