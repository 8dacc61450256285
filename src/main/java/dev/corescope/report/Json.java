package dev.corescope.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** The one Jackson mapper corescope uses, and whole-or-nothing file writes. */
public final class Json {

    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private Json() {
    }

    /** {@code value} as indented JSON, ending with a newline. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes {@code text} to {@code file} whole or not at all: into a temporary file in the
     * same folder, then an atomic rename over the target. On failure the target is untouched
     * and the temporary file is removed.
     */
    public static void writeAtomically(Path file, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        writeAtomically(file, os -> os.write(bytes));
    }

    /** What goes into a file: written to a stream that the caller must not close. */
    @FunctionalInterface
    public interface StreamBody {
        void writeTo(OutputStream os) throws IOException;
    }

    /**
     * {@link #writeAtomically(Path, String)} for content produced as a stream (an archive):
     * {@code file} is a regular file or none; the caller resolves links and refuses devices
     * first (the CLI's {@code OutputFile}), since a rename would replace them.
     */
    public static void writeAtomically(Path file, StreamBody body) throws IOException {
        Path abs = file.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
        try {
            try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                body.writeTo(os);
            }
            keepOrShare(tmp, abs);
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * A temporary file is created 0600; the file it replaces keeps its own permissions, and a
     * new one gets 0644 like any file a shell writes under the usual umask, so results can be shared.
     */
    private static void keepOrShare(Path tmp, Path target) throws IOException {
        try {
            var perms = Files.exists(target) ? Files.getPosixFilePermissions(target)
                    : PosixFilePermissions.fromString("rw-r--r--");
            Files.setPosixFilePermissions(tmp, perms);
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its defaults apply
        }
    }

    /**
     * Reads a results file. Fields this version does not know are skipped, so files from a
     * newer corescope (which may add fields, never rename them) still read.
     */
    public static ResultsFile readResults(Path file) throws IOException {
        return MAPPER.readerFor(ResultsFile.class)
                .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .readValue(file.toFile());
    }

    /**
     * {@link #readResults} for files a user names: anything that is not a readable
     * {@code corescope-results/1} file is a {@link BadResultsFileException} saying why.
     */
    public static ResultsFile readResultsChecked(Path file) {
        if (!Files.exists(file)) throw new BadResultsFileException(file, "no such file");
        if (Files.isDirectory(file)) throw new BadResultsFileException(file, "is a directory, not a results file");
        if (!Files.isReadable(file)) throw new BadResultsFileException(file, "not readable");
        com.fasterxml.jackson.databind.JsonNode tree;
        try {
            tree = MAPPER.readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            var loc = e.getLocation();
            throw new BadResultsFileException(file, "not JSON" + (loc == null ? "" : " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")"));
        } catch (IOException e) {
            throw new BadResultsFileException(file, "cannot be read: " + e.getMessage());
        }
        if (tree == null || tree.isMissingNode() || !tree.isObject()) throw new BadResultsFileException(file, "not a corescope results file (not a JSON object)");
        var schema = tree.get("schema");
        if (schema == null || !ResultsFile.SCHEMA.equals(schema.asText())) {
            throw new BadResultsFileException(file, "not a corescope results file (schema " + (schema == null ? "missing" : "'" + schema.asText() + "'")
                    + ", expected " + ResultsFile.SCHEMA + ")");
        }
        try {
            return MAPPER.readerFor(ResultsFile.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(tree);
        } catch (IOException e) {
            String msg = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new BadResultsFileException(file, "a field has the wrong type: " + msg);
        }
    }
}
