package dev.corescope.cpumask;

import java.util.Arrays;
import java.util.BitSet;
import java.util.PrimitiveIterator;
import java.util.function.IntConsumer;
import java.util.function.LongBinaryOperator;
import java.util.stream.IntStream;

/**
 * An immutable set of CPU numbers {@code 0 .. nbits-1} with the semantics of the Linux
 * kernel's {@code struct cpumask} ({@code include/linux/cpumask.h}, v6.16).
 *
 * <p>Storage is word-at-a-time in {@code long}s, bit {@code i} in word {@code i / 64} at
 * position {@code i % 64}: the layout of the kernel's {@code unsigned long} bitmap and of
 * glibc's {@code cpu_set_t} on 64-bit Linux, so a mask crosses the FFM boundary as its
 * words. {@code nbits} plays the part of {@code nr_cpu_ids} (or {@code NR_CPUS}): searches
 * that find nothing return {@code nbits}, as the kernel's return {@code >= nr_cpu_ids}.
 * Bits at or beyond {@code nbits} are always clear.
 *
 * <p>Most code wants {@link #ofCpus(int...)} ({@code CpuMask.ofCpus(2, 3)}) or {@link #parse(String)}
 * ({@code CpuMask.parse("0-3,8")}): both are sized for this machine ({@link #machineSize()}).
 * The factories that take a bit count first ({@link #of(int, int...)}, {@link #empty},
 * {@link #range}, {@link #parseList}) are for code that knows the size it wants.
 * Use {@link Builder} to build a mask bit by bit; {@link #parseList} and
 * {@link #parseHex} read the kernel's two text forms; {@link #toList} and {@link #toHex}
 * print them as {@code %*pbl} and {@code %*pb} do (both in {@link CpuListParser}).
 */
public final class CpuMask implements Iterable<Integer> {

    private static final int WORD_BITS = Long.SIZE;

    private final int nbits;
    private final long[] words;
    /** {@link #hashCode}, 0 until computed (a benign race: every thread computes the same value). */
    private int hash;

    private CpuMask(int nbits, long[] words) {
        this.nbits = nbits;
        this.words = words;
    }

    // ---- construction ------------------------------------------------------------------

    /**
     * {@return the empty mask of {@code nbits} bits}
     *
     * @param nbits the bit count (the {@code nr_cpu_ids} of the mask), at least 1
     * @throws IllegalArgumentException when {@code nbits < 1}
     */
    public static CpuMask empty(int nbits) {
        return new CpuMask(checkNbits(nbits), new long[wordsFor(nbits)]);
    }

    /**
     * {@return every CPU of {@code 0 .. nbits-1}}
     *
     * @param nbits the bit count, at least 1
     */
    public static CpuMask full(int nbits) {
        return range(nbits, 0, nbits - 1);
    }

    /**
     * {@return the CPUs {@code from .. to}, both included; empty when {@code to < from}}
     *
     * @param nbits the bit count, at least 1
     * @param from the first CPU, {@code 0 <= from < nbits} (unless the range is empty)
     * @param to the last CPU, {@code to < nbits}
     * @throws IndexOutOfBoundsException when a bound of a non-empty range is outside {@code 0 .. nbits-1}
     */
    public static CpuMask range(int nbits, int from, int to) {
        Builder b = builder(nbits);
        if (to >= from) b.setRange(from, to);
        return b.build();
    }

    /**
     * {@return the mask of {@code nbits} bits holding exactly {@code cpus}} The first argument
     * is the bit count: for "CPUs 1 and 3 of this machine" use {@link #ofCpus(int...)}.
     *
     * @param nbits the bit count, at least 1
     * @param cpus CPU numbers below {@code nbits}; repeats are allowed
     * @throws IndexOutOfBoundsException when a CPU is negative or not below {@code nbits}
     */
    public static CpuMask of(int nbits, int... cpus) {
        Builder b = builder(nbits);
        for (int cpu : cpus) b.set(cpu);
        return b.build();
    }

