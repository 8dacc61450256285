package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Markup;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The picture ({@code topology --format svg}): nested boxes like lstopo's, from the same
 * {@link DisplayTree} as the text. Packages are grey, shared caches white, cores dark grey with
 * their own caches as bars, PUs white; a PU this process may not use is red and hatched, offline
 * CPUs are listed in a dashed box below the machine, and a legend and the summary line close it.
 * A NUMA node is a band across the object whose CPUs it has, or, inside a package, a box of
 * its own around the caches and cores it holds.
 *
 * <p>Layout: each box lays its children left to right and wraps to a new row at a maximum
 * width, so a 128-core machine stays a readable page rather than one very long strip.
 */
public final class TopologySvg {

    private static final double CHAR_W = 7.3;
    private static final double LINE_H = 15;
    private static final double PAD = 6;
    private static final double GAP = 6;
    private static final double MAX_W = 1600;
    private static final int MAX_OFFLINE_BOXES = 64;

    private static final String MACHINE_FILL = "#ffffff";
    private static final String PACKAGE_FILL = "#dedede";
    private static final String DIE_FILL = "#e6e6f5";
    private static final String CLUSTER_FILL = "#eeeeee";
    private static final String CACHE_FILL = "#ffffff";
    private static final String CORE_FILL = "#bebebe";
    private static final String PU_FILL = "#ffffff";
    private static final String NUMA_FILL = "#efdfde";
    private static final String DISALLOWED_FILL = "url(#disallowed)";
    private static final String OFFLINE_FILL = "url(#offline)";

    private TopologySvg() {
    }

    /** A box: its text lines, its children (flowed in rows) and its bands (NUMA nodes, full width on top). */
    private static final class Box {
        final List<String> lines = new ArrayList<>();
        final List<Box> bands = new ArrayList<>();
        final List<Box> kids = new ArrayList<>();
        final List<String> bars = new ArrayList<>();
        String fill;
        String stroke = "#000000";
        boolean dashed;
        boolean bold;
        double x;
        double y;
        double w;
        double h;

        Box(String fill, String... text) {
            this.fill = fill;
            for (String s : text) if (s != null && !s.isEmpty()) lines.add(s);
        }
    }

