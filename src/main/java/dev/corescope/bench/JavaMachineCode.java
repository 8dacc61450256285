package dev.corescope.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * C2's machine code of a family's Java methods, as HotSpot prints it with
 * {@code -XX:CompileCommand=print} through the hsdis plugin (which JDK builds do not ship;
 * {@code scripts/hsdis.sh} builds one from OpenJDK's {@code src/utils/hsdis} and the system's
 * capstone or binutils). A child JVM runs the family's JMH benchmarks briefly in one process
 * ({@code -f 0}) so C2 compiles each method with the profile the benchmark gives it; each
 * method is kept out of line ({@code CompileCommand=dontinline}) so it is compiled on its own.
 * In the measured runs C2 inlines it into JMH's stub, so the code there is this code in a
 * bigger function: what C2 made of the method, not byte for byte what a fork ran.
 */
public final class JavaMachineCode {

    /** The plugin's name for this architecture, where HotSpot looks for it. */
    static final String PLUGIN = "hsdis-amd64.so";
    /** Set to a plugin file to use that one. */
    static final String PLUGIN_PROPERTY = "corescope.hsdis";
    private static final Pattern HEADER = Pattern.compile("^Compiled method \\(c2\\)\\s+\\d+\\s+\\d+\\s+([%sbn! ]*?)\\s*\\d\\s+(\\S+::\\S+)\\s.*$");
    private static final Pattern MAIN_CODE = Pattern.compile("^\\s*main code\\s+\\[0x([0-9a-f]+),0x([0-9a-f]+)\\].*$");
    private static final Pattern LINE = Pattern.compile("^\\s*0x([0-9a-f]+):\\s+(.*)$");
    /** A comment line of its own under an instruction: HotSpot's notes on a call. */
    private static final Pattern NOTE = Pattern.compile("^\\s+;(.*)$");
    private static final Pattern INVOKE = Pattern.compile("\\*invoke\\w+ (\\S+)");
    private static final Pattern CALL_KIND = Pattern.compile("\\{(static_call|optimized virtual_call|virtual_call|runtime_call [^}]+)\\}");
    private static final int TIMEOUT_SECONDS = 180;

    private JavaMachineCode() {
    }

    /**
     * The JMH benchmarks whose run makes C2 compile a family's Java methods: the benchmark classes,
     * the methods to run (a regex on their names, benchmark or group names) and one value per
     * {@code @Param} (the others keep their first value).
     */
    public record JmhSelection(List<Class<?>> benchmarks, String methodRegex, Map<String, String> params) {
        public JmhSelection {
            benchmarks = List.copyOf(benchmarks);
            if (benchmarks.isEmpty()) throw new IllegalArgumentException("a JMH run names at least one benchmark class");
            params = params == null ? Map.of() : Map.copyOf(params);
        }

        /** One benchmark class's methods. */
        public JmhSelection(Class<?> benchmark, String methodRegex, Map<String, String> params) {
            this(List.of(benchmark), methodRegex, params);
        }

        /** The params as the text names them: {@code nrCpus=64 online=16}. */
        public String paramsText() {
            StringBuilder sb = new StringBuilder();
            new TreeMap<>(params).forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(v));
            return sb.toString();
        }

        /** The benchmark classes' simple names, {@code SpinLockBenchmark/IrqsaveBenchmark}. */
        public String names() {
            return String.join("/", benchmarks.stream().map(Class::getSimpleName).toList());
        }

