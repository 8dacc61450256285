package dev.corescope.bench.timerbase;

import dev.corescope.bench.Instruction;
import dev.corescope.bench.MachineCodeReader;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Seed 001's "assembly code to be executed in loop is reduced", counted on the C twins' machine
 * code: the instructions one pass of {@code lock_timer_base()}'s retry loop executes, from the
 * loop's header (the read of {@code timer->flags}) up to and including the call of
 * {@code raw_spin_lock_irqsave()}, for a timer with given flags.
 *
 * <p>The path is followed through the code, not guessed: from the function's entry each
 * instruction is taken in turn; a conditional jump is decided by the last flag-setting
 * instruction before it, which must be a {@code test $BIT,%reg} of one of the timer flag bits
 * ({@code TIMER_MIGRATING}, {@code TIMER_DEFERRABLE}, {@code TIMER_PINNED}), evaluated on the
 * given flags; anything else there (a flag set by arithmetic) stops the count with a reason,
 * never a wrong number. The loop is the natural loop holding the lock call
 * ({@link MachineCodeReader#naturalLoops}).
 */
final class DeferrablePath {

    /** A deferrable timer of CPU 1 (not pinned, not migrating): the seed's case. */
    static final int DEFERRABLE = TimerBases.TIMER_DEFERRABLE | 1;
    /** A plain timer of CPU 1: the global base, where the patch changes nothing. */
    static final int GLOBAL = 1;
    /** The paths counted, as the {@code path} param: name and timer flags. */
    static final Map<String, Integer> PATHS = paths();
    /** The lock's symbol, the path's end. */
    static final String LOCK = "cs_timerbase_raw_spin_lock_irqsave";

    private static final int TIMER_MIGRATING = 0x00040000;
    private static final Set<Integer> FLAG_BITS = Set.of(TIMER_MIGRATING, TimerBases.TIMER_DEFERRABLE, TimerBases.TIMER_PINNED);
    private static final List<String> SETS_FLAGS = List.of("test", "cmp", "and", "or", "xor", "add", "sub", "adc", "sbb", "shl", "shr",
            "sar", "sal", "rol", "ror", "inc", "dec", "neg", "bt", "bsf", "bsr", "tzcnt", "lzcnt", "popcnt", "imul", "mul");

    private DeferrablePath() {
    }

    private static Map<String, Integer> paths() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("deferrable", DEFERRABLE);
        m.put("global", GLOBAL);
        return Collections.unmodifiableMap(m);
    }

    /** A count, or why there is none. */
    record Count(Integer instructions, String reason) {
    }

    /** The instructions of the loop pass a timer with {@code flags} takes, in {@code body} (one function). */
    static Count count(List<Instruction> body, int flags) {
        if (body.isEmpty()) return new Count(null, "no instructions");
        Map<Long, Integer> at = new HashMap<>();
        for (int k = 0; k < body.size(); k++) at.put(body.get(k).address(), k);
        int lockCall = -1;
        for (int k = 0; k < body.size(); k++) if (callsLock(body.get(k))) lockCall = k;
        if (lockCall < 0) return new Count(null, "no call of " + LOCK);
        final int call = lockCall;
        Optional<MachineCodeReader.NaturalLoop> loop = MachineCodeReader.naturalLoops(body).stream()
                .filter(l -> l.members().get(call)).findFirst();
        if (loop.isEmpty()) return new Count(null, "the call of " + LOCK + " is in no loop");
        int header = loop.get().header();
        int k = 0, count = 0, steps = 0;
        boolean counting = false;
        Boolean zf = null;
        while (steps++ < 10_000 && k < body.size()) {
            if (k == header) counting = true;
            Instruction i = body.get(k);
            if (i.padding()) {
                k++;
                continue;
            }
            if (counting) count++;
            if (callsLock(i)) {
                return counting ? new Count(count, null) : new Count(null, "the lock is called before the loop");
            }
            String m = i.mnemonic();
            if (m.startsWith("ret") || m.equals("ud2")) return new Count(null, "the path returns before the lock call");
            if (m.startsWith("j")) {
                if (i.target() == null || !at.containsKey(i.target())) {
                    return new Count(null, "an indirect or outside jump at " + Long.toHexString(i.address()));
                }
                boolean taken;
                if (m.equals("jmp")) taken = true;
                else if (zf == null) {
                    return new Count(null, "a jump at " + Long.toHexString(i.address()) + " on flags not set by a test of a timer flag bit");
                } else if (m.equals("je") || m.equals("jz")) taken = zf;
                else if (m.equals("jne") || m.equals("jnz")) taken = !zf;
                else return new Count(null, "a jump (" + m + ") that a test's zero flag alone does not decide");
                k = taken ? at.get(i.target()) : k + 1;
                continue;
            }
            if (setsFlags(m)) zf = testOfFlagBit(i, flags);
            k++;
        }
        return new Count(null, "the path did not reach the lock call");
    }

    private static boolean callsLock(Instruction i) {
        return i.mnemonic().startsWith("call") && i.text().contains("<" + LOCK + ">");
    }

    private static boolean setsFlags(String m) {
        for (String p : SETS_FLAGS) if (m.startsWith(p)) return true;
        return false;
    }

    /** The zero flag after {@code test $BIT,%reg} with BIT a timer flag, on {@code flags}; null for any other instruction. */
    private static Boolean testOfFlagBit(Instruction i, int flags) {
        if (!i.mnemonic().startsWith("test")) return null;
        List<String> ops = Instruction.operands(i.text().substring(i.text().indexOf(' ') + 1).strip());
        if (ops.size() != 2 || !ops.get(0).startsWith("$0x") || !ops.get(1).startsWith("%")) return null;
        int bit;
        try {
            bit = Integer.parseUnsignedInt(ops.get(0).substring(3), 16);
        } catch (NumberFormatException e) {
            return null;
        }
        return FLAG_BITS.contains(bit) ? (flags & bit) == 0 : null;
    }

    /** As words: {@code TIMER_DEFERRABLE | cpu 1}. */
    static String describe(int flags) {
        return ((flags & TimerBases.TIMER_DEFERRABLE) != 0 ? "TIMER_DEFERRABLE | " : "") + "cpu " + (flags & 0x3ffff);
    }

    static String name(TimerbaseTwins.Variant v) {
        return v.name().toLowerCase(Locale.ROOT);
    }
}
