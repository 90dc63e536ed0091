package org.jptxas.cubin.dump;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Relocation;
import org.jptxas.cubin.Relocations;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.jptxas.cubin.Symbol;

/**
 * {@code cuobjdump -elf}'s decoded {@code .debug_frame}: the 64-bit DWARF call-frame entries ptxas writes, each CIE
 * and FDE with its fields and call-frame instructions, in cuobjdump 12.5's words and layout (including its echo of
 * the first words of the buffers). Registers are named from the class in the top byte of the DWARF register number
 * (R, P, UR, UP, C); an FDE's function is the symbol its relocation names.
 */
final class DebugFrameDump {
    private DebugFrameDump() {}

    /** The decoded entries of {@code frame} (a section of {@code cubin}), as cuobjdump prints them under its name. */
    static String print(Cubin cubin, Section frame) {
        if (frame.data().length == 0) {
            // cuobjdump prints an address of its own here (it changes from run to run); 0 stands for it
            return "decodeDebugFrame, frameBuf 0x00000000, total_length 0\n";
        }
        try {
            return decode(frame.data(), functionNames(cubin));
        } catch (IndexOutOfBoundsException e) {
            return ""; // a truncated frame: the section is still listed by name
        }
    }

    /** Offset in .debug_frame -> the symbol a relocation there names. */
    private static Map<Long, String> functionNames(Cubin cubin) {
        Map<Long, String> names = new HashMap<>();
        int frameIndex = cubin.sectionIndex(".debug_frame");
        List<Symbol> symbols = cubin.symbols();
        for (Section s : cubin.sections()) {
            if ((s.type() == SectionType.REL || s.type() == SectionType.RELA) && s.info() == frameIndex) {
                for (Relocation r : Relocations.decode(s)) {
                    if (r.symbol() > 0 && r.symbol() < symbols.size()) {
                        names.putIfAbsent(r.offset(), symbols.get(r.symbol()).name());
                    }
                }
            }
        }
        return names;
    }

    static String decode(byte[] b, Map<Long, String> functions) {
        StringBuilder out = new StringBuilder();
        out.append("decodeDebugFrame, frameBuf ").append(hex32(u32(b, 0))).append(", total_length ").append(b.length)
                .append('\n');
        int i = 0;
        while (i + 12 <= b.length) {
            long escape = u32(b, i);
            long length = u64(b, i + 4);
            int body = i + 12;
            int end = (int) Math.min(b.length, body + length);
            long id = u64(b, body);
            if (id == -1L) {
                cie(b, body + 8, end, length, escape, out);
            } else {
                long location = u64(b, body + 8);
                long range = u64(b, body + 16);
                out.append(" Debug Frame Description Entry\n");
                out.append("  length:                 ").append(length).append('\n');
                out.append("  CIE_pointer:            ").append(id).append('\n');
                out.append("  initial_location:       0x").append(Long.toHexString(location)).append('\n');
                out.append("  address_range:          0x").append(Long.toHexString(range)).append('\n');
                out.append("  function:               ").append(functions.getOrDefault((long) body + 8, ""))
                        .append('\n');
                out.append("  instructions: ").append(end - (body + 24)).append(" bytes\n");
                instructions(new DwarfBytes(b, body + 24), end, out);
            }
            i = end;
        }
        return out.toString();
    }

    private static void cie(byte[] b, int at, int end, long length, long escape, StringBuilder out) {
        int version = b[at] & 0xff;
        int augStart = at + 1;
        int p = augStart;
        while (b[p] != 0) {
            p++;
        }
        String augmentation = new String(b, augStart, p - augStart, java.nio.charset.StandardCharsets.ISO_8859_1);
        DwarfBytes c = new DwarfBytes(b, p + 1);
        int augLen = c.at() - augStart;
        long code = c.uleb();
        int codeLen = c.at() - augStart - augLen;
        int dataStart = c.at();
        long data = c.sleb();
        int dataLen = c.at() - dataStart;
        long ra = c.uleb();
        out.append("CIE length ").append(length).append(", cie_id -1\n");
        out.append("version ").append(version).append('\n');
        out.append("augmentation slen ").append(augLen).append('\n');
        out.append("augmentation ").append(augmentation).append('\n');
        out.append("code_align_factor slen ").append(codeLen).append('\n');
        out.append("data_align_factor slen ").append(dataLen).append('\n');
        out.append(" Debug Frame Common Information Entry\n");
        out.append("  length:                 ").append(length).append('\n');
        out.append("  CIE_id :                -1\n");
        out.append("  version:                ").append(version).append('\n');
        out.append("  augmentation:           ").append(augmentation).append('\n');
        out.append("  code align factor:      ").append(code).append('\n');
        out.append("  data align factor:      ").append(data).append('\n');
        out.append("  return address register ").append(register(ra)).append('\n');
        out.append("  initial instructions: ").append(end - c.at()).append(" bytes, ptr = ")
                .append(hex32(end - c.at() >= 4 ? u32(b, c.at()) : 0)).append(", frameBuf = ").append(hex32(escape))
                .append('\n');
        instructions(new DwarfBytes(b, c.at()), end, out);
    }

