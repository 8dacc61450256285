package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Shorten;
import dev.corescope.topology.proc.CgroupCpuset;

import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads hwloc's XML ({@code lstopo --of xml}, {@code hwloc-gather-topology}) into a
 * {@link Topology}: v2 (and v3) as hwloc 2.x writes it, and v1 as hwloc 1.x wrote it (NUMA
 * nodes in the tree, {@code Socket} or {@code Package}, {@code Cache} objects with a depth, the
 * {@code online_cpuset}). Packages, dies, Groups of subtype {@code Cluster}, cores and PUs make
 * the tree; other Groups, Misc, I/O and memory-side caches are stepped through or skipped. NUMA
 * distances come from {@code distances2} (v2) or {@code distances} (v1); core kinds from
 * {@code cpukind}.
 *
 * <p>The parser is StAX with DTDs off and external entities off: the one-line
 * {@code <!DOCTYPE topology SYSTEM "hwloc2.dtd">} that hwloc writes is accepted and not loaded;
 * a document type with an internal subset (entity declarations, the way XXE and "billion
 * laughs" arrive) is refused, and so is any entity reference. Size, nesting and attributes are
 * capped by this class's own limits (the JDK's, which it would report in its own words, are
 * lifted), and the parser's errors come back here, never to stderr. The numbers follow the
 * rules of a saved tree ({@code --root}): a PU is a CPU number below {@link TopologyReader#MAX_CPUS},
 * each CPU one PU, sizes are not negative, the machine has a CPU; names are cut to
 * {@link Topology#MAX_NAME}.
 * Every refusal is an {@link IllegalArgumentException} with a one-line reason that names the file.
 */
public final class HwlocXmlReader {

    /** Larger than hwloc's XML of a 8192-CPU machine with its I/O tree. */
    static final long MAX_BYTES = 64L << 20;
    static final int MAX_DEPTH = 128;
    static final int MAX_ELEMENTS = 4_000_000;
    /** hwloc writes at most a dozen attributes per element. */
    static final int MAX_ATTRIBUTES = 64;

    private HwlocXmlReader() {
    }

    /** One element, with its attributes, children and text. */
    record Element(String name, Map<String, String> attrs, List<Element> children, String text) {
        String attr(String n) {
            return attrs.get(n);
        }

        List<Element> all(String n) {
            List<Element> out = new ArrayList<>();
            for (Element e : children) if (e.name.equals(n)) out.add(e);
            return out;
        }
    }

    /**
     * Reads {@code file}.
     *
     * @param file an hwloc XML file (v1 or v2, as {@code lstopo --of xml} writes)
     * @return the topology it describes ({@link Topology#allowed()} is the writing process's
     *         {@code sched_getaffinity} set where corescope wrote it ({@link HwlocXmlWriter#INFO_AFFINITY}), else empty)
     * @throws IllegalArgumentException {@code FILE: why}, when the file cannot be read, is not
     *                                  well-formed XML, uses a DTD or entities, or is not hwloc's topology
     */
    public static Topology read(Path file) {
        try {
            if (!Files.isRegularFile(file)) throw new IllegalArgumentException(file + ": not a regular file");
            if (Files.size(file) > MAX_BYTES) throw new IllegalArgumentException(file + ": larger than " + (MAX_BYTES >> 20) + " MiB, not an hwloc XML topology");
            Element root;
            try (InputStream in = Files.newInputStream(file)) {
                root = parse(in, file.toString());
            }
            return new Interpreter(file.toString()).topology(root);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage());
        }
    }

    /**
     * Reads hwloc XML held in a string (the topology a results file saved); {@code name} names
     * it in the reasons, with the protections of the class comment.
     *
     * @param xml the document
     * @param name what to call it in a reason, e.g. the results file's name
     * @return the topology it describes
     * @throws IllegalArgumentException {@code NAME: why}, as {@link #read(Path)}
     */
    public static Topology read(String xml, String name) {
        if (xml.length() > MAX_BYTES) throw new IllegalArgumentException(name + ": larger than " + (MAX_BYTES >> 20) + " MiB, not an hwloc XML topology");
        Element root = parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), name);
        return new Interpreter(name).topology(root);
    }

    /** The element tree of a document, with the protections of the class comment. */
    static Element parse(InputStream in, String name) {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        trySet(f, XMLConstants.ACCESS_EXTERNAL_DTD, "");
        trySet(f, XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        // the JDK's own limits (depth 100, 200 attributes, ...) lifted: this class's apply, in its words
        for (String limit : List.of("jdk.xml.maxElementDepth", "jdk.xml.elementAttributeLimit", "jdk.xml.maxXMLNameLimit")) trySet(f, limit, "0");
        f.setXMLReporter((message, type, info, location) -> {
            // warnings are not printed: a refusal is the exception, in one line
        });
        XMLStreamReader r = null;
        try {
            // decoded here, not by the parser: hwloc writes UTF-8, and the parser's own decoder
            // prints "[Fatal Error]" lines to stderr on bytes that are not
            r = f.createXMLStreamReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)));
            List<Element> stack = new ArrayList<>();
            List<StringBuilder> texts = new ArrayList<>();
            Element top = null;
            int elements = 0;
            while (r.hasNext()) {
                int ev = r.next();
                switch (ev) {
                    case XMLStreamConstants.DTD -> {
                        String dtd = r.getText();
                        if (dtd != null && dtd.indexOf('[') >= 0) {
                            throw new IllegalArgumentException(name + ": has a document type with declarations (an internal DTD subset); refused, hwloc's XML has none");
                        }
                    }
                    case XMLStreamConstants.ENTITY_REFERENCE -> throw new IllegalArgumentException(
                            name + ": line " + r.getLocation().getLineNumber() + ": entity reference &" + r.getLocalName() + "; refused, hwloc's XML has none");
                    case XMLStreamConstants.START_ELEMENT -> {
                        if (++elements > MAX_ELEMENTS) throw new IllegalArgumentException(name + ": more than " + MAX_ELEMENTS + " elements");
                        if (stack.size() >= MAX_DEPTH) throw new IllegalArgumentException(name + ": nested deeper than " + MAX_DEPTH + " elements");
                        if (r.getAttributeCount() > MAX_ATTRIBUTES) {
                            throw new IllegalArgumentException(name + ": line " + r.getLocation().getLineNumber() + ": an element with "
                                    + r.getAttributeCount() + " attributes, more than the " + MAX_ATTRIBUTES + " an hwloc XML element may have");
                        }
                        Map<String, String> attrs = new LinkedHashMap<>();
                        for (int i = 0; i < r.getAttributeCount(); i++) attrs.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
                        Element e = new Element(r.getLocalName(), attrs, new ArrayList<>(), null);
                        stack.add(e);
                        texts.add(new StringBuilder());
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
                        if (!texts.isEmpty() && texts.getLast().length() < (1 << 24)) texts.getLast().append(r.getText());
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        Element open = stack.removeLast();
                        Element e = new Element(open.name, open.attrs, open.children, texts.removeLast().toString());
                        if (stack.isEmpty()) top = e;
                        else stack.getLast().children.add(e);
                    }
                    default -> {
                    }
                }
            }
            if (top == null) throw new IllegalArgumentException(name + ": no root element");
            return top;
        } catch (XMLStreamException e) {
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof CharacterCodingException) {
                    throw new IllegalArgumentException(name + ": not UTF-8 text, so not hwloc's XML (which is UTF-8)");
                }
            }
            String msg = String.valueOf(e.getMessage()).replace('\n', ' ').replaceAll("\\s+", " ");
            // the JDK's message starts with "ParseError at [row,col]:[r,c] Message: ..."
            int m = msg.indexOf("Message: ");
            String why = (m >= 0 ? msg.substring(m + 9) : msg).replaceAll("JAXP\\d+:\\s*", "");
            String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNumber() + ": ";
            throw new IllegalArgumentException(name + ": not well-formed XML: " + where + shorten(why.strip(), 120));
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException ignored) {
                    // the stream is closed by its owner
                }
            }
        }
    }

    private static void trySet(XMLInputFactory f, String property, Object value) {
        try {
            f.setProperty(property, value);
        } catch (IllegalArgumentException ignored) {
            // a StAX implementation without the property: DTDs are off anyway
        }
    }

    /** Turns the element tree into the model. */
    private static final class Interpreter {
        final String name;
        final List<String> warnings = new ArrayList<>();
        int nbits;
        int version;
        final List<Element> numaElements = new ArrayList<>();
        final List<Integer> numaDepths = new ArrayList<>();
        final List<Cache> caches = new ArrayList<>();
        final Map<String, Integer> gpToOs = new HashMap<>();
        String cpuModel;
        CpuMask online;

        Interpreter(String name) {
            this.name = name;
        }

        IllegalArgumentException bad(String why) {
            return new IllegalArgumentException(name + ": " + why);
        }

        Topology topology(Element root) {
            if (!root.name.equals("topology")) throw bad("the root element is <" + root.name + ">, not hwloc's <topology>");
            String v = root.attr("version");
            version = v == null ? 1 : parseVersion(v);
            List<Element> objects = root.all("object");
            if (objects.isEmpty()) throw bad("no <object> in <topology>");
            Element machine = objects.getFirst();
            String mtype = machine.attr("type");
            if ("System".equals(mtype)) {
                List<Element> machines = machine.all("object");
                if (machines.size() != 1 || !"Machine".equals(machines.getFirst().attr("type"))) {
                    throw bad("a System of " + machines.size() + " machines (hwloc 1.x's multi-node topology); corescope reads one machine");
                }
                machine = machines.getFirst();
                mtype = "Machine";
            }
            if (mtype == null || !mtype.equals("Machine")) {
                throw bad("the first object is " + mtype + ", not Machine");
            }
            int maxBit = Math.max(lastBit(machine, "complete_cpuset"), Math.max(lastBit(machine, "cpuset"), lastBit(machine, "allowed_cpuset")));
            nbits = Math.max(1, maxBit + 1);
            if (nbits > TopologyReader.MAX_CPUS) throw bad("CPU " + maxBit + " is beyond the " + TopologyReader.MAX_CPUS + " CPUs corescope reads");
            CpuMask cpuset = mask(machine, "cpuset", true);
            Optional<CpuMask> onlineAttr = optMask(machine, "online_cpuset");
            online = onlineAttr.map(cpuset::and).orElse(cpuset);
            if (online.isEmpty()) {
                throw bad("the Machine's cpuset=\"" + shorten(machine.attr("cpuset")) + "\"" + (onlineAttr.isPresent() ? " and online_cpuset" : "")
                        + " hold no CPU: a machine has at least one");
            }
            CpuMask complete = optMask(machine, "complete_cpuset").orElse(cpuset).or(online);
            CpuMask allowed = optMask(machine, "allowed_cpuset").map(a -> a.and(online)).orElse(online);

            Topology.Builder b = new Topology.Builder();
            b.source = name;
            b.nbits = nbits;
            b.online = online;
            b.possible = complete;
            b.present = complete;
            b.offline = complete.andNot(online);
            // corescope's own infos (HwlocXmlWriter): the writer's sched_getaffinity set, isolated and nohz_full CPUs
            b.allowed = infoMask(machine, HwlocXmlWriter.INFO_AFFINITY).map(a -> a.and(online)).orElse(null);
            b.isolated = infoMask(machine, HwlocXmlWriter.INFO_ISOLATED).map(a -> a.and(complete)).orElse(CpuMask.empty(nbits));
            b.nohzFull = infoMask(machine, HwlocXmlWriter.INFO_NOHZ_FULL).map(a -> a.and(complete)).orElse(CpuMask.empty(nbits));
            info(machine, HwlocXmlWriter.INFO_CACHE_SOURCE).filter("cpuid"::equals).ifPresent(src -> b.cacheSource = src);
            // corescope writes them where there are any: without either, they are unknown (hwloc's own XML has neither)
            boolean isolatedKnown = info(machine, HwlocXmlWriter.INFO_ISOLATED).isPresent() || info(machine, HwlocXmlWriter.INFO_NOHZ_FULL).isPresent();
            if (!allowed.sameCpus(online)) {
                String cg = info(machine, "LinuxCgroup").map(g -> Shorten.end(g, Topology.MAX_NAME)).orElse("hwloc's allowed_cpuset");
                b.cgroupCpuset = new CgroupCpuset(allowed, cg);
            }
            List<Node> roots = new ArrayList<>();
            walk(machine, null, roots, 0);
            List<TopologyNode> built = new ArrayList<>();
            List<Node> flat = new ArrayList<>();
            for (Node n : roots) flatten(n, flat);
            for (Cache c : caches) attach(c, flat, b.machineCaches);
            for (Node n : roots) built.add(n.build());
            built.sort(TopologyNode.BY_FIRST_CPU);
            b.roots = built;
            b.numaNodes = numa(root, machine);
            b.coreKinds = coreKinds(root);
            b.cpuModel = cpuModel;
            b.cacheLineSize = Topology.DEFAULT_CACHE_LINE;
            Cache l1d = null;
            for (Cache c : caches) {
                if (c.level() == 1 && c.type() != Cache.Type.INSTRUCTION && c.lineSize() > 0 && (l1d == null || c.cpus().first() < l1d.cpus().first())) l1d = c;
            }
            if (l1d != null) b.cacheLineSize = l1d.lineSize();
            else warnings.add("cache line size unknown (no L1d cache_linesize): assuming " + Topology.DEFAULT_CACHE_LINE + " bytes");
            if (!isolatedKnown) warnings.addFirst("read from hwloc XML (v" + version + "): isolated and nohz_full CPUs are not in it");
            b.warnings = warnings;
            return b.build();
        }

        private int parseVersion(String v) {
            try {
                int dot = v.indexOf('.');
                return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
            } catch (NumberFormatException e) {
                throw bad("<topology version=\"" + shorten(v) + "\">: not a version hwloc writes");
            }
        }

        /** Tree node while building. */
        private static final class Node {
            final TopologyNode.Kind kind;
            final int id;
            final CpuMask cpus;
            final List<Node> children = new ArrayList<>();
            final List<Cache> caches = new ArrayList<>();

            Node(TopologyNode.Kind kind, int id, CpuMask cpus) {
                this.kind = kind;
                this.id = id;
                this.cpus = cpus;
            }

            TopologyNode build() {
                List<TopologyNode> kids = new ArrayList<>();
                for (Node c : children) kids.add(c.build());
                kids.sort(TopologyNode.BY_FIRST_CPU);
                caches.sort(Cache.ORDER);
                return new TopologyNode(kind, id, cpus, caches, kids);
            }
        }

        private void walk(Element e, Node parent, List<Node> roots, int depth) {
            for (Element c : e.children) {
                if (!c.name.equals("object")) continue;
                String type = c.attr("type");
                if (type == null) throw bad("an <object> without a type");
                String gp = c.attr("gp_index");
                if (gp != null && c.attr("os_index") != null) gpToOs.put(gp, intAttr(c, "os_index", -1));
                TopologyNode.Kind kind = switch (type) {
                    case "Package", "Socket" -> TopologyNode.Kind.PACKAGE;
                    case "Die" -> TopologyNode.Kind.DIE;
                    case "Group" -> "Cluster".equalsIgnoreCase(c.attr("subtype"))
                            || String.valueOf(HwlocXmlWriter.GROUP_KIND_LINUX_CLUSTER).equals(c.attr("kind")) ? TopologyNode.Kind.CLUSTER : null;
                    case "Core" -> TopologyNode.Kind.CORE;
                    case "PU" -> TopologyNode.Kind.PU;
                    default -> null;
                };
                switch (type) {
                    case "Bridge", "PCIDev", "OSDev", "Misc" -> {
                        continue;
                    }
                    case "NUMANode" -> {
                        numaElements.add(c);
                        numaDepths.add(depth + 1);
                        // v1: the NUMA node is in the CPU tree; v2: a memory child without CPU children
                        walk(c, parent, roots, depth + 1);
                        continue;
                    }
                    case "MemCache" -> {
                        walk(c, parent, roots, depth + 1);
                        continue;
                    }
                    default -> {
                    }
                }
                if (type.equals("Package") || type.equals("Socket")) {
                    if (cpuModel == null) cpuModel = info(c, "CPUModel").orElse(null);
                }
                Cache cache = cache(c, type);
                if (cache != null && !cache.cpus().isEmpty()) caches.add(cache);
                Node self = null;
                if (kind != null) {
                    CpuMask cpus = mask(c, "cpuset", true).and(online);
                    if (!cpus.isEmpty() && !(kind == TopologyNode.Kind.PU && cpus.weight() != 1)) {
                        int id = kind == TopologyNode.Kind.PU ? pu(c, cpus.first()) : intAttr(c, "os_index", -1);
                        if (kind == TopologyNode.Kind.CORE && id >= 0 && parent != null) sameCoreId(parent, id);
                        self = new Node(kind, id, cpus);
                        if (parent == null) roots.add(self);
                        else parent.children.add(self);
                    }
                }
                walk(c, self != null ? self : parent, roots, depth + 1);
            }
        }

        /** The CPUs already seen as a PU: each CPU is one PU, as each is one cpuN in sysfs. */
        private final Set<Integer> pus = new HashSet<>();
        /** The core ids seen under each parent object, for {@link #sameCoreId}. */
        private final Map<Node, Set<Integer>> coreIds = new IdentityHashMap<>();

        /**
         * The CPU number of a PU whose cpuset holds {@code cpu}: its {@code os_index} must be a
         * CPU number corescope reads (as a saved tree's cpuN), and no other PU may hold it.
         */
        private int pu(Element e, int cpu) {
            if (e.attr("os_index") != null) {
                long os;
                try {
                    os = Long.parseLong(e.attr("os_index").strip());
                } catch (NumberFormatException ex) {
                    os = -1;
                }
                if (os < 0 || os >= TopologyReader.MAX_CPUS) {
                    throw bad("<object type=\"PU\" os_index=\"" + shorten(e.attr("os_index")) + "\">: not a CPU number (0 to "
                            + (TopologyReader.MAX_CPUS - 1) + ", the CPU numbers corescope reads)");
                }
                if (os != cpu) warnings.add("PU os_index " + os + " has CPU " + cpu + " in its cpuset (hwloc writes them equal): CPU " + cpu + " taken");
            }
            if (!pus.add(cpu)) throw bad("CPU " + cpu + " is in two PUs; each CPU is one PU");
            return cpu;
        }

        /** Two cores with one id under one package (or die, cluster): kept apart by their CPUs, with a warning. */
        private void sameCoreId(Node parent, int id) {
            if (!coreIds.computeIfAbsent(parent, p -> new HashSet<>()).add(id)) {
                warnings.add("two cores of " + parent.kind.jsonName() + " " + parent.id + " have core id " + id + ": kept as two cores, by their CPUs");
            }
        }

        private Cache cache(Element c, String type) {
            int level;
            Cache.Type ct;
            int cacheType = intAttr(c, "cache_type", 0);
            if (type.equals("Cache")) {
                level = intAttr(c, "depth", -1);
                if (level < 1) return null;
                ct = cacheType == 1 ? Cache.Type.DATA : cacheType == 2 ? Cache.Type.INSTRUCTION : Cache.Type.UNIFIED;
            } else if (type.matches("L[1-5]i?Cache")) {
                level = type.charAt(1) - '0';
                boolean instruction = type.charAt(2) == 'i';
                ct = instruction ? Cache.Type.INSTRUCTION : cacheType == 1 ? Cache.Type.DATA : cacheType == 2 ? Cache.Type.INSTRUCTION : Cache.Type.UNIFIED;
            } else {
                return null;
            }
            long size = size(c, "cache_size");
            int line = intAttr(c, "cache_linesize", -1);
            int assoc = intAttr(c, "cache_associativity", 0);
            // hwloc: 0 unknown, -1 fully associative; Cache: -1 unknown, 0 fully associative
            int ways = assoc == 0 ? -1 : assoc < 0 ? 0 : assoc;
            return new Cache(level, ct, size, line <= 0 ? -1 : line, ways, mask(c, "cpuset", true).and(online));
        }

        /** As TopologyReader hangs caches: exact CPUs first (L1/L2 innermost, L3+ outermost), else the smallest holder, else the machine. */
        private static void attach(Cache c, List<Node> all, List<Cache> machineCaches) {
            List<TopologyNode.Kind> order = c.level() >= 3
                    ? List.of(TopologyNode.Kind.PACKAGE, TopologyNode.Kind.DIE, TopologyNode.Kind.CLUSTER, TopologyNode.Kind.CORE, TopologyNode.Kind.PU)
                    : List.of(TopologyNode.Kind.CORE, TopologyNode.Kind.CLUSTER, TopologyNode.Kind.DIE, TopologyNode.Kind.PACKAGE, TopologyNode.Kind.PU);
            for (TopologyNode.Kind k : order) {
                for (Node n : all) {
                    if (n.kind == k && n.cpus.sameCpus(c.cpus())) {
                        n.caches.add(c);
                        return;
                    }
                }
            }
            Node best = null;
            for (Node n : all) {
                if (n.kind != TopologyNode.Kind.PU && c.cpus().isSubsetOf(n.cpus) && (best == null || n.cpus.weight() < best.cpus.weight())) best = n;
            }
            if (best == null) machineCaches.add(c);
            else best.caches.add(c);
        }

        private static void flatten(Node n, List<Node> out) {
            out.add(n);
            for (Node c : n.children) flatten(c, out);
        }

        private List<NumaNode> numa(Element root, Element machine) {
            record Raw(int id, CpuMask cpus, long memory, int depth) {
            }
            List<Raw> raws = new ArrayList<>();
            for (int i = 0; i < numaElements.size(); i++) {
                Element e = numaElements.get(i);
                int id = intAttr(e, "os_index", i);
                raws.add(new Raw(id, optMask(e, "cpuset").orElse(CpuMask.empty(nbits)).and(online), size(e, "local_memory"), numaDepths.get(i)));
            }
            List<Integer> ids = new ArrayList<>();
            for (Raw r : raws) ids.add(r.id);
            Map<Integer, List<Integer>> rows = version >= 2 ? distances2(root, ids) : distances1(machine, raws.isEmpty() ? -1 : raws.getFirst().depth, ids);
            if (raws.isEmpty()) {
                // as hwloc 2.x does for such a file: one node with every CPU and the machine's memory
                warnings.add("no NUMANode in the file: one NUMA node with all CPUs assumed");
                raws.add(new Raw(0, online, size(machine, "local_memory"), 1));
                ids.add(0);
            }
            List<NumaNode> out = new ArrayList<>();
            for (Raw r : raws) out.add(new NumaNode(r.id, r.cpus, r.memory, rows.getOrDefault(r.id, List.of())));
            out.sort(Comparator.comparingInt(NumaNode::id));
            // each row in the order of the sorted nodes
            List<Integer> sorted = out.stream().map(NumaNode::id).toList();
            if (!ids.equals(sorted) && !rows.isEmpty()) {
                List<NumaNode> reordered = new ArrayList<>();
                for (NumaNode n : out) {
                    List<Integer> row = new ArrayList<>();
                    if (n.distances().size() == ids.size()) {
                        for (int id : sorted) row.add(n.distances().get(ids.indexOf(id)));
                    }
                    reordered.add(new NumaNode(n.id(), n.cpus(), n.memoryBytes(), row));
                }
                out = reordered;
            }
            return out;
        }

        /** v2: the first {@code distances2} between NUMA nodes that means latency, indexed by os or gp index. */
        private Map<Integer, List<Integer>> distances2(Element root, List<Integer> ids) {
            for (Element d : root.all("distances2")) {
                if (!"NUMANode".equals(d.attr("type"))) continue;
                int n = intAttr(d, "nbobjs", -1);
                if (n != ids.size()) continue;
                List<Long> idx = numbers(d.all("indexes"));
                List<Long> vals = numbers(d.all("u64values"));
                if (idx.size() != n || vals.size() != (long) n * n) {
                    warnings.add("distances2 " + d.attr("name") + ": " + idx.size() + " indexes and " + vals.size() + " values for " + n + " nodes; ignored");
                    continue;
                }
                boolean gp = "gp".equals(d.attr("indexing"));
                List<Integer> order = new ArrayList<>();
                for (long i : idx) order.add(gp ? gpToOs.getOrDefault(Long.toString(i), -1) : (int) i);
                return rows(order, vals, ids);
            }
            return Map.of();
        }

        /** v1: the machine's {@code distances} at the NUMA nodes' depth, values times {@code latency_base}. */
        private Map<Integer, List<Integer>> distances1(Element machine, int numaDepth, List<Integer> ids) {
            for (Element d : machine.all("distances")) {
                if (intAttr(d, "relative_depth", -2) != numaDepth || intAttr(d, "nbobjs", -1) != ids.size()) continue;
                double base = doubleAttr(d, "latency_base", 1);
                List<Long> vals = new ArrayList<>();
                for (Element l : d.all("latency")) vals.add(Math.round(doubleAttr(l, "value", 0) * base));
                if (vals.size() != ids.size() * ids.size()) continue;
                return rows(ids, vals, ids);
            }
            return Map.of();
        }

        /** Rows by node id, each in the order of {@code ids} (document order). */
        private Map<Integer, List<Integer>> rows(List<Integer> order, List<Long> vals, List<Integer> ids) {
            int n = order.size();
            Map<Integer, List<Integer>> out = new HashMap<>();
            for (int a : ids) {
                int ia = order.indexOf(a);
                if (ia < 0) return Map.of();
                List<Integer> row = new ArrayList<>();
                for (int b2 : ids) {
                    int ib = order.indexOf(b2);
                    if (ib < 0) return Map.of();
                    row.add((int) Math.min(Integer.MAX_VALUE, vals.get(ia * n + ib)));
                }
                out.put(a, row);
            }
            return out;
        }

        private List<Long> numbers(List<Element> els) {
            List<Long> out = new ArrayList<>();
            for (Element e : els) {
                for (String s : e.text.strip().split("\\s+")) {
                    if (s.isEmpty()) continue;
                    try {
                        out.add(Long.parseLong(s));
                    } catch (NumberFormatException ex) {
                        throw bad("<" + e.name + ">: '" + shorten(s) + "' is not a number");
                    }
                }
            }
            return out;
        }

        private List<CoreKind> coreKinds(Element root) {
            List<CoreKind> out = new ArrayList<>();
            for (Element k : root.all("cpukind")) {
                CpuMask cpus = mask(k, "cpuset", true).and(online);
                if (cpus.isEmpty()) continue;
                Optional<String> type = info(k, "CoreType").map(t -> t.equals("IntelCore") ? "core" : t.equals("IntelAtom") ? "atom"
                        : Shorten.end(t, Topology.MAX_NAME));
                out.add(new CoreKind(cpus, intInfo(k, "LinuxCapacity"), type, intInfo(k, "FrequencyMaxMHz"), intInfo(k, "FrequencyBaseMHz")));
            }
            out.sort(Comparator.comparingInt(k -> k.cpus().first()));
            return out;
        }

        private OptionalInt intInfo(Element e, String n) {
            Optional<String> v = info(e, n);
            if (v.isEmpty()) return OptionalInt.empty();
            try {
                return OptionalInt.of(Integer.parseInt(v.get().strip()));
            } catch (NumberFormatException ex) {
                return OptionalInt.empty();
            }
        }

        private static Optional<String> info(Element e, String n) {
            for (Element i : e.all("info")) if (n.equals(i.attr("name"))) return Optional.ofNullable(i.attr("value"));
            return Optional.empty();
        }

        /** An info of {@code e} holding an hwloc bitmap, e.g. corescope's {@link HwlocXmlWriter#INFO_AFFINITY}. */
        private Optional<CpuMask> infoMask(Element e, String name) {
            Optional<String> v = info(e, name);
            if (v.isEmpty()) return Optional.empty();
            if (v.get().strip().startsWith("0xf...f")) throw bad("info " + name + "=\"" + shorten(v.get()) + "\": an infinite set, not a set of CPUs");
            return Optional.of(bitmap(v.get(), Math.max(nbits, 1), e, "info " + name));
        }

        private CpuMask mask(Element e, String attr, boolean required) {
            Optional<CpuMask> m = optMask(e, attr);
            if (m.isEmpty()) {
                if (required) throw bad("<object type=\"" + e.attr("type") + "\"> has no " + attr);
                return CpuMask.empty(nbits);
            }
            return m.get();
        }

        private Optional<CpuMask> optMask(Element e, String attr) {
            String v = e.attr(attr);
            if (v == null) return Optional.empty();
            return Optional.of(bitmap(v, Math.max(nbits, 1), e, attr));
        }

        private int lastBit(Element e, String attr) {
            String v = e.attr(attr);
            if (v == null) return -1;
            // an infinite set (0xf...f,...) counts by its written words
            String finite = v.strip().startsWith("0xf...f") ? v.strip().substring("0xf...f".length()).replaceFirst("^,", "") : v;
            return finite.isEmpty() ? -1 : bitmap(finite, TopologyReader.MAX_CPUS + 1, e, attr).last();
        }

        /** hwloc's bitmap text ({@code 0xffffffff,0x0000000f}; {@code 0xf...f} for infinite sets), cut to {@code bits}. */
        private CpuMask bitmap(String text, int bits, Element e, String attr) {
            String s = text.strip();
            CpuMask.Builder b = CpuMask.builder(bits);
            if (s.isEmpty() || s.equals("0x0")) return b.build();
            boolean infinite = s.startsWith("0xf...f");
            if (infinite) {
                s = s.substring("0xf...f".length());
                if (s.startsWith(",")) s = s.substring(1);
            }
            String[] words = s.isEmpty() ? new String[0] : s.split(",");
            if (words.length > (TopologyReader.MAX_CPUS / 32) + 2) throw bad(attr + " of <" + e.attr("type") + ">: more than " + TopologyReader.MAX_CPUS + " bits");
            for (int w = 0; w < words.length; w++) {
                String word = words[w].strip();
                if (word.isEmpty()) continue; // hwloc writes a zero word between others as nothing: "0xff,,0x0"
                if (word.startsWith("0x") || word.startsWith("0X")) word = word.substring(2);
                long v;
                try {
                    if (word.isEmpty() || word.length() > 8) throw new NumberFormatException();
                    v = Long.parseLong(word, 16);
                } catch (NumberFormatException ex) {
                    throw bad(attr + "=\"" + shorten(text) + "\" of <object type=\"" + e.attr("type") + "\">: not an hwloc bitmap");
                }
                int base = (words.length - 1 - w) * 32;
                for (int bit = 0; bit < 32; bit++) {
                    if ((v >>> bit & 1) != 0 && base + bit < bits) b.set(base + bit);
                }
            }
            if (infinite) {
                int from = words.length * 32;
                for (int i = from; i < bits; i++) b.set(i);
            }
            return b.build();
        }

        private int intAttr(Element e, String n, int dflt) {
            String v = e.attr(n);
            if (v == null) return dflt;
            try {
                return Integer.parseInt(v.strip());
            } catch (NumberFormatException ex) {
                throw bad(n + "=\"" + shorten(v) + "\" of <" + e.name + (e.attr("type") == null ? "" : " type=\"" + e.attr("type") + "\"") + ">: not an integer");
            }
        }

        private long longAttr(Element e, String n, long dflt) {
            String v = e.attr(n);
            if (v == null) return dflt;
            try {
                return Long.parseLong(v.strip());
            } catch (NumberFormatException ex) {
                throw bad(n + "=\"" + shorten(v) + "\" of <" + e.name + ">: not an integer");
            }
        }

        /** A size in bytes ({@code local_memory}, {@code cache_size}): -1 when absent, refused when negative. */
        private long size(Element e, String n) {
            long v = longAttr(e, n, -1);
            if (v < 0 && e.attr(n) != null) {
                throw bad(n + "=\"" + shorten(e.attr(n)) + "\" of <" + e.name + (e.attr("type") == null ? "" : " type=\"" + e.attr("type") + "\"")
                        + ">: not a size (bytes, 0 or more)");
            }
            return v;
        }

        private double doubleAttr(Element e, String n, double dflt) {
            String v = e.attr(n);
            if (v == null) return dflt;
            try {
                return Double.parseDouble(v.strip());
            } catch (NumberFormatException ex) {
                throw bad(n + "=\"" + shorten(v) + "\" of <" + e.name + ">: not a number");
            }
        }
    }

    private static String shorten(String s) {
        return shorten(s, 43);
    }

    private static String shorten(String s, int max) {
        return Shorten.end(String.valueOf(s).replaceAll("[\\p{Cntrl}]", "?"), max);
    }
}