    /**
     * Refused: {@code CpuMask.of(n)} would be an empty mask of {@code n} bits, which is never what
     * it looks like. Use {@link #ofCpus(int...)} for the mask holding CPU {@code n}, or
     * {@link #empty(int)} for an empty mask of {@code n} bits.
     *
     * @param nbits what the caller passed
     * @return never
     * @throws IllegalArgumentException always, naming the two factories
     * @deprecated a call with the bit count alone is a mistake; see above
     * @since 0.2.0
     */
    @Deprecated(since = "0.2.0")
    public static CpuMask of(int nbits) {
        throw new IllegalArgumentException("CpuMask.of(" + nbits + ") would be an empty mask of " + nbits
                + " bits (the first argument of of(nbits, cpus...) is the bit count): use CpuMask.ofCpus("
                + nbits + ") for CPU " + nbits + ", or CpuMask.empty(" + nbits + ")");
    }

    /**
     * {@return the mask holding exactly {@code cpus}, sized for this machine} That is
     * {@link #machineSize()} bits, or more when a CPU is beyond it (the kernel would refuse to
     * pin to such a CPU, with a message saying so).
     *
     * <pre>{@code
     * CpuMask two = CpuMask.ofCpus(2, 3);        // CPUs 2 and 3
     * try (var p = ThreadAffinity.pin(two)) { ... }
     * }</pre>
     *
     * @param cpus CPU numbers, 0 or more; repeats are allowed
     * @throws IllegalArgumentException when a CPU number is negative
     * @since 0.2.0
     */
    public static CpuMask ofCpus(int... cpus) {
        int nbits = machineSize();
        for (int cpu : cpus) {
            if (cpu < 0) throw new IllegalArgumentException("a CPU number cannot be negative: " + cpu);
            nbits = Math.max(nbits, cpu + 1);
        }
        return of(nbits, cpus);
    }

    /**
     * {@return the mask of a cpulist such as {@code 0-3,8}} The list is in the form of
     * {@code taskset -c}, {@code isolcpus=} and {@code /sys/devices/system/cpu/online}; the mask
     * is sized for this machine like {@link #ofCpus(int...)}, and {@code N} is the machine's last
     * possible CPU.
     *
     * <pre>{@code
     * CpuMask m = CpuMask.parse("0-3,8");   // m.toList() is "0-3,8", m.nbits() is the machine's
     * }</pre>
     *
     * @param cpulist the list; see {@link CpuListParser} for the whole grammar
     * @throws CpuMaskFormatException when the text is not a cpulist
     * @since 0.2.0
     */
    public static CpuMask parse(String cpulist) {
        return CpuListParser.parseSized(cpulist);
    }

    /**
     * {@return the bit count {@link #ofCpus} and {@link #parse} give a mask, at least 1} It is
     * this machine's {@code nr_cpu_ids}, one more than the last CPU in
     * {@code /sys/devices/system/cpu/possible} (read once), or the JVM's processor count where
     * that file cannot be read. Masks the OS seam returns have the same size, so they compare
     * {@link #equals equal} to these.
     *
     * @since 0.2.0
     */
    public static int machineSize() {
        return CpuListParser.MachineSize.NBITS;
    }

    /**
     * {@return the mask whose words are {@code words}} Bit {@code i} is in {@code words[i/64]},
     * as the kernel and {@code cpu_set_t} store it; bits at or beyond {@code nbits} are dropped.
     *
     * @param nbits the bit count, at least 1
     * @param words the bitmap; copied, shorter arrays are padded with zeros
     */
    public static CpuMask fromWords(int nbits, long[] words) {
        long[] w = Arrays.copyOf(words, wordsFor(checkNbits(nbits)));
        clearTail(nbits, w);
        return new CpuMask(nbits, w);
    }

    /**
     * {@return the mask of {@code nbits} bits holding the set bits of {@code set} below {@code nbits}}
     *
     * @param nbits the bit count, at least 1
     * @param set the CPUs (bit {@code i} = CPU {@code i}); not changed
     */
    public static CpuMask fromBitSet(int nbits, BitSet set) {
        return fromWords(nbits, set.toLongArray());
    }

    /**
     * {@return a new builder for a mask of {@code nbits} bits, empty at first (not thread-safe)}
     *
     * @param nbits the bit count, at least 1
     */
    public static Builder builder(int nbits) {
        return new Builder(checkNbits(nbits));
    }

