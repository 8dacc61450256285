package dev.corescope.cli;

import dev.corescope.cpumask.CpuListParser;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.cpumask.CpuMaskFormatException;
import dev.corescope.report.Json;
import dev.corescope.sys.internal.Os;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;

/**
 * {@code mask EXPR}: reads a CPU set as the kernel would ({@code bitmap_parselist()} or
 * {@code bitmap_parse()}) and prints it in both of the kernel's forms; the default width is in
 * the command's footer.
 */
@Command(name = "mask",
        mixinStandardHelpOptions = true,
        description = {
                "Parses a CPU set (cpulist or hex) as the kernel does.",
                "",
                "Parses a CPU set as the kernel does and prints it in the kernel's two forms:",
                "the canonical cpulist (%%*pbl), the hex cpumap (%%*pb), the weight and the width.",
                "  list (bitmap_parselist): 0-3,8  0-31:1/4 (used/group)  N (last bit)  all",
                "  hex (bitmap_parse):      ff,ffffffff (32-bit chunks, as in Cpus_allowed)",
                "Input the kernel rejects exits 2 with the reason and the kernel's error code.",
                "",
                "Examples:",
                "  ./run.sh mask 0-3,8                     list 0-3,8, hex 0000010f, weight 5",
                "  ./run.sh mask --nbits 64 0-63:1/4       every 4th CPU of 64",
                "  ./run.sh mask --input hex ff,ffffffff   CPUs 0-39",
                "  ./run.sh mask --format json N",
                ""},
        footer = {"",
                "Default --nbits: the smallest multiple of 32 that holds nr_cpu_ids (the last",
                "CPU in /sys/devices/system/cpu/possible, plus one) and every CPU that EXPR",
                "names; for hex input, 32 bits per chunk typed. N and all mean the last bit",
                "of that width (nbits - 1, as in the kernel); pass --nbits to change it.",
                "Several EXPR words are joined with spaces, which both syntaxes read as",
                "separators."})
final class MaskCommand implements Callable<Integer> {

    /** Wider masks are refused: 2 MiB of bits is far beyond any NR_CPUS (8192 on x86-64). */
    static final int MAX_NBITS = 1 << 24;

    enum Input { list, hex }

    @Spec
    CommandSpec spec;

    @Option(names = "--nbits", paramLabel = "N", description = "mask width in bits, 1-" + MAX_NBITS + " (default: see below)")
    Integer nbits;

    @Option(names = "--input", paramLabel = "FORM", description = "list (default) or hex")
    Input input = Input.list;

    @Option(names = "--format", paramLabel = "FMT", description = "text (default) or json", converter = OutputFormat.TextOrJson.class)
    OutputFormat format = OutputFormat.text;

    @Parameters(arity = "1..*", paramLabel = "EXPR", description = "the CPU set, e.g. 0-3,8 or (with --input hex) ff,ffffffff")
    List<String> words;

    /** What {@code mask} prints, in the CONTRACT's JSON field order. */
    record Report(String list, String hex, int weight, int nbits) {
        static Report of(CpuMask m) {
            return new Report(m.toList(), m.toHex(), m.weight(), m.nbits());
        }

        String text() {
            return "list    " + (list.isEmpty() ? "(empty)" : list) + "\n"
                    + "hex     " + hex + "\n"
                    + "weight  " + weight + "\n"
                    + "nbits   " + nbits + "\n";
        }
    }

    @Override
    public Integer call() {
        if (!OutputFormat.Only.TEXT_OR_JSON.accepted().contains(format)) throw OutputFormat.Only.TEXT_OR_JSON.refused(format);
        String expr = String.join(" ", words);
        if (nbits != null && (nbits < 1 || nbits > MAX_NBITS)) {
            throw new UsageException("--nbits " + nbits + ": must be between 1 and " + MAX_NBITS);
        }
        CpuMask mask;
        try {
            mask = input == Input.hex ? parseHex(expr) : parseList(expr);
        } catch (CpuMaskFormatException e) {
            String function = input == Input.hex ? "bitmap_parse" : "bitmap_parselist";
            throw new UsageException("'" + expr.strip() + "': " + e.getMessage()
                    + "; the kernel's " + function + " returns -" + e.code());
        }
        Report r = Report.of(mask);
        var out = ShortCommands.out(spec);
        out.print(format == OutputFormat.json ? Json.write(r) : r.text());
        out.flush();
        return Main.EXIT_OK;
    }

    private CpuMask parseList(String expr) {
        if (nbits != null) return CpuMask.parseList(expr, nbits);
        return parseListAtDefaultWidth(expr, Os.live().nrCpuIds(), CpuMask::parseList);
    }

    /**
     * {@code expr} parsed once, at the smallest multiple of 32 bits that holds {@code nrCpuIds}
     * and the widest CPU the list names below {@link #MAX_NBITS} (beyond it: the parser's ERANGE).
     */
    static CpuMask parseListAtDefaultWidth(String expr, int nrCpuIds, BiFunction<String, Integer, CpuMask> parser) {
        int width = roundUp32(nrCpuIds);
        long widest = CpuListParser.widestEnd(expr, MAX_NBITS);
        if (widest >= width) width = roundUp32((int) widest + 1);
        return parser.apply(expr, width);
    }

    private CpuMask parseHex(String expr) {
        int width = nbits != null ? nbits
                : (int) Math.min(MAX_NBITS, Math.max(roundUp32(Os.live().nrCpuIds()), 32L * CpuListParser.hexChunks(expr)));
        return CpuMask.parseHex(expr, width);
    }

    private static int roundUp32(int n) {
        return Math.max(32, (n + 31) & ~31);
    }
}
