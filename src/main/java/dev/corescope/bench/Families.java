package dev.corescope.bench;

import dev.corescope.jitter.JitterView;
import dev.corescope.report.Claim;
import dev.corescope.report.FamilyViews;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.NoiseAllowance;
import dev.corescope.report.Pointers;
import dev.corescope.report.ResultsFile;
import dev.corescope.text.TextDoc;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * The registry of benchmark families: one line per family in
 * {@code META-INF/services/BenchFamily}, in the order the tour runs them.
 * {@code cli} reaches a family only through here and {@link BenchFamily}.
 */
public final class Families {

    private Families() {
    }

    /** Every registered family, in registry order. */
    public static List<BenchFamily> all() {
        List<BenchFamily> out = new ArrayList<>();
        ServiceLoader.load(BenchFamily.class, Families.class.getClassLoader()).forEach(out::add);
        return out;
    }

    /** The claims of every family in {@code families}, in registry order. */
    public static List<Claim> claims(List<BenchFamily> families) {
        return families.stream().flatMap(f -> f.claims().stream()).toList();
    }

    /** The own between-run allowances of every family in {@code families}. */
    public static List<NoiseAllowance> allowances(List<BenchFamily> families) {
        return families.stream().flatMap(f -> f.allowances().stream()).toList();
    }

    /** The latency by relation that {@code families}' models in {@code file} hold, in registry order. */
    public static List<MachineSummary.RelationLatency> relationLatencies(List<BenchFamily> families, ResultsFile file) {
        return families.stream().flatMap(f -> f.relationLatencies(file).stream()).toList();
    }

    /** {@link #allowances(List)} of every registered family. */
    public static List<NoiseAllowance> allowances() {
        return allowances(all());
    }

    /** {@link #claims(List)} of every registered family. */
    public static List<Claim> claims() {
        return claims(all());
    }

    /** The views of {@code families} for the HTML page: each one's document and pictures of a results file. */
    public static FamilyViews views(List<BenchFamily> families) {
        return views(families, new Guard() {
            @Override
            public <T> T render(ResultsFile file, String family, Supplier<T> view) {
                return view.get();
            }
        });
    }

    /** How one family's view of a file is made: as it is, or (for a file a user gave) with its failure as bad input. */
    public interface Guard {
        /** {@code view} of {@code family}'s part of {@code file} (its view, null when it has nothing to show, or its relation latencies). */
        <T> T render(ResultsFile file, String family, Supplier<T> view);
    }

    /** {@link #views(List)} with each family's view made through {@code guard}. */
    public static FamilyViews views(List<BenchFamily> families, Guard guard) {
        List<Claim> claims = claims(families);
        List<NoiseAllowance> allowances = allowances(families);
        return new FamilyViews() {
            @Override
            public List<View> of(ResultsFile file) {
                List<FamilyViews.View> views = new ArrayList<>();
                for (BenchFamily f : families) {
                    FamilyViews.View v = guard.render(file, f.name(), () -> {
                        Optional<TextDoc> doc = f.document(file);
                        doc.ifPresent(d -> Pointers.disagreementNote(file, f.name()).ifPresent(n -> d.notes(List.of(n))));
                        List<String> svgs = f.pictures(file);
                        return doc.isPresent() || !svgs.isEmpty() ? new FamilyViews.View(f.name(), svgs, doc.orElse(null)) : null;
                    });
                    if (v != null) views.add(v);
                }
                guard.render(file, "jitter", () -> JitterView.of(file)).ifPresent(views::add);
                return views;
            }

            @Override
            public List<Claim> claims() {
                return claims;
            }

            @Override
            public List<MachineSummary.RelationLatency> relationLatencies(ResultsFile file) {
                return families.stream().flatMap(f -> guard.render(file, f.name(), () -> f.relationLatencies(file)).stream()).toList();
            }

            @Override
            public MachineSummary.JitterQuantiles jitter(ResultsFile file) {
                return guard.render(file, "jitter", () -> JitterView.quantiles(file));
            }

            @Override
            public List<NoiseAllowance> allowances() {
                return allowances;
            }
        };
    }

    /** {@link #views(List)} of every registered family. */
    public static FamilyViews views() {
        return views(all());
    }
}
