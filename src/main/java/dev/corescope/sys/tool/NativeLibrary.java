package dev.corescope.sys.tool;

import dev.corescope.sys.NativeUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * {@code libcorescope.so}, the C twins of the benchmark kernels built from {@code native/src}
 * by the Maven build. Found, in order: the path in the system property
 * {@code corescope.native.lib}; the resource {@code /native/libcorescope.so} on the class path
 * (copied to a temporary file, since {@code dlopen} needs a file). When it is missing the
 * reason is kept ({@code /native/UNAVAILABLE}, written by {@code native/build.sh}) so every
 * native row can say why it is absent.
 *
 * <p>The library is loaded once into the global arena: it stays mapped for the life of the
 * JVM, as the downcall handles into it do.
 */
public final class NativeLibrary {

    private NativeLibrary() {
    }

    /** Whether the C twins are loaded. */
    public static boolean available() {
        return Holder.LOADED.lookup != null;
    }

    /** Why the C twins are missing, or empty when they are loaded. */
    public static Optional<String> unavailableReason() {
        return Optional.ofNullable(Holder.LOADED.reason);
    }

    /** The file that was loaded (for reading its symbol table), if any. */
    public static Optional<Path> file() {
        return Optional.ofNullable(Holder.LOADED.file);
    }

    /**
     * A downcall handle to {@code name} in the library.
     *
     * @throws NativeUnavailableException when the library or the symbol is missing
     */
    public static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        Loaded l = Holder.LOADED;
        if (l.lookup == null) throw new NativeUnavailableException(l.reason);
        MemorySegment address = l.lookup.find(name)
                .orElseThrow(() -> new NativeUnavailableException("symbol " + name + " is not in " + l.file));
        return Linker.nativeLinker().downcallHandle(address, descriptor, options);
    }

    private record Loaded(SymbolLookup lookup, Path file, String reason) {
    }

    private static Loaded load() {
        String override = System.getProperty("corescope.native.lib");
        if (override != null) {
            Path p = Path.of(override);
            if (!Files.isReadable(p)) return new Loaded(null, null, "corescope.native.lib=" + override + " is not a readable file");
            return open(p);
        }
        try (InputStream in = NativeLibrary.class.getResourceAsStream("/native/libcorescope.so")) {
            if (in == null) return new Loaded(null, null, missingReason());
            Path tmp = Files.createTempFile("libcorescope", ".so");
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return open(tmp);
        } catch (IOException e) {
            return new Loaded(null, null, "could not extract libcorescope.so: " + e.getMessage());
        }
    }

    private static Loaded open(Path file) {
        try {
            // Global arena by design: the library must outlive every handle into it.
            return new Loaded(SymbolLookup.libraryLookup(file, Arena.global()), file, null);
        } catch (IllegalArgumentException e) {
            return new Loaded(null, file, "could not load " + file + ": " + e.getMessage());
        }
    }

    private static String missingReason() {
        try (InputStream in = NativeLibrary.class.getResourceAsStream("/native/UNAVAILABLE")) {
            if (in != null) return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            // fall through
        }
        return "libcorescope.so was not built (no native/ output on the class path)";
    }

    private static final class Holder {
        static final Loaded LOADED = load();
    }
}
