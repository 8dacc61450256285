package dev.corescope.bench;

import dev.corescope.report.MachineCode;
import dev.corescope.sys.tool.ElfSymbolTable;
import dev.corescope.sys.tool.NativeLibrary;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records the machine code of the functions a family measures ({@link MeasuredFunction}):
 * for each C twin its size from the ELF symbol table and, where {@code objdump} (binutils) is
 * installed, its disassembly with instruction, load and store counts, for the whole function
 * and for its measured loop, found from the control-flow graph ({@link #loop}; see
 * {@link MachineCode}). Without {@code objdump} the size alone
 * is recorded, with the reason. For the Java side, C2's code where an hsdis plugin is found
 * ({@link JavaMachineCode}), else one line saying why not. Each instruction is classified by
 * {@link Instruction}.
 */
public final class MachineCodeReader {

    /** The disassembler, from binutils. */
    static final String OBJDUMP = "objdump";
    /** The one library every family's C twins are in. */
    private static final String LIBRARY = "libcorescope.so";
    private static final Pattern FUNCTION = Pattern.compile("^([0-9a-f]+) <(.+)>:$");
    private static final Pattern INSTRUCTION = Pattern.compile("^\\s*([0-9a-f]+):\\s+(.*)$");

    /** Disassemblies already read, per library file and its modification time. */
    private static final Map<String, Map<String, List<Instruction>>> CACHE = new HashMap<>();

    private MachineCodeReader() {
    }

    /**
     * The machine code of {@code functions} of family {@code benchmark}: for each one with a C symbol, a
     * {@code native} entry; for each one with a Java method, a {@code java} entry with C2's code where an
     * hsdis plugin is found and the family names the JMH benchmarks that make C2 compile it ({@code compiling}),
     * else why not. Never throws for a missing tool or library: the entry says why its fields are missing.
     */
    public static List<MachineCode> read(String benchmark, List<MeasuredFunction> functions,
                                         Optional<JavaMachineCode.JmhSelection> compiling) {
        List<MachineCode> out = new ArrayList<>();
        if (functions.isEmpty()) return out;
        Optional<Path> lib = NativeLibrary.file();
        String libReason = lib.isPresent() ? null
                : "the C twins are not loaded: " + NativeLibrary.unavailableReason().orElse("library file unknown");
        for (MeasuredFunction f : functions) {
            if (f.symbol() == null) continue;
            out.add(lib.isEmpty() ? missing(benchmark, f, null, libReason) : nativeCode(benchmark, f, lib.get(), OBJDUMP));
        }
        List<MeasuredFunction> java = functions.stream().filter(f -> f.javaMethod() != null).toList();
        if (!java.isEmpty()) out.addAll(javaCode(benchmark, java, compiling, JavaMachineCode.plugin()));
        return out;
    }

    /** The {@code java} entries of {@code functions}: C2's code printed through {@code plugin}, or why not. */
    static List<MachineCode> javaCode(String benchmark, List<MeasuredFunction> functions, Optional<JavaMachineCode.JmhSelection> run,
                                      Optional<Path> plugin) {
        List<MachineCode> out = new ArrayList<>();
        Map<String, JavaMachineCode.Compiled> compiled = Map.of();
        String reason = null;
        if (plugin.isEmpty()) reason = JavaMachineCode.noPluginReason();
        else if (run.isEmpty()) reason = "C2's machine code is not shown: hsdis is at " + plugin.get()
                + ", but this family names no JMH run that makes C2 compile its Java methods";
        else {
            try {
                compiled = JavaMachineCode.print(run.get(), functions.stream().map(MeasuredFunction::javaMethod).distinct().toList(),
                        plugin.get());
            } catch (IOException e) {
                reason = "C2's machine code is not shown: " + e.getMessage();
            }
        }
        for (MeasuredFunction f : functions) {
            JavaMachineCode.Compiled c = compiled.get(f.javaMethod());
            if (c != null) {
                out.add(facts(benchmark, f, "java", f.javaMethod(), c.start(), c.bytes(), c.instructions()));
                continue;
            }
            String why = reason != null ? reason : "C2 did not compile " + f.javaMethod() + " in the JMH run that prints its code ("
                    + run.get().names() + " " + run.get().paramsText() + ")";
            out.add(new MachineCode(benchmark, f.variant(), "java", f.params(), f.javaMethod(), null, null, null, null, null,
                    null, why));
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
        List<Instruction> body = body(all, sym);
        if (body.isEmpty()) return missing(benchmark, f, sym.size(), tool + " printed no instructions for " + f.symbol());
        return facts(benchmark, f, "native", f.symbol(), sym.value(), sym.size(), body);
    }

    /** The counts and the text of one function's instructions, of either implementation. */
    static MachineCode facts(String benchmark, MeasuredFunction f, String implementation, String symbol, long start, long bytes,
                             List<Instruction> body) {
        int instructions = 0, loads = 0, stores = 0;
        StringBuilder text = new StringBuilder();
        for (Instruction i : body) {
            text.append(String.format(Locale.ROOT, "%4x:  %s%n", i.address() - start, i.text()));
            if (i.padding()) continue;
            instructions++;
            loads += i.loads();
            stores += i.stores();
        }
        return new MachineCode(benchmark, f.variant(), implementation, f.params(), symbol, bytes, instructions, loads, stores,
                loop(start, body, f.loop()), text.toString(), null);
    }

    /**
     * The measured loop of a function: one of its natural loops, found from the control-flow
     * graph (a back edge is an edge whose target dominates its source; the loop is that target,
     * the header, and every block that reaches the edge's source without passing the header;
     * back edges to one header make one loop). {@link MeasuredFunction.Loop#INNERMOST}: the
     * loop with the fewest instructions (the first on a tie); {@link MeasuredFunction.Loop#TIMED}:
     * the one with the most, which for a harness function is the timed loop around the
     * measured code (its retry and spin loops lie inside it). Null when the function has no
     * loop: a backward jump that is not a back edge (a block placed after the return that
     * jumps back into the epilogue) is not one.
     */
    static MachineCode.HotLoop loop(long start, List<Instruction> body, MeasuredFunction.Loop which) {
        List<NaturalLoop> loops = naturalLoops(body);
        if (loops.isEmpty()) return null;
        NaturalLoop best = null;
        for (NaturalLoop l : loops) {
            if (best == null || (which == MeasuredFunction.Loop.INNERMOST ? l.instructions < best.instructions
                    : l.instructions > best.instructions)) best = l;
        }
        int loads = 0, stores = 0;
        for (int k = best.members.nextSetBit(0); k >= 0; k = best.members.nextSetBit(k + 1)) {
            Instruction i = body.get(k);
            if (i.padding()) continue;
            loads += i.loads();
            stores += i.stores();
        }
        return new MachineCode.HotLoop(which.kind(), body.get(best.header).address() - start,
                body.get(best.latch).address() - start, best.instructions, loads, stores);
    }

    /**
     * One natural loop: indexes into the function's instructions.
     *
     * @param header       the first instruction of the header block (it dominates every member)
     * @param latch        the last back edge's branch (the highest address among them)
     * @param members      every instruction of the loop's blocks
     * @param instructions members that are not padding
     */
    public record NaturalLoop(int header, int latch, BitSet members, int instructions) {
    }

    /** Every natural loop of a function's instructions, in the order of their headers. */
    public static List<NaturalLoop> naturalLoops(List<Instruction> body) {
        int n = body.size();
        if (n == 0) return List.of();
        long first = body.getFirst().address(), last = body.getLast().address();
        Map<Long, Integer> at = new HashMap<>();
        for (int k = 0; k < n; k++) at.put(body.get(k).address(), k);
        // Leaders: the entry, every branch target inside the function, every instruction after a branch or return.
        BitSet leader = new BitSet(n);
        leader.set(0);
        for (int k = 0; k < n; k++) {
            Instruction i = body.get(k);
            if (i.target() != null && i.target() >= first && i.target() <= last) {
                Integer t = at.get(i.target());
                if (t != null) leader.set(t);
            }
            if (i.endsBlock() && k + 1 < n) leader.set(k + 1);
        }
        int[] blockOf = new int[n];
        List<int[]> blocks = new ArrayList<>(); // {from, to} inclusive
        for (int k = 0; k < n; k++) {
            if (leader.get(k)) blocks.add(new int[]{k, k});
            blocks.getLast()[1] = k;
            blockOf[k] = blocks.size() - 1;
        }
        int nb = blocks.size();
        List<List<Integer>> succ = new ArrayList<>();
        List<List<Integer>> pred = new ArrayList<>();
        for (int b = 0; b < nb; b++) {
            succ.add(new ArrayList<>());
            pred.add(new ArrayList<>());
        }
        for (int b = 0; b < nb; b++) {
            Instruction end = body.get(blocks.get(b)[1]);
            if (end.target() != null) {
                Integer t = at.get(end.target());
                if (t != null) succ.get(b).add(blockOf[t]);
            }
            if (end.fallsThrough() && b + 1 < nb) succ.get(b).add(b + 1);
            for (int s : succ.get(b)) pred.get(s).add(b);
        }
        // Dominators, iteratively over the blocks reachable from the entry (Cooper, Harvey and Kennedy's sets form).
        BitSet reachable = new BitSet(nb);
        ArrayDeque<Integer> work = new ArrayDeque<>(List.of(0));
        reachable.set(0);
        while (!work.isEmpty()) {
            for (int s : succ.get(work.pop())) {
                if (!reachable.get(s)) {
                    reachable.set(s);
                    work.push(s);
                }
            }
        }
        BitSet[] dom = new BitSet[nb];
        for (int b = 0; b < nb; b++) {
            dom[b] = new BitSet(nb);
            if (b == 0) dom[b].set(0);
            else dom[b].or(reachable);
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int b = 1; b < nb; b++) {
                if (!reachable.get(b)) continue;
                BitSet d = null;
                for (int p : pred.get(b)) {
                    if (!reachable.get(p)) continue;
                    if (d == null) d = (BitSet) dom[p].clone();
                    else d.and(dom[p]);
                }
                if (d == null) d = new BitSet(nb);
                d.set(b);
                if (!d.equals(dom[b])) {
                    dom[b] = d;
                    changed = true;
                }
            }
        }
        // Back edges u -> h where h dominates u; one loop per header.
        TreeMap<Integer, BitSet> loopBlocks = new TreeMap<>();
        TreeMap<Integer, Integer> latches = new TreeMap<>();
        for (int u = 0; u < nb; u++) {
            if (!reachable.get(u)) continue;
            for (int h : succ.get(u)) {
                if (!dom[u].get(h)) continue;
                BitSet members = loopBlocks.computeIfAbsent(h, k -> {
                    BitSet m = new BitSet(nb);
                    m.set(k);
                    return m;
                });
                ArrayDeque<Integer> stack = new ArrayDeque<>();
                if (!members.get(u)) {
                    members.set(u);
                    stack.push(u);
                }
                while (!stack.isEmpty()) {
                    for (int p : pred.get(stack.pop())) {
                        if (reachable.get(p) && !members.get(p)) {
                            members.set(p);
                            stack.push(p);
                        }
                    }
                }
                latches.merge(h, blocks.get(u)[1], Math::max);
            }
        }
        List<NaturalLoop> out = new ArrayList<>();
        for (var e : loopBlocks.entrySet()) {
            BitSet members = new BitSet(n);
            int count = 0;
            for (int b = e.getValue().nextSetBit(0); b >= 0; b = e.getValue().nextSetBit(b + 1)) {
                for (int k = blocks.get(b)[0]; k <= blocks.get(b)[1]; k++) {
                    members.set(k);
                    if (!body.get(k).padding()) count++;
                }
            }
            out.add(new NaturalLoop(blocks.get(e.getKey())[0], latches.get(e.getKey()), members, count));
        }
        return out;
    }

    private static MachineCode missing(String benchmark, MeasuredFunction f, Long bytes, String reason) {
        return new MachineCode(benchmark, f.variant(), "native", f.params(), f.symbol(), bytes, null, null, null, null, null, reason);
    }

    /**
     * The instructions of one function of {@code lib} ({@code [st_value, st_value + st_size)}),
     * disassembled with objdump.
     *
     * @throws IOException when objdump cannot run, or the symbol is not a function of {@code lib}
     */
    public static List<Instruction> instructions(Path lib, String symbol) throws IOException {
        ElfSymbolTable.Symbol sym = ElfSymbolTable.read(lib).function(symbol)
                .orElseThrow(() -> new IOException(symbol + " is not a function in " + lib.getFileName()));
        return body(disassembly(lib, OBJDUMP), sym);
    }

    private static List<Instruction> body(Map<String, List<Instruction>> all, ElfSymbolTable.Symbol sym) {
        return all.getOrDefault(sym.name(), List.of()).stream()
                .filter(i -> i.address() >= sym.value() && i.address() < sym.value() + sym.size()).toList();
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
    public static Map<String, List<Instruction>> parse(String objdump) {
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
                Instruction i = Instruction.parse(Long.parseUnsignedLong(in.group(1), 16), in.group(2).strip());
                if (i != null) current.add(i);
            }
        }
        return out;
    }
}
