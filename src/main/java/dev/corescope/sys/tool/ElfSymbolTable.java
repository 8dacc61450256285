package dev.corescope.sys.tool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The symbols of an ELF64 file ({@code .symtab}, else {@code .dynsym}), read as plain bytes:
 * what {@code nm -S} prints and what the kernel's {@code scripts/bloat-o-meter} compares.
 * Used to give the size of each C twin's function in {@link NativeLibrary#file()}.
 *
 * <p>Follows the System V gABI (ELF-64 object file format, version 1.5): the file header,
 * the section header table, and 24-byte {@code Elf64_Sym} entries whose names live in the
 * string table named by the section's {@code sh_link}. Both byte orders are read; 32-bit
 * ELF is refused.
 */
public final class ElfSymbolTable {

    /** {@code STT_FUNC}: the symbol is a function. */
    public static final int STT_FUNC = 2;

    private static final int SHT_SYMTAB = 2;
    private static final int SHT_DYNSYM = 11;
    private static final int ELFCLASS64 = 2;
    private static final int ELFDATA2LSB = 1;
    private static final int ELFDATA2MSB = 2;
    private static final int SYM_SIZE = 24;

    /**
     * One symbol.
     *
     * @param name    the symbol's name
     * @param value   {@code st_value}: its address in the file's virtual address space
     * @param size    {@code st_size}: its size in bytes (for a function, its code without
     *                the alignment padding after it)
     * @param type    {@code ELF64_ST_TYPE(st_info)}, e.g. {@link #STT_FUNC}
     * @param bind    {@code ELF64_ST_BIND(st_info)}: 0 local, 1 global, 2 weak
     * @param section {@code st_shndx}; 0 for an undefined (imported) symbol
     * @param table   {@code .symtab} or {@code .dynsym}
     */
    public record Symbol(String name, long value, long size, int type, int bind, int section, String table) {

        public boolean isDefinedFunction() {
            return type == STT_FUNC && section != 0;
        }
    }

    private final Path file;
    private final List<Symbol> symbols;

    private ElfSymbolTable(Path file, List<Symbol> symbols) {
        this.file = file;
        this.symbols = List.copyOf(symbols);
    }

    public Path file() {
        return file;
    }

    /** Every symbol of {@code .symtab} if the file has one (not stripped), else of {@code .dynsym}. */
    public List<Symbol> symbols() {
        return symbols;
    }

    /** The defined function called {@code name}. */
    public Optional<Symbol> function(String name) {
        return symbols.stream().filter(s -> s.name().equals(name) && s.isDefinedFunction()).findFirst();
    }

    /**
     * Reads the symbol table of {@code file}.
     *
     * @throws IOException when the file cannot be read or is not a well-formed ELF64 file
     *                     (the message says which part is wrong)
     */
    public static ElfSymbolTable read(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long length = ch.size();
            if (length > Integer.MAX_VALUE) throw new IOException(file + ": larger than 2 GiB, not read");
            ByteBuffer buf = ByteBuffer.allocate((int) length);
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // read it all
            }
            buf.flip();
            return new ElfSymbolTable(file, parse(file, buf));
        }
    }

    private static List<Symbol> parse(Path file, ByteBuffer b) throws IOException {
        if (b.limit() < 64 || b.get(0) != 0x7f || b.get(1) != 'E' || b.get(2) != 'L' || b.get(3) != 'F') {
            throw new IOException(file + ": not an ELF file (no \\x7fELF magic)");
        }
        if (b.get(4) != ELFCLASS64) throw new IOException(file + ": not ELF64 (EI_CLASS " + b.get(4) + ")");
        int data = b.get(5);
        if (data == ELFDATA2LSB) b.order(ByteOrder.LITTLE_ENDIAN);
        else if (data == ELFDATA2MSB) b.order(ByteOrder.BIG_ENDIAN);
        else throw new IOException(file + ": unknown byte order (EI_DATA " + data + ")");

        long shoff = b.getLong(0x28);
        int shentsize = Short.toUnsignedInt(b.getShort(0x3A));
        long shnum = Short.toUnsignedInt(b.getShort(0x3C));
        if (shoff == 0) throw new IOException(file + ": no section header table");
        if (shentsize < 64) throw new IOException(file + ": section header entries of " + shentsize + " bytes, expected 64");
        if (shnum == 0) shnum = section(b, shoff, shentsize, 0, file).size; // more than 0xff00 sections: count in section 0
        List<Section> sections = new ArrayList<>();
        for (int i = 0; i < shnum; i++) sections.add(section(b, shoff, shentsize, i, file));

        Section table = sections.stream().filter(s -> s.type == SHT_SYMTAB).findFirst()
                .or(() -> sections.stream().filter(s -> s.type == SHT_DYNSYM).findFirst())
                .orElseThrow(() -> new IOException(file + ": neither .symtab nor .dynsym"));
        if (table.link >= sections.size()) throw new IOException(file + ": symbol table links to missing section " + table.link);
        Section strings = sections.get(table.link);
        String tableName = table.type == SHT_SYMTAB ? ".symtab" : ".dynsym";
        long entsize = table.entsize == 0 ? SYM_SIZE : table.entsize;
        check(b, table.offset, table.size, file, tableName);
        check(b, strings.offset, strings.size, file, "string table");

        List<Symbol> out = new ArrayList<>();
        for (long at = table.offset; at + SYM_SIZE <= table.offset + table.size; at += entsize) {
            int p = (int) at;
            long nameOffset = Integer.toUnsignedLong(b.getInt(p));
            int info = Byte.toUnsignedInt(b.get(p + 4));
            int shndx = Short.toUnsignedInt(b.getShort(p + 6));
            long value = b.getLong(p + 8);
            long size = b.getLong(p + 16);
            String name = cString(b, strings, nameOffset, file);
            out.add(new Symbol(name, value, size, info & 0xf, info >>> 4, shndx, tableName));
        }
        return out;
    }

    private record Section(int type, long offset, long size, int link, long entsize) {
    }

    private static Section section(ByteBuffer b, long shoff, int shentsize, int index, Path file) throws IOException {
        long at = shoff + (long) index * shentsize;
        check(b, at, 64, file, "section header " + index);
        int p = (int) at;
        return new Section(b.getInt(p + 4), b.getLong(p + 0x18), b.getLong(p + 0x20), b.getInt(p + 0x28), b.getLong(p + 0x38));
    }

    private static String cString(ByteBuffer b, Section strings, long offset, Path file) throws IOException {
        if (offset >= strings.size) throw new IOException(file + ": symbol name offset " + offset + " outside its string table");
        int start = (int) (strings.offset + offset);
        int end = start;
        int limit = (int) (strings.offset + strings.size);
        while (end < limit && b.get(end) != 0) end++;
        byte[] bytes = new byte[end - start];
        b.get(start, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void check(ByteBuffer b, long offset, long size, Path file, String what) throws IOException {
        if (offset < 0 || size < 0 || offset + size > b.limit()) {
            throw new IOException(file + ": " + what + " (offset " + offset + ", " + size + " bytes) lies outside the file");
        }
    }
}