    /**
     * {@return the mask of {@code nbits} bits a cpulist names} For example {@code 0-3,8},
     * {@code 0-31:1/4}, {@code N} or {@code all}; see {@link CpuListParser}.
     *
     * @param text the list; white space as the kernel takes it (see {@link CpuListParser})
     * @param nbits the bit count; {@code N} means {@code nbits - 1}
     * @throws CpuMaskFormatException when the text is not a cpulist or names a CPU at or beyond {@code nbits}
     */
    public static CpuMask parseList(String text, int nbits) {
        return CpuListParser.parseList(text, nbits);
    }

    /**
     * {@return the mask of {@code nbits} bits a hex cpumap sets} For example {@code ff,ffffffff},
     * the form of {@code /proc/irq/N/smp_affinity}; see {@link CpuListParser}.
     *
     * @param text comma-separated 32-bit hex chunks, most significant first
     * @param nbits the bit count
     * @throws CpuMaskFormatException when the text is not a cpumap or sets a bit at or beyond {@code nbits}
     */
    public static CpuMask parseHex(String text, int nbits) {
        return CpuListParser.parseHex(text, nbits);
    }

    // ---- queries -----------------------------------------------------------------------

    /** {@return the number of bits, the {@code nr_cpu_ids} of this mask: at least 1} */
    public int nbits() {
        return nbits;
    }

    /**
     * {@return whether {@code cpu} is set; false at or beyond {@code nbits} ({@code cpumask_test_cpu})}
     *
     * @param cpu a CPU number, 0 or more
     * @throws IndexOutOfBoundsException when {@code cpu} is negative
     */
    public boolean test(int cpu) {
        if (cpu < 0) throw new IndexOutOfBoundsException("cpu " + cpu + " is negative");
        return cpu < nbits && (words[cpu >>> 6] & (1L << cpu)) != 0;
    }

    /** {@return how many CPUs are set, 0 to {@code nbits} ({@code cpumask_weight})} */
    public int weight() {
        int n = 0;
        for (long w : words) n += Long.bitCount(w);
        return n;
    }

    /** {@return whether no CPU is set ({@code cpumask_empty})} */
    public boolean isEmpty() {
        for (long w : words) if (w != 0) return false;
        return true;
    }

    /** {@return the lowest set CPU, or {@code nbits} when the mask is empty ({@code cpumask_first}, {@code find_first_bit})} */
    public int first() {
        for (int i = 0; i < words.length; i++) {
            if (words[i] != 0) return i * WORD_BITS + Long.numberOfTrailingZeros(words[i]);
        }
        return nbits;
    }

    /**
     * {@return the lowest set CPU strictly above {@code n}, or
     * {@code nbits} if none ({@code cpumask_next(n, mask)})} {@code n = -1} gives {@link #first()}, as in the kernel.
     *
     * @param n the CPU to search above; -1 to start at 0
     */
    public int next(int n) {
        return search(n, 0L);
    }

    /**
     * {@return the lowest clear CPU strictly above {@code n},
     * or {@code nbits} if every CPU above {@code n} is set ({@code cpumask_next_zero(n, mask)})}
     *
     * @param n the CPU to search above; -1 to start at 0
     */
    public int nextZero(int n) {
        return search(n, -1L);
    }

    /** The first CPU above {@code n} whose bit, flipped by {@code flip} (0 or all ones), is set; {@code nbits} if none. */
    private int search(int n, long flip) {
        int start = Math.max(0, n + 1);
        if (start >= nbits) return nbits;
        int i = start >>> 6;
        for (long w = (words[i] ^ flip) & (-1L << start); ; w = words[i] ^ flip) {
            if (w != 0) return Math.min(nbits, i * WORD_BITS + Long.numberOfTrailingZeros(w));
            if (++i == words.length) return nbits;
        }
    }

    /** {@return the highest set CPU, or {@code nbits} when the mask is empty ({@code cpumask_last})} */
    public int last() {
        for (int i = words.length - 1; i >= 0; i--) {
            if (words[i] != 0) return i * WORD_BITS + (WORD_BITS - 1 - Long.numberOfLeadingZeros(words[i]));
        }
        return nbits;
    }

    /**
     * {@return the first CPU, or the next one when the first is {@code cpu}; {@code nbits} if none}
     * This is {@code cpumask_first_but(mask, cpu)}, the function seed 000 adds (RFC, June 2025).
     *
     * @param cpu the CPU to skip (any number; one not in the mask skips nothing)
     */
    public int firstBut(int cpu) {
        int i = first();
        return i == cpu ? next(i) : i;
    }

