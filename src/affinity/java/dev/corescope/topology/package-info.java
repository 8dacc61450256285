/**
 * The machine's CPU topology read from sysfs under a root ({@code /} or a saved tree):
 * packages, dies, clusters, cores and PUs with their caches, NUMA nodes and core kinds, as an
 * immutable {@link Topology}; {@link Placements}
 * picks CPU pairs from it for the benchmarks. The text, JSON and SVG reports and the
 * {@code capture} archive are all made from that one model; hwloc's XML is written from it
 * ({@link HwlocXmlWriter}) and read into it ({@link HwlocXmlReader}).
 *
 * <pre>{@code
 * Topology t = Topology.live();                 // or Topology.read(Path.of("saved-tree"))
 * System.out.print(TopologyText.render(t));     // as `corescope topology` prints it
 * System.out.println(t.summary().cores() + " cores, L3 groups: " + t.cacheGroups().size());
 * String json = TopologyJson.render(t);         // no JSON library needed
 * }</pre>
 *
 * @since 0.1.0
 */
package dev.corescope.topology;