    private static void instructions(DwarfBytes c, int end, StringBuilder out) {
        while (c.at() < end) {
            int op = c.u8();
            switch (op) {
                case 0x00 -> out.append("  DW_CFA_nop\n");
                case 0x02 -> out.append("  DW_CFA_advance_loc1 delta ").append(c.u8()).append('\n');
                case 0x03 -> out.append("  DW_CFA_advance_loc2 delta ").append(c.u8() | c.u8() << 8).append('\n');
                case 0x04 -> out.append("  DW_CFA_advance_loc4 delta ").append(c.u32()).append('\n');
                // cuobjdump prints this offset in hex without a prefix (the def_cfa offset in decimal)
                case 0x05 -> out.append("  DW_CFA_offset_extended register ").append(register(c.uleb()))
                        .append(", offset ").append(Long.toHexString(c.uleb())).append('\n');
                case 0x06 -> out.append("  DW_CFA_restore_extended register ").append(register(c.uleb())).append('\n');
                case 0x07 -> out.append("  DW_CFA_undefined  ").append(register(c.uleb())).append('\n');
                case 0x08 -> out.append("  DW_CFA_same_value ").append(register(c.uleb())).append('\n');
                case 0x09 -> out.append("  DW_CFA_register register ").append(register(c.uleb())).append(", ")
                        .append(register(c.uleb())).append('\n');
                case 0x0c -> out.append("  DW_CFA_def_cfa register ").append(register(c.uleb())).append(", offset ")
                        .append(c.uleb()).append('\n');
                case 0x10, 0x16 -> {
                    String reg = register(c.uleb());
                    long size = c.uleb();
                    int blockStart = c.at();
                    int blockEnd = blockStart + (int) size;
                    out.append(op == 0x10 ? "  DW_CFA_expression " : "  DW_CFA_val_expression ").append(reg)
                            .append(',').append(String.format(Locale.ROOT, "%21d", size)).append(" byte block:");
                    for (int k = blockStart; k < blockEnd; k++) {
                        out.append(String.format(Locale.ROOT, " %2x", c.u8()));
                    }
                    c.seek(blockStart);
                    out.append(" (").append(expression(c, blockEnd)).append(")\n");
                    c.seek(blockEnd);
                }
                default -> {
                    out.append("  DW_CFA_??? 0x").append(Integer.toHexString(op)).append('\n');
                    return;
                }
            }
        }
    }

    /** The DWARF expression operations ptxas writes, as cuobjdump spells them. */
    private static String expression(DwarfBytes c, int end) {
        StringBuilder s = new StringBuilder();
        while (c.at() < end) {
            if (s.length() > 0) {
                s.append("; ");
            }
            int op = c.u8();
            switch (op) {
                case 0x03 -> s.append("DW_OP_addr: 0x").append(Long.toHexString(c.u32() | c.u32() << 32));
                case 0x92 -> s.append("DW_OP_bregx: ").append(register(c.uleb())).append(" 0x")
                        .append(Integer.toHexString((int) c.sleb()));
                case 0x22 -> s.append("DW_OP_plus");
                default -> {
                    s.append("DW_OP_??? 0x").append(Integer.toHexString(op));
                    return s.toString();
                }
            }
        }
        return s.toString();
    }

    /** A DWARF register number: its class in the top byte, the register in the low 24 bits. */
    static String register(long n) {
        String cls = switch ((int) (n >>> 24)) {
            case 1 -> "C";
            case 2 -> "P";
            case 5 -> "R";
            case 9 -> "UP";
            case 11 -> "UR";
            default -> null;
        };
        return cls == null || n > 0xffffffffL ? hex32(n) : cls + (n & 0xffffff);
    }

    private static String hex32(long v) {
        return String.format(Locale.ROOT, "0x%08x", v);
    }

    private static long u32(byte[] b, int at) {
        return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
    }

    private static long u64(byte[] b, int at) {
        return u32(b, at) | u32(b, at + 4) << 32;
    }
}