    /**
     * {@code cpumask_any_but(mask, cpu)} as it was before seed 000 (v6.15 and earlier):
     * {@code for_each_cpu(i, mask) if (i != cpu) break; return i;}. Same answer as
     * {@link #firstBut}; kept to measure the difference. It calls what the kernel's loop calls:
     * {@code for_each_cpu} is {@code for_each_set_bit}, which starts with
     * {@code find_next_bit(mask, size, 0)}, that is {@code next(-1)}, not {@link #first()}
     * ({@code find_first_bit}); that call is the difference the patch made.
     *
     * @param cpu the CPU to skip
     * @return the same as {@link #firstBut}
     */
    public int anyButLoop(int cpu) {
        int i;
        for (i = next(-1); i < nbits; i = next(i)) {
            if (i != cpu) break;
        }
        return i;
    }

    /**
     * {@return whether both hold exactly the same CPUs, whatever the two
     * bit counts ({@code cpumask_equal})} ({@link #equals} also compares {@code nbits}.)
     *
     * @param other the other mask, not null
     */
    public boolean sameCpus(CpuMask other) {
        int n = Math.max(words.length, other.words.length);
        for (int i = 0; i < n; i++) if (word(i) != other.word(i)) return false;
        return true;
    }

    /**
     * {@return whether every CPU of this mask is in {@code other} ({@code cpumask_subset})} The
     * empty mask is a subset of any.
     *
     * @param other the other mask, of any bit count, not null
     */
    public boolean isSubsetOf(CpuMask other) {
        for (int i = 0; i < words.length; i++) if ((words[i] & ~other.word(i)) != 0) return false;
        return true;
    }

    /**
     * {@return whether a CPU is in both masks ({@code cpumask_intersects})}
     *
     * @param other the other mask, of any bit count, not null
     */
    public boolean intersects(CpuMask other) {
        int n = Math.min(words.length, other.words.length);
        for (int i = 0; i < n; i++) if ((words[i] & other.words[i]) != 0) return true;
        return false;
    }

    // ---- operations returning new masks of this mask's nbits (CPUs of other beyond it are dropped)

    /**
     * {@return the CPUs in both ({@code cpumask_and})}
     *
     * @param other the other mask, of any bit count, not null
     */
    public CpuMask and(CpuMask other) {
        return combine(other, (a, b) -> a & b);
    }

    /**
     * {@return the CPUs in either ({@code cpumask_or})}
     *
     * @param other the other mask, of any bit count, not null
     */
    public CpuMask or(CpuMask other) {
        return combine(other, (a, b) -> a | b);
    }

    /**
     * {@return this mask without the CPUs of {@code other} ({@code cpumask_andnot})}
     *
     * @param other the CPUs to remove, a mask of any bit count, not null
     */
    public CpuMask andNot(CpuMask other) {
        return combine(other, (a, b) -> a & ~b);
    }

    /**
     * {@return the CPUs in exactly one of the two ({@code cpumask_xor})}
     *
     * @param other the other mask, of any bit count, not null
     */
    public CpuMask xor(CpuMask other) {
        return combine(other, (a, b) -> a ^ b);
    }

    /** {@return the CPUs below {@code nbits} not in this mask ({@code cpumask_complement})} */
    public CpuMask complement() {
        return combine(this, (a, b) -> ~a);
    }

    private CpuMask combine(CpuMask other, LongBinaryOperator op) {
        long[] w = new long[words.length];
        for (int i = 0; i < w.length; i++) w[i] = op.applyAsLong(words[i], other.word(i));
        clearTail(nbits, w);
        return new CpuMask(nbits, w);
    }

    /**
     * {@return a copy of this mask with {@code cpu} set} ({@code cpumask_set_cpu} on a copy)
     *
     * @param cpu the CPU, {@code 0 <= cpu < nbits}
     * @throws IndexOutOfBoundsException when {@code cpu} is outside the mask
     */
    public CpuMask with(int cpu) {
        return toBuilder().set(cpu).build();
    }