    /**
     * The picture described in the class comment; text from the tree is escaped for XML.
     *
     * @param t the topology
     * @return a standalone SVG document
     */
    public static String render(Topology t) {
        DisplayTree tree = DisplayTree.of(t);
        Box machine = new Box(MACHINE_FILL, TopologyText.machineLine(t));
        machine.bold = true;
        for (DisplayTree.Item item : tree.roots()) add(t, machine, item);

        Box page = new Box("none");
        page.stroke = "none";
        page.kids.add(machine);
        if (!t.offline().isEmpty()) page.kids.add(offlineBox(t));
        page.kids.add(legend(t, tree));

        layout(page, MAX_W + 2 * PAD, true);
        place(page, 0, 0);
        double width = page.w;
        double height = page.h + LINE_H + PAD;

        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                        + "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"12\">\n",
                width, height, width, height));
        sb.append("<title>").append(esc("corescope topology: " + t.summaryLine())).append("</title>\n");
        sb.append("<defs>\n")
                .append("<pattern id=\"disallowed\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">")
                .append("<rect width=\"8\" height=\"8\" fill=\"#fbe0e0\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#e89090\" stroke-width=\"2\"/></pattern>\n")
                .append("<pattern id=\"offline\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">")
                .append("<rect width=\"8\" height=\"8\" fill=\"#f4f4f4\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#c8c8c8\" stroke-width=\"2\"/></pattern>\n")
                .append("</defs>\n");
        sb.append(String.format(Locale.ROOT, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", width, height));
        draw(sb, page);
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", PAD, page.h + LINE_H - 2, esc(t.summaryLine())));
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static void add(Topology t, Box parent, DisplayTree.Item item) {
        switch (item.kind()) {
            case NUMA -> {
                if (item.children().isEmpty()) {
                    parent.bands.add(new Box(NUMA_FILL, item.title() + " " + item.detail()));
                } else {
                    // a node inside a package: a box around the caches and cores it holds
                    Box b = new Box(NUMA_FILL, item.title(), item.detail());
                    b.bold = true;
                    for (DisplayTree.Item c : item.children()) add(t, b, c);
                    parent.kids.add(b);
                }
            }
            case CORE -> parent.kids.add(coreBox(t, item));
            case PU -> parent.kids.add(puBox(t, item.cpus().first()));
            default -> {
                String fill = switch (item.kind()) {
                    case PACKAGE -> PACKAGE_FILL;
                    case DIE -> DIE_FILL;
                    case CLUSTER -> CLUSTER_FILL;
                    default -> CACHE_FILL;
                };
                Box b = new Box(fill, item.title(), item.detail());
                b.bold = item.kind() == DisplayTree.Kind.PACKAGE;
                for (DisplayTree.Item c : item.children()) add(t, b, c);
                parent.kids.add(b);
            }
        }
    }

    private static Box coreBox(Topology t, DisplayTree.Item item) {
        Box b = new Box(CORE_FILL, item.title());
        List<Cache> caches = new ArrayList<>(item.coreCaches());
        caches.sort((x, y) -> x.level() != y.level() ? y.level() - x.level() : x.type().compareTo(y.type()));
        for (Cache c : caches) b.bars.add(c.label());
        for (int cpu : item.cpus().toArray()) b.kids.add(puBox(t, cpu));
        return b;
    }

    private static Box puBox(Topology t, int cpu) {
        boolean disallowed = t.allowed().isPresent() && !t.allowed().get().test(cpu);
        Box b = new Box(disallowed ? DISALLOWED_FILL : PU_FILL, "PU " + cpu, disallowed ? "not allowed" : null);
        if (disallowed) b.stroke = "#c00000";
        return b;
    }

    private static Box offlineBox(Topology t) {
        CpuMask off = t.offline();
        Box b = new Box("#ffffff", "Offline CPUs: " + off.toList() + " (" + off.weight() + ")");
        b.dashed = true;
        if (off.weight() <= MAX_OFFLINE_BOXES) {
            for (int cpu : off.toArray()) {
                Box pu = new Box(OFFLINE_FILL, "PU " + cpu, "offline");
                pu.dashed = true;
                pu.stroke = "#808080";
                b.kids.add(pu);
            }
        }
        return b;
    }

    private static Box legend(Topology t, DisplayTree tree) {
        Box b = new Box("#ffffff", "Legend");
        b.stroke = "#a0a0a0";
        EnumSet<DisplayTree.Kind> drawn = EnumSet.noneOf(DisplayTree.Kind.class);
        collectKinds(tree.roots(), drawn);
        if (drawn.contains(DisplayTree.Kind.PACKAGE)) b.kids.add(new Box(PACKAGE_FILL, "Package"));
        if (drawn.contains(DisplayTree.Kind.DIE)) b.kids.add(new Box(DIE_FILL, "Die"));
        if (drawn.contains(DisplayTree.Kind.CLUSTER)) b.kids.add(new Box(CLUSTER_FILL, "Cluster"));
        if (drawn.contains(DisplayTree.Kind.CACHE)) b.kids.add(new Box(CACHE_FILL, "shared cache"));
        if (drawn.contains(DisplayTree.Kind.CORE)) b.kids.add(new Box(CORE_FILL, "Core (own caches)"));
        b.kids.add(new Box(PU_FILL, "PU (logical CPU)"));
        if (drawn.contains(DisplayTree.Kind.NUMA)) b.kids.add(new Box(NUMA_FILL, "NUMA node"));
        if (t.allowed().isPresent()) {
            Box d = new Box(DISALLOWED_FILL, "PU not allowed (sched_getaffinity)");
            d.stroke = "#c00000";
            b.kids.add(d);
        }
        if (!t.offline().isEmpty()) {
            Box o = new Box(OFFLINE_FILL, "offline CPU");
            o.dashed = true;
            o.stroke = "#808080";
            b.kids.add(o);
        }
        return b;
    }

    private static void collectKinds(List<DisplayTree.Item> items, Set<DisplayTree.Kind> into) {
        for (DisplayTree.Item i : items) {
            into.add(i.kind());
            collectKinds(i.children(), into);
        }
    }

    // ---- layout ------------------------------------------------------------------------

    private static double textWidth(String s) {
        return s.length() * CHAR_W;
    }

    private static void layout(Box b, double maxW, boolean vertical) {
        double textW = 0;
        for (String s : b.lines) textW = Math.max(textW, textWidth(s));
        for (String s : b.bars) textW = Math.max(textW, textWidth(s) + 2 * PAD);
        double header = b.lines.size() * LINE_H + b.bars.size() * (LINE_H + 4);
        double inner = maxW - 2 * PAD;

        for (Box k : b.kids) layout(k, inner, false);
        for (Box k : b.bands) layout(k, inner, false);

        // flow children in rows
        double rowW = 0;
        double rowH = 0;
        double contentW = 0;
        double y = 0;
        List<double[]> pos = new ArrayList<>();
        for (Box k : b.kids) {
            boolean newRow = vertical ? rowW > 0 : rowW > 0 && rowW + GAP + k.w > inner;
            if (newRow) {
                y += rowH + GAP;
                rowW = 0;
                rowH = 0;
            }
            double x = rowW == 0 ? 0 : rowW + GAP;
            pos.add(new double[] {x, y});
            rowW = x + k.w;
            rowH = Math.max(rowH, k.h);
            contentW = Math.max(contentW, rowW);
        }
        double kidsH = b.kids.isEmpty() ? 0 : y + rowH;
        stretchRows(b.kids, pos);
        double bandsW = 0;
        for (Box band : b.bands) bandsW = Math.max(bandsW, band.w);
        contentW = Math.max(contentW, bandsW);
        double bandsH = 0;
        for (Box band : b.bands) {
            band.w = Math.max(band.w, contentW);
            bandsH += band.h + GAP;
        }

        b.w = Math.max(textW, contentW) + 2 * PAD;
        b.h = PAD + header + (b.bands.isEmpty() && b.kids.isEmpty() ? 0 : GAP / 2) + bandsH + kidsH + PAD;
        // remember relative positions for place()
        double top = PAD + header + (b.bands.isEmpty() && b.kids.isEmpty() ? 0 : GAP / 2);
        double by = top;
        for (Box band : b.bands) {
            band.x = PAD;
            band.y = by;
            by += band.h + GAP;
        }
        for (int i = 0; i < b.kids.size(); i++) {
            b.kids.get(i).x = PAD + pos.get(i)[0];
            b.kids.get(i).y = by + pos.get(i)[1];
        }
    }

    /** Boxes in one row get the row's height, as lstopo aligns them; PUs keep theirs. */
    private static void stretchRows(List<Box> kids, List<double[]> pos) {
        int i = 0;
        while (i < kids.size()) {
            int j = i;
            double h = 0;
            while (j < kids.size() && pos.get(j)[1] == pos.get(i)[1]) h = Math.max(h, kids.get(j++).h);
            for (int k = i; k < j; k++) if (!kids.get(k).kids.isEmpty() || !kids.get(k).bars.isEmpty()) kids.get(k).h = h;
            i = j;
        }
    }

    /** Turns relative positions into absolute ones. */
    private static void place(Box b, double ox, double oy) {
        b.x += ox;
        b.y += oy;
        for (Box k : b.bands) place(k, b.x, b.y);
        for (Box k : b.kids) place(k, b.x, b.y);
    }

    private static void draw(StringBuilder sb, Box b) {
        if (!b.fill.equals("none") || !b.stroke.equals("none")) {
            sb.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"3\" fill=\"%s\" stroke=\"%s\"%s/>\n",
                    b.x, b.y, b.w, b.h, b.fill, b.stroke, b.dashed ? " stroke-dasharray=\"4 3\"" : ""));
        }
        double ty = b.y + PAD + LINE_H - 4;
        for (int i = 0; i < b.lines.size(); i++) {
            boolean weight = i == 0 && b.bold;
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\"%s>%s</text>\n",
                    b.x + PAD, ty, weight ? " font-weight=\"bold\"" : "", esc(b.lines.get(i))));
            ty += LINE_H;
        }
        double barY = b.y + PAD + b.lines.size() * LINE_H;
        for (String bar : b.bars) {
            sb.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"#000000\"/>\n",
                    b.x + PAD, barY, b.w - 2 * PAD, LINE_H, CACHE_FILL));
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", b.x + 2 * PAD, barY + LINE_H - 4, esc(bar)));
            barY += LINE_H + 4;
        }
        for (Box k : b.bands) draw(sb, k);
        for (Box k : b.kids) draw(sb, k);
    }

    private static String esc(String s) {
        return Markup.escape(s);
    }
}