        /** JMH's include regex: any of the classes, then one of the methods. */
        String include() {
            return "^(" + String.join("|", benchmarks.stream().map(c -> Pattern.quote(c.getName())).toList()) + ")\\.("
                    + methodRegex + ")$";
        }
    }

    /**
     * One method's C2 code: the main code section ({@code [start, start + bytes)}, entry
     * points, slow paths and HotSpot's safepoint and deoptimisation calls included; the stubs,
     * exception and deopt handlers after it left out) and its instructions.
     */
    public record Compiled(String method, long start, long bytes, List<Instruction> instructions) {
    }

    /**
     * The plugin this JVM's children can load: {@code -Dcorescope.hsdis=FILE}, else where HotSpot
     * looks (the JDK's {@code lib/server} and {@code lib}, the library path), else
     * {@code target/hsdis/} of the build corescope runs from (where {@code scripts/hsdis.sh}
     * puts it).
     */
    public static Optional<Path> plugin() {
        String explicit = System.getProperty(PLUGIN_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit);
            return Files.isRegularFile(p) ? Optional.of(p.toAbsolutePath()) : Optional.empty();
        }
        for (Path p : places()) if (Files.isRegularFile(p)) return Optional.of(p.toAbsolutePath());
        return Optional.empty();
    }

    /** Where {@link #plugin()} looks, in order (without the property). */
    static List<Path> places() {
        Path home = Path.of(System.getProperty("java.home"));
        List<Path> places = new ArrayList<>(List.of(home.resolve("lib/server").resolve(PLUGIN), home.resolve("lib").resolve(PLUGIN)));
        String ldPath = System.getenv("LD_LIBRARY_PATH");
        if (ldPath != null) {
            for (String dir : ldPath.split(":")) if (!dir.isBlank()) places.add(Path.of(dir).resolve(PLUGIN));
        }
        buildDirectory().ifPresent(t -> places.add(t.resolve("hsdis").resolve(PLUGIN)));
        return places;
    }

    /** {@code target/} of the build these classes come from ({@code target/classes} or {@code target/corescope.jar}). */
    private static Optional<Path> buildDirectory() {
        try {
            Path code = Path.of(JavaMachineCode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path parent = code.getParent();
            return parent != null && parent.getFileName() != null && parent.getFileName().toString().equals("target")
                    ? Optional.of(parent) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** Why a Java entry has no code, in one line, when no plugin is found. */
    public static String noPluginReason() {
        return "C2's machine code is not shown: no hsdis plugin (" + PLUGIN + ") in the JDK, on LD_LIBRARY_PATH or in target/hsdis; "
                + "JDK builds do not ship it, and scripts/hsdis.sh builds one (docs/formats-code.md)";
    }

    /**
     * Runs {@code run} in a child JVM that prints C2's code of {@code methods}
     * ({@code binary.Class::method}) and returns what it printed, per method (the last C2
     * compilation of each, OSR compilations left out); a method C2 did not compile in the run
     * is absent.
     *
     * @throws IOException when the child cannot start, fails or does not finish in time
     */
    public static Map<String, Compiled> print(JmhSelection run, List<String> methods, Path plugin) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow", "-XX:-RestrictContended", "-cp", System.getProperty("java.class.path"),
                "-XX:+UnlockDiagnosticVMOptions", "-XX:+DisplayVMOutputToStderr", "-XX:CompileCommand=quiet"));
        // -f 0 runs no fork, so JMH applies none of its hints: apply them as a fork gets them
        // (every @CompilerControl method kept out of line, e.g. timerbase's lock and unlock).
        // A printed method is kept out of line, though JMH would inline it when it is a @Benchmark.
        List<String> printed = methods.stream().map(m -> "inline," + m.replace('.', '/').replace("::", ".")).toList();
        for (String hint : compilerHints()) {
            if (!printed.contains(hint)) cmd.add("-XX:CompileCommand=" + hint);
        }
        for (String m : methods) {
            cmd.add("-XX:CompileCommand=print," + m);
            cmd.add("-XX:CompileCommand=dontinline," + m);
        }
        cmd.addAll(List.of("org.openjdk.jmh.Main",
                run.include(),
                "-f", "0", "-wi", "8", "-w", "250ms", "-i", "1", "-r", "100ms", "-foe", "true", "-v", "SILENT"));
        new TreeMap<>(run.params()).forEach((k, v) -> cmd.addAll(List.of("-p", k + "=" + v)));
        Path err = Files.createTempFile("corescope-c2-", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(err.toFile());
            String dir = plugin.getParent().toString();
            String ld = System.getenv("LD_LIBRARY_PATH");
            pb.environment().put("LD_LIBRARY_PATH", ld == null || ld.isBlank() ? dir : dir + ":" + ld);
            Process p = pb.start();
            try {
                if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IOException("the JVM printing C2's code did not finish within " + TIMEOUT_SECONDS + " s");
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while the JVM printing C2's code ran");
            }
            String out = Files.readString(err, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException("the JVM printing C2's code exited with " + p.exitValue() + lastLine(out));
            }
            if (out.contains("[MachCode]") && !out.contains("[Disassembly]")) {
                throw new IOException("HotSpot did not load the hsdis plugin at " + plugin + " (it printed C2's code as hex)");
            }
            return parse(out);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /**
     * JMH's compiler hints ({@code META-INF/CompilerHints} of the build: one
     * {@code -XX:CompileCommand} per line, made from every {@code @CompilerControl}), which
     * JMH passes to each fork it starts; empty when the build has none.
     */
    static List<String> compilerHints() {
        try (var in = JavaMachineCode.class.getClassLoader().getResourceAsStream("META-INF/CompilerHints")) {
            if (in == null) return List.of();
            List<String> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) out.add(line.strip());
            }
            return out;
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String lastLine(String out) {
        String[] lines = out.strip().split("\n");
        String last = lines.length == 0 ? "" : lines[lines.length - 1].strip();
        return last.isEmpty() ? "" : ": " + (last.length() > 200 ? last.substring(0, 200) : last);
    }

    /**
     * HotSpot's {@code PrintAssembly} output (with hsdis), per method: the main code of the last
     * C2 compilation of each (not OSR), its instructions classified as objdump's are
     * ({@link MachineCodeReader#instruction}), HotSpot's {@code ;} comments kept in the text and
     * left out of the classification, and the {@code hlt} filler after the last instruction
     * dropped. A call gets what HotSpot says it calls on the comment lines under it
     * ({@code {static_call rawSpinLockIrqsave}}, {@code {runtime_call UncommonTrapBlob}}).
     */
    public static Map<String, Compiled> parse(String printAssembly) {
        Map<String, Compiled> out = new LinkedHashMap<>();
        String method = null;
        long start = 0, end = 0;
        List<Instruction> body = null;
        String invoked = null;
        boolean named = false;
        for (String line : printAssembly.split("\n")) {
            Matcher h = HEADER.matcher(line);
            if (h.matches()) {
                finish(out, method, start, end, body);
                method = h.group(1).contains("%") ? null : h.group(2);
                body = new ArrayList<>();
                start = end = 0;
                continue;
            }
            if (method == null) continue;
            if (line.startsWith("Compiled method (") || line.startsWith("[/Disassembly]")) {
                finish(out, method, start, end, body);
                method = null;
                continue;
            }
            Matcher mc = MAIN_CODE.matcher(line);
            if (mc.matches() && end == 0) {
                start = Long.parseUnsignedLong(mc.group(1), 16);
                end = Long.parseUnsignedLong(mc.group(2), 16);
                continue;
            }
            Matcher note = NOTE.matcher(line);
            if (note.matches() && body != null && !body.isEmpty() && !named && body.getLast().mnemonic().startsWith("call")) {
                Matcher inv = INVOKE.matcher(note.group(1));
                if (inv.find() && invoked == null) invoked = inv.group(1);
                Matcher kind = CALL_KIND.matcher(note.group(1));
                if (kind.find()) {
                    Instruction last = body.removeLast();
                    String what = kind.group(1).startsWith("runtime_call") ? kind.group(1)
                            : kind.group(1) + (invoked == null ? "" : " " + invoked);
                    body.add(new Instruction(last.address(), last.text() + "  ; {" + what + "}",
                            last.mnemonic(), last.loads(), last.stores(), last.target()));
                    named = true;
                }
                continue;
            }
            Matcher in = LINE.matcher(line);
            if (in.matches()) {
                invoked = null;
                named = false;
                long address = Long.parseUnsignedLong(in.group(1), 16);
                if (address < start || address >= end) {
                    named = true; // its notes are not the last kept instruction's
                    continue;
                }
                String text = in.group(2).replace("\t\t", " ").replace('\t', ' ').strip();
                int semi = text.indexOf(';');
                String code = (semi >= 0 ? text.substring(0, semi) : text).strip();
                Instruction i = Instruction.parse(address, code);
                if (i != null) body.add(new Instruction(address, text.replaceAll("\\s{2,}", "  "),
                        i.mnemonic(), i.loads(), i.stores(), i.target()));
            }
        }
        finish(out, method, start, end, body);
        return out;
    }

    private static void finish(Map<String, Compiled> out, String method, long start, long end,
                               List<Instruction> body) {
        if (method == null || body == null || body.isEmpty() || end <= start) return;
        int last = body.size();
        while (last > 0 && body.get(last - 1).mnemonic().equals("hlt")) last--;
        if (last == 0) return;
        out.put(method, new Compiled(method, start, end - start, List.copyOf(body.subList(0, last))));
    }
}
