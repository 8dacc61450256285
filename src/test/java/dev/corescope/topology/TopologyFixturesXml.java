package dev.corescope.topology;

import dev.corescope.testing.TopologyFixtures;

import java.nio.file.Path;

/** hwloc's own XML test files ({@code src/test/resources/fixtures/hwloc-xml}, with hwloc's licence). */
final class TopologyFixturesXml {

    private TopologyFixturesXml() {
    }

    static Path dir() {
        return TopologyFixtures.dir().resolveSibling("hwloc-xml");
    }
}
