package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.List;

/** Encoding and decoding of {@code .symtab} (Elf64_Sym, 24 bytes each). */
public final class SymbolTable {
    private SymbolTable() {}

    public static final int ENTRY_SIZE = 24;

    /** The symbols of {@code symtab}, names resolved through its {@code sh_link} string table. */
    public static List<Symbol> decode(Cubin cubin, Section symtab) {
        byte[] strtab = symtab.link() > 0 && symtab.link() < cubin.sections().size()
                ? cubin.section(symtab.link()).data() : new byte[0];
        return decode(symtab.data(), strtab, symtab.name());
    }

    public static List<Symbol> decode(byte[] table, byte[] strtab, String what) {
        if (table.length % ENTRY_SIZE != 0) {
            throw new CubinFormatException(what + ": size " + table.length + " is not a multiple of " + ENTRY_SIZE);
        }
        ByteReader in = new ByteReader(table, "section " + what);
        List<Symbol> out = new ArrayList<>(table.length / ENTRY_SIZE);
        for (int off = 0; off < table.length; off += ENTRY_SIZE) {
            int name = in.u32(off, "st_name");
            String s = name == 0 ? "" : StringTable.at(strtab, name, what + " symbol " + off / ENTRY_SIZE);
            out.add(new Symbol(s, name, in.u8(off + 4, "st_info"), in.u8(off + 5, "st_other"),
                    in.u16(off + 6, "st_shndx"), in.u64(off + 8, "st_value"), in.u64(off + 16, "st_size")));
        }
        return out;
    }

    public static byte[] encode(List<Symbol> symbols) {
        ByteWriter w = new ByteWriter(symbols.size() * ENTRY_SIZE);
        for (Symbol s : symbols) {
            w.u32(s.nameOffset()).u8(s.info()).u8(s.other()).u16(s.shndx()).u64(s.value()).u64(s.size());
        }
        return w.toByteArray();
    }
}
