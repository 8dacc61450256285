package dev.corescope.bench.c2c;

import dev.corescope.bench.SavedModel;
import dev.corescope.report.Matrix;
import dev.corescope.report.ResultsFile;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The one view of a {@link C2cModel}: the text report {@code bench c2c} prints and the heatmap
 * {@code --format svg} and the HTML page draw, the same from a live run or a saved file.
 */
final class C2cView {

    static final String TITLE = "Core-to-core latency";

    private C2cView() {
    }

    static String text(C2cModel m) {
        return C2cReport.text(m.cpuNumbers(), places(m), pairs(m), m.jmh(), m.notes());
    }

    /** The heatmap, labelled with each CPU's core, cache and package. */
    static String svg(C2cModel m) {
        return C2cHeatmap.svg(C2cFamily.matrix(m.cpuNumbers(), pairs(m)), places(m), TITLE);
    }

    /** The model a results file holds, if any. */
    static Optional<C2cModel> model(ResultsFile file) {
        return SavedModel.read(file, "c2c", C2cModel.class);
    }

    /**
     * The heatmap of a file without a model (written before models were saved): its matrix,
     * labelled by CPU number only, as the file does not say where each CPU sat.
     */
    static String svg(Matrix m) {
        List<CpuLabels.Place> places = Arrays.stream(m.cpus())
                .mapToObj(c -> new CpuLabels.Place(c, Optional.empty(), Optional.empty(), Optional.empty()))
                .toList();
        return C2cHeatmap.svg(m, places, TITLE);
    }

    private static List<CpuLabels.Place> places(C2cModel m) {
        return m.cpus().stream().map(C2cModel.Cpu::place).toList();
    }

    private static List<C2cFamily.Pair> pairs(C2cModel m) {
        return m.pairs().stream().map(p -> new C2cFamily.Pair(p.from(), p.to(), p.java().sampleStats(),
                p.nativeTwin() == null ? null : p.nativeTwin().sampleStats(), p.relation())).toList();
    }
}
