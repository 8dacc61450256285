package dev.corescope.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One instruction of AT&amp;T-syntax disassembly (objdump's, or HotSpot's through hsdis), classified:
 * its address, its text (comment included), what it does to memory, and for a direct jump its target.
 *
 * <p>The destination is the last operand: a memory source is a load; a memory destination is a
 * store, and a load too when the instruction reads it first ({@code add %eax,(%rdi)}), but not for
 * {@code mov} and the like, which only write it, nor for {@code cmp}/{@code test}, which only read it.
 */
public record Instruction(long address, String text, String mnemonic, int loads, int stores, Long target) {

    private static final Pattern DIRECT_TARGET = Pattern.compile("^(?:0x)?([0-9a-f]+)(\\s+<.*>)?$");
    private static final Set<String> PREFIXES = Set.of("lock", "rep", "repz", "repnz", "repe", "repne", "data16", "cs", "ds",
            "es", "ss", "fs", "gs", "notrack", "bnd", "addr32", "rex", "rex.w", "rex.W");
    private static final Set<String> READ_ONLY_DESTINATION = Set.of("cmp", "cmpb", "cmpw", "cmpl", "cmpq", "test", "testb",
            "testw", "testl", "testq", "bt", "btw", "btl", "btq", "ucomiss", "ucomisd", "vucomiss", "vucomisd", "comiss",
            "comisd", "vcomiss", "vcomisd", "ptest", "vptest");
    private static final Set<String> NO_MEMORY_ACCESS = Set.of("lea", "leal", "leaq", "leaw", "endbr64", "endbr32");

    /** Alignment padding, never meant to run. */
    public boolean padding() {
        return mnemonic.startsWith("nop") || text.startsWith("xchg   %ax,%ax") || mnemonic.equals("int3");
    }

    /** The direct jump's target when it is backward (at or below this instruction), else null. */
    public Long backwardTarget() {
        return target != null && target <= address ? target : null;
    }

    /** A jump of any kind or a return: the next instruction starts a new basic block. */
    boolean endsBlock() {
        return jump() || returns();
    }

    /** Whether control can reach the next instruction: not after {@code jmp}, {@code ret}, {@code ud2}, {@code hlt}. */
    boolean fallsThrough() {
        return !(mnemonic.startsWith("jmp") || returns());
    }

    private boolean jump() {
        return mnemonic.startsWith("j") || mnemonic.startsWith("loop");
    }

    private boolean returns() {
        return mnemonic.startsWith("ret") || mnemonic.equals("ud2") || mnemonic.equals("hlt") || mnemonic.startsWith("iret")
                || mnemonic.equals("sysret") || mnemonic.equals("sysretq");
    }

    /** One line of objdump's AT&amp;T output classified; null for a line that holds no instruction ({@code (bad)}). */
    public static Instruction parse(long address, String text) {
        String code = text;
        int hash = code.indexOf('#');
        if (hash >= 0) code = code.substring(0, hash);
        code = code.strip();
        if (code.isEmpty() || code.startsWith("(bad)")) return null;
        String[] words = code.split("\\s+", 2);
        while (PREFIXES.contains(words[0]) && words.length > 1) words = words[1].split("\\s+", 2);
        String mnemonic = words[0];
        List<String> operands = words.length > 1 ? operands(words[1]) : List.of();
        Long target = null;
        if ((mnemonic.startsWith("j") || mnemonic.startsWith("loop")) && operands.size() == 1) {
            Matcher m = DIRECT_TARGET.matcher(operands.getFirst());
            if (m.matches()) target = Long.parseUnsignedLong(m.group(1), 16);
        }
        int[] access = access(mnemonic, operands);
        return new Instruction(address, text, mnemonic, access[0], access[1], target);
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
    public static List<String> operands(String s) {
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
}
