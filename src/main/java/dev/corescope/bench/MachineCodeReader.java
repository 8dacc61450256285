package dev.corescope.bench;

import dev.corescope.report.MachineCode;
import dev.corescope.sys.ElfSymbolTable;
import dev.corescope.sys.NativeLibrary;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records the machine code of the functions a family measures ({@link MeasuredFunction}):
 * for each C twin its size from the ELF symbol table and, where {@code objdump} (binutils) is
 * installed, its disassembly with instruction, load and store counts, for the whole function
 * and for its innermost loop (see {@link MachineCode}). Without {@code objdump} the size alone
 * is recorded, with the reason. For the Java side it says whether C2's code can be shown
 * ({@code -XX:+PrintAssembly} needs the hsdis plugin).
 *
 * <p>The counts come from AT&amp;T syntax, where the destination is the last operand: a
 * memory source is a load; a memory destination is a store, and a load too when the
 * instruction reads it first ({@code add %eax,(%rdi)}), but not for {@code mov} and the like,
 * which only write it, nor for {@code cmp}/{@code test}, which only read it.
 */
public final class MachineCodeReader {

    /** The disassembler, from binutils. */
    static final String OBJDUMP = "objdump";
    /** The one library every family's C twins are in. */
    private static final String LIBRARY = "libcorescope.so";
    private static final Pattern FUNCTION = Pattern.compile("^([0-9a-f]+) <(.+)>:$");
    private static final Pattern INSTRUCTION = Pattern.compile("^\\s*([0-9a-f]+):\\s+(.*)$");
    private static final Pattern DIRECT_TARGET = Pattern.compile("^([0-9a-f]+)(\\s+<.*>)?$");
    private static final Set<String> PREFIXES = Set.of("lock", "rep", "repz", "repnz", "repe", "repne", "data16", "cs", "ds",
            "es", "ss", "fs", "gs", "notrack", "bnd", "addr32", "rex", "rex.w", "rex.W");
    private static final Set<String> READ_ONLY_DESTINATION = Set.of("cmp", "cmpb", "cmpw", "cmpl", "cmpq", "test", "testb",
            "testw", "testl", "testq", "bt", "btw", "btl", "btq", "ucomiss", "ucomisd", "vucomiss", "vucomisd", "comiss",
            "comisd", "vcomiss", "vcomisd", "ptest", "vptest");
    private static final Set<String> NO_MEMORY_ACCESS = Set.of("lea", "leal", "leaq", "leaw", "endbr64", "endbr32");

    /** Disassemblies already read, per library file and its modification time. */
    private static final Map<String, Map<String, List<Instruction>>> CACHE = new HashMap<>();

    private MachineCodeReader() {
    }

    /** One instruction: its address, its text (objdump's, comment included) and what it does to memory. */
    public record Instruction(long address, String text, String mnemonic, int loads, int stores, Long backwardTarget) {

        /** Alignment padding, never meant to run. */
        public boolean padding() {
            return mnemonic.startsWith("nop") || text.startsWith("xchg   %ax,%ax") || mnemonic.equals("int3");
        }
    }

    /**
     * The machine code of {@code functions} of family {@code benchmark}: for each one with a C
     * symbol, a {@code native} entry; for each one with a Java method, a {@code java} entry
     * saying whether C2's code can be shown. Never throws for a missing tool or library: the
     * entry says why its fields are missing.
     */
    public static List<MachineCode> read(String benchmark, List<MeasuredFunction> functions) {
        List<MachineCode> out = new ArrayList<>();
        if (functions.isEmpty()) return out;
        Optional<Path> lib = NativeLibrary.file();
        String libReason = lib.isPresent() ? null
                : "the C twins are not loaded: " + NativeLibrary.unavailableReason().orElse("library file unknown");
        for (MeasuredFunction f : functions) {
            if (f.symbol() == null) continue;
            out.add(lib.isEmpty() ? missing(benchmark, f, null, libReason) : nativeCode(benchmark, f, lib.get(), OBJDUMP));
        }
        String javaReason = javaReason();
        for (MeasuredFunction f : functions) {
            if (f.javaMethod() == null) continue;
            out.add(new MachineCode(benchmark, f.variant(), "java", f.params(), f.javaMethod(), null, null, null, null, null,
                    null, javaReason));
        }
        return out;
    }

    /** One C function's entry, from the library {@code lib}. */
    static MachineCode nativeCode(String benchmark, MeasuredFunction f, Path lib, String tool) {
        ElfSymbolTable.Symbol sym;
        try {
            Optional<ElfSymbolTable.Symbol> s = ElfSymbolTable.read(lib).function(f.symbol());
            if (s.isEmpty()) return missing(benchmark, f, null, f.symbol() + " is not a function in " + LIBRARY);
            sym = s.get();
        } catch (IOException e) {
            return missing(benchmark, f, null, "the symbol table of " + LIBRARY + " could not be read: " + e.getMessage());
        }
        Map<String, List<Instruction>> all;
        try {
            all = disassembly(lib, tool);
        } catch (IOException e) {
            return missing(benchmark, f, sym.size(), e.getMessage() + "; only the size from the ELF symbol table (" + sym.table() + ")");
        }
        List<Instruction> body = all.getOrDefault(f.symbol(), List.of()).stream()
                .filter(i -> i.address() >= sym.value() && i.address() < sym.value() + sym.size()).toList();
        if (body.isEmpty()) return missing(benchmark, f, sym.size(), tool + " printed no instructions for " + f.symbol());
        return facts(benchmark, f, sym.value(), sym.size(), body);
    }

