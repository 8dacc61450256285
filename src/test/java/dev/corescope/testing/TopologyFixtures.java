package dev.corescope.testing;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/**
 * The saved sysfs trees of real machines that the tests read, committed under
 * {@code src/test/resources/fixtures/topology} (from hwloc's test suite, with its licence beside
 * them), so they run from a clone of the repository alone.
 */
public final class TopologyFixtures {

    private static final String FOLDER = "/fixtures/topology/";

    private TopologyFixtures() {
    }

    /** The fixtures folder on the test classpath; a missing folder is a broken checkout, so it fails. */
    public static Path dir() {
        URL counts = TopologyFixtures.class.getResource(FOLDER + "hwloc-counts.json");
        if (counts == null) throw new IllegalStateException("no " + FOLDER + "hwloc-counts.json on the test classpath");
        try {
            return Path.of(counts.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(counts + " is not a file path", e);
        }
    }
}
