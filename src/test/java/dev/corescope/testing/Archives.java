package dev.corescope.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/** The archives {@code capture} writes, read back in tests. */
public final class Archives {

    private Archives() {
    }

    /** Unpacks with commons-compress and returns the single folder, refusing anything but files and directories. */
    public static Path unpack(Path archive, Path into) throws IOException {
        List<String> tops = new ArrayList<>();
        try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(archive)));
             TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            TarArchiveEntry e;
            while ((e = tar.getNextEntry()) != null) {
                assertTrue(e.isDirectory() || e.isFile(), "only files and folders, not " + e.getName());
                Path target = into.resolve(e.getName()).normalize();
                assertTrue(target.startsWith(into), e.getName());
                String top = e.getName().split("/")[0];
                if (!tops.contains(top)) tops.add(top);
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        assertEquals(1, tops.size(), "one folder at the top: " + tops);
        return into.resolve(tops.getFirst());
    }
}