    /** The counts and the text of one function's instructions. */
    static MachineCode facts(String benchmark, MeasuredFunction f, long start, long bytes, List<Instruction> body) {
        int instructions = 0, loads = 0, stores = 0;
        StringBuilder text = new StringBuilder();
        for (Instruction i : body) {
            text.append(String.format(Locale.ROOT, "%4x:  %s%n", i.address() - start, i.text()));
            if (i.padding()) continue;
            instructions++;
            loads += i.loads();
            stores += i.stores();
        }
        return new MachineCode(benchmark, f.variant(), "native", f.params(), f.symbol(), bytes, instructions, loads, stores,
                loop(start, body, f.loop()), text.toString(), null);
    }

    /**
     * The backward branch with the shortest span (innermost) or the longest (outermost), the
     * first one on a tie, and what lies between its target and it; null when there is none.
     */
    static MachineCode.HotLoop loop(long start, List<Instruction> body, MeasuredFunction.Loop which) {
        Instruction best = null;
        for (Instruction i : body) {
            Long t = i.backwardTarget();
            if (t == null || t < start) continue;
            long span = i.address() - t, bestSpan = best == null ? 0 : best.address() - best.backwardTarget();
            if (best == null || (which == MeasuredFunction.Loop.INNERMOST ? span < bestSpan : span > bestSpan)) best = i;
        }
        if (best == null) return null;
        int instructions = 0, loads = 0, stores = 0;
        for (Instruction i : body) {
            if (i.address() < best.backwardTarget() || i.address() > best.address() || i.padding()) continue;
            instructions++;
            loads += i.loads();
            stores += i.stores();
        }
        return new MachineCode.HotLoop(which.name().toLowerCase(Locale.ROOT), best.backwardTarget() - start, best.address() - start,
                instructions, loads, stores);
    }

    private static MachineCode missing(String benchmark, MeasuredFunction f, Long bytes, String reason) {
        return new MachineCode(benchmark, f.variant(), "native", f.params(), f.symbol(), bytes, null, null, null, null, null, reason);
    }

    /** Every function of {@code lib}, disassembled once per file version. */
    static synchronized Map<String, List<Instruction>> disassembly(Path lib, String tool) throws IOException {
        String key = tool + ":" + lib.toAbsolutePath() + "@" + Files.getLastModifiedTime(lib).toMillis();
        Map<String, List<Instruction>> cached = CACHE.get(key);
        if (cached != null) return cached;
        Map<String, List<Instruction>> parsed = parse(run(tool, lib));
        CACHE.put(key, parsed);
        return parsed;
    }