    /**
     * {@return a copy of this mask with {@code cpu} cleared} ({@code cpumask_clear_cpu} on a copy)
     *
     * @param cpu the CPU, {@code 0 <= cpu < nbits}
     * @throws IndexOutOfBoundsException when {@code cpu} is outside the mask
     */
    public CpuMask without(int cpu) {
        return toBuilder().clear(cpu).build();
    }

    /**
     * {@return the same CPUs in a mask of {@code newNbits} bits; CPUs at or beyond it are dropped}
     * Masks of two sizes compare {@link #equals equal} after resizing one to the other's size.
     *
     * @param newNbits the new bit count, at least 1
     */
    public CpuMask resize(int newNbits) {
        return fromWords(newNbits, words);
    }

    /** {@return a new builder of the same {@code nbits} holding this mask's CPUs, to change a few bits without a copy per change} */
    public Builder toBuilder() {
        Builder b = new Builder(nbits);
        System.arraycopy(words, 0, b.words, 0, words.length);
        return b;
    }

    // ---- iteration and conversion ------------------------------------------------------

    /**
     * {@code for_each_cpu}: calls {@code action} for every set CPU, lowest first, without
     * boxing (the {@link #iterator()} boxes when used as an {@code Iterable<Integer>}).
     *
     * @param action called once per CPU, not null
     */
    public void forEachCpu(IntConsumer action) {
        for (int i = 0; i < words.length; i++) {
            for (long w = words[i]; w != 0; w &= w - 1) action.accept(i * WORD_BITS + Long.numberOfTrailingZeros(w));
        }
    }

    /** {@return a new iterator over the set CPUs, lowest first, whose {@code nextInt()} does not box} */
    @Override
    public PrimitiveIterator.OfInt iterator() {
        return stream().iterator();
    }

    /** {@return the set CPUs, lowest first, as a sequential stream} */
    public IntStream stream() {
        return IntStream.iterate(first(), cpu -> cpu < nbits, this::next);
    }

    /** {@return a new array of the {@link #weight()} set CPUs, lowest first} */
    public int[] toArray() {
        int[] out = new int[weight()];
        int[] k = {0};
        forEachCpu(cpu -> out[k[0]++] = cpu);
        return out;
    }

    /** {@return a copy of the {@link #wordCount()} words, bit {@code i} in word {@code i/64}: the bytes of a {@code cpu_set_t} on 64-bit Linux} */
    public long[] toWords() {
        return words.clone();
    }

    /**
     * {@return word {@code i} (CPUs {@code 64*i .. 64*i+63}), or 0 past the end} The others are not copied.
     *
     * @param i the word index, 0 or more
     */
    public long word(int i) {
        return i < words.length ? words[i] : 0L;
    }

    /** {@return how many 64-bit words hold the mask: {@code ceil(nbits / 64)}} */
    public int wordCount() {
        return words.length;
    }

    /** {@return the set CPUs as a new, independent {@link BitSet} (bit {@code i} = CPU {@code i})} */
    public BitSet toBitSet() {
        return BitSet.valueOf(words);
    }

    /**
     * {@return the canonical cpulist, as the kernel's {@code %*pbl} prints it} That is
     * {@code bitmap_list_string()} in lib/vsprintf.c: ascending, runs of two or more as
     * {@code a-b}: {@code 0-3,8}; {@code ""} when empty. {@link #parseList} reads it back.
     */
    public String toList() {
        return CpuListParser.list(this);
    }

    /**
     * {@return the hex cpumap, as the kernel's {@code %*pb} prints it, e.g. {@code 00000000,0000ff0f}}
     * That is {@code bitmap_string()} in lib/vsprintf.c: 32-bit chunks, most significant first,
     * separated by commas; the first chunk is as wide as the bits it holds, the others 8 digits.
     * {@link #parseHex} reads it back.
     */
    public String toHex() {
        return CpuListParser.hex(this);
    }

    /** Equal when both the bits and {@code nbits} are; see {@link #sameCpus} for bits alone. */
    @Override
    public boolean equals(Object o) {
        return o instanceof CpuMask m && m.nbits == nbits && Arrays.equals(m.words, words);
    }

    /**
     * {@return a hash of the bits and {@code nbits}, consistent with {@link #equals}, computed once}
     * Each word is mixed in by a multiply and the sum finished as MurmurHash3's {@code fmix64}:
     * {@code Arrays.hashCode} would fold bit {@code n} onto bit {@code n + 32} of a word, so the
     * one-CPU masks of a large machine's private caches would collide in pairs.
     */
    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            long x = nbits;
            for (long w : words) {
                x = (x ^ w) * 0x9E3779B97F4A7C15L;
                x ^= x >>> 32;
            }
            x ^= x >>> 33;
            x *= 0xff51afd7ed558ccdL;
            x ^= x >>> 33;
            x *= 0xc4ceb9fe1a85ec53L;
            x ^= x >>> 33;
            h = (int) x == 0 ? 1 : (int) x;
            hash = h;
        }
        return h;
    }

    /** The cpulist, e.g. {@code 0-3,8}. */
    @Override
    public String toString() {
        return toList();
    }

    // ---- helpers -----------------------------------------------------------------------

    static int wordsFor(int nbits) {
        return (nbits + WORD_BITS - 1) / WORD_BITS;
    }

    private static int checkNbits(int nbits) {
        if (nbits < 1) throw new IllegalArgumentException("nbits must be at least 1, not " + nbits);
        return nbits;
    }

    private static void clearTail(int nbits, long[] w) {
        int rem = nbits & 63;
        if (rem != 0 && w.length > 0) w[w.length - 1] &= (1L << rem) - 1;
    }

    /**
     * A mutable mask under construction: {@code cpumask_set_cpu}, {@code cpumask_clear_cpu}.
     * Made by {@link CpuMask#builder} or {@link CpuMask#toBuilder}; not thread-safe;
     * {@link #build()} copies, so the builder may go on changing afterwards.
     */
    public static final class Builder {
        private final int nbits;
        private final long[] words;

        private Builder(int nbits) {
            this.nbits = nbits;
            this.words = new long[wordsFor(nbits)];
        }

        /** {@return the bit count of the mask being built, at least 1} */
        public int nbits() {
            return nbits;
        }

        /**
         * {@return this builder, with {@code cpu} set}
         *
         * @param cpu the CPU, {@code 0 <= cpu < nbits}
         * @throws IndexOutOfBoundsException when {@code cpu} is outside the mask
         */
        public Builder set(int cpu) {
            words[check(cpu) >>> 6] |= 1L << cpu;
            return this;
        }

        /**
         * {@return this builder, with {@code cpu} cleared}
         *
         * @param cpu the CPU, {@code 0 <= cpu < nbits}
         * @throws IndexOutOfBoundsException when {@code cpu} is outside the mask
         */
        public Builder clear(int cpu) {
            words[check(cpu) >>> 6] &= ~(1L << cpu);
            return this;
        }

        /**
         * {@return this builder, with {@code from .. to} set (both included, a word at a time)}
         *
         * @param from the first CPU, {@code 0 <= from < nbits}
         * @param to the last CPU, {@code from <= to < nbits}
         * @throws IndexOutOfBoundsException when a bound is outside the mask
         * @throws IllegalArgumentException when {@code to < from}
         */
        public Builder setRange(int from, int to) {
            int fw = check(from) >>> 6, tw = check(to) >>> 6;
            if (to < from) throw new IllegalArgumentException("range " + from + "-" + to + " is inverted");
            long firstMask = -1L << from;
            long lastMask = -1L >>> (63 - (to & 63));
            if (fw == tw) {
                words[fw] |= firstMask & lastMask;
            } else {
                words[fw] |= firstMask;
                for (int i = fw + 1; i < tw; i++) words[i] = -1L;
                words[tw] |= lastMask;
            }
            return this;
        }

        /**
         * {@return whether {@code cpu} is set so far}
         *
         * @param cpu the CPU, {@code 0 <= cpu < nbits}
         * @throws IndexOutOfBoundsException when {@code cpu} is outside the mask
         */
        public boolean test(int cpu) {
            return (words[check(cpu) >>> 6] & (1L << cpu)) != 0;
        }

        /** {@return a new immutable mask of the bits set so far (a copy: later changes to the builder do not show in it)} */
        public CpuMask build() {
            return new CpuMask(nbits, words.clone());
        }

        private int check(int cpu) {
            if (cpu < 0 || cpu >= nbits) throw new IndexOutOfBoundsException("CPU " + cpu + " is outside 0-" + (nbits - 1));
            return cpu;
        }
    }
}