    private static String run(String tool, Path lib) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(tool, "-d", "--no-show-raw-insn", "-w", lib.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IOException(tool + " could not be started (binutils not installed? " + e.getMessage() + ")");
        }
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(tool + " did not finish within 30 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + tool + " ran");
        }
        if (p.exitValue() != 0) throw new IOException(tool + " -d exited with " + p.exitValue());
        return out;
    }

    /** objdump's output, function by function. */
    static Map<String, List<Instruction>> parse(String objdump) {
        Map<String, List<Instruction>> out = new HashMap<>();
        List<Instruction> current = null;
        for (String line : objdump.split("\n")) {
            Matcher fn = FUNCTION.matcher(line);
            if (fn.matches()) {
                current = new ArrayList<>();
                out.put(fn.group(2), current);
                continue;
            }
            Matcher in = INSTRUCTION.matcher(line);
            if (current != null && in.matches()) {
                Instruction i = instruction(Long.parseUnsignedLong(in.group(1), 16), in.group(2).strip());
                if (i != null) current.add(i);
            }
        }
        return out;
    }

    /** One line of objdump's AT&amp;T output classified; null for a line that holds no instruction ({@code (bad)}). */
    static Instruction instruction(long address, String text) {
        String code = text;
        int hash = code.indexOf('#');
        if (hash >= 0) code = code.substring(0, hash);
        code = code.strip();
        if (code.isEmpty() || code.startsWith("(bad)")) return null;
        String[] words = code.split("\\s+", 2);
        while (PREFIXES.contains(words[0]) && words.length > 1) words = words[1].split("\\s+", 2);
        String mnemonic = words[0];
        List<String> operands = words.length > 1 ? operands(words[1]) : List.of();
        Long backward = null;
        if ((mnemonic.startsWith("j") || mnemonic.startsWith("loop")) && operands.size() == 1) {
            Matcher m = DIRECT_TARGET.matcher(operands.getFirst());
            if (m.matches()) {
                long target = Long.parseUnsignedLong(m.group(1), 16);
                if (target <= address) backward = target;
            }
        }
        int[] access = access(mnemonic, operands);
        return new Instruction(address, text, mnemonic, access[0], access[1], backward);
    }

    /** {loads, stores} of one instruction. */
    static int[] access(String mnemonic, List<String> operands) {
        if (mnemonic.startsWith("nop") || mnemonic.startsWith("prefetch") || NO_MEMORY_ACCESS.contains(mnemonic)) return new int[]{0, 0};
        int loads = 0, stores = 0;
        if (mnemonic.startsWith("push")) stores++;
        if (mnemonic.startsWith("pop")) loads++;
        boolean branch = mnemonic.startsWith("j") || mnemonic.startsWith("call") || mnemonic.startsWith("loop");
        for (int k = 0; k < operands.size(); k++) {
            String op = operands.get(k);
            if (!isMemory(op, branch)) continue;
            boolean destination = k == operands.size() - 1 && operands.size() > 1;
            if (!destination) {
                if (operands.size() == 1 && writesOnlyOperand(mnemonic)) stores++;
                else if (operands.size() == 1 && readsAndWritesOperand(mnemonic)) {
                    loads++;
                    stores++;
                } else loads++;
            } else if (READ_ONLY_DESTINATION.contains(mnemonic)) {
                loads++;
            } else if (writesOnly(mnemonic)) {
                stores++;
            } else {
                loads++;
                stores++;
            }
        }
        return new int[]{loads, stores};
    }

    private static boolean isMemory(String op, boolean branch) {
        if (op.startsWith("$") || op.startsWith("%") && !op.contains(":") && !op.contains("(")) return false;
        if (op.contains("(")) return true;
        if (op.startsWith("%") && op.contains(":")) return true; // %fs:0x28
        if (op.startsWith("*")) return op.length() > 1 && !op.startsWith("*%"); // jmp *0x1234: absolute indirect
        return !branch && op.matches("(0x)?[0-9a-f]+"); // an absolute address
    }

    /** Whether an instruction with a memory destination only writes it. */
    private static boolean writesOnly(String m) {
        return (m.startsWith("mov") || m.startsWith("vmov") || m.startsWith("set")
                || m.startsWith("stos") || m.startsWith("fst") || m.startsWith("fist") || m.startsWith("pextr")
                || m.startsWith("vpextr") || m.startsWith("extractps") || m.startsWith("vextract") || m.startsWith("cvt")
                || m.startsWith("vcvt"));
    }

    /** One-operand instructions that only write their memory operand. */
    private static boolean writesOnlyOperand(String m) {
        return m.startsWith("set") || m.startsWith("fst") || m.startsWith("fist") || m.startsWith("stos");
    }

    /** One-operand instructions that read and write their memory operand. */
    private static boolean readsAndWritesOperand(String m) {
        return m.startsWith("inc") || m.startsWith("dec") || m.startsWith("neg") || m.startsWith("not") || m.startsWith("shl")
                || m.startsWith("shr") || m.startsWith("sar") || m.startsWith("sal") || m.startsWith("rol") || m.startsWith("ror")
                || m.startsWith("push") || m.startsWith("pop");
    }

    /** Operands split on the commas outside parentheses. */
    static List<String> operands(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0, from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') depth++;
            else if (c == ')') depth--;
            else if (c == ',' && depth == 0) {
                out.add(s.substring(from, i).strip());
                from = i + 1;
            }
        }
        if (from < s.length()) out.add(s.substring(from).strip());
        return out;
    }

    /**
     * Why C2's machine code is not in the report: {@code -XX:+PrintAssembly} needs the hsdis
     * plugin, which JDK builds do not ship. Looks where HotSpot looks: the JDK's
     * {@code lib/server} and {@code lib}, then the library path.
     */
    static String javaReason() {
        Path home = Path.of(System.getProperty("java.home"));
        String name = "hsdis-amd64.so";
        List<Path> places = new ArrayList<>(List.of(home.resolve("lib/server").resolve(name), home.resolve("lib").resolve(name)));
        String ldPath = System.getenv("LD_LIBRARY_PATH");
        if (ldPath != null) {
            for (String dir : ldPath.split(":")) if (!dir.isBlank()) places.add(Path.of(dir).resolve(name));
        }
        for (Path p : places) {
            if (Files.isRegularFile(p)) {
                return "hsdis is installed (" + p + "), so -XX:+PrintAssembly works, but bench does not run it yet: "
                        + "./run.sh jmh CLASS -jvmArgsAppend '-XX:+UnlockDiagnosticVMOptions -XX:+PrintAssembly' prints C2's code";
            }
        }
        return "C2's machine code is not shown: -XX:+PrintAssembly needs the hsdis plugin (" + name + "), which this JDK lacks "
                + "(not in " + home.resolve("lib/server") + ", " + home.resolve("lib") + " nor on LD_LIBRARY_PATH); JDK builds do not ship it, none was "
                + "found on Maven Central, and Debian's libhsdis0-fcml (1.2.2) installs libhsdis.so.0, under a name this JDK does not "
                + "look for and with only the old decode_instructions entry point, not the decode_instructions_virtual that "
                + "HotSpot calls since JDK 9";
    }
}
