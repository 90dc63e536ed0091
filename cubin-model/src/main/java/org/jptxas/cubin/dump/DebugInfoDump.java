package org.jptxas.cubin.dump;

import java.util.List;
import java.util.Map;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;

/**
 * {@code cuobjdump -elf}'s decoded {@code .debug_info}: each compilation unit's header, then its DIEs as
 * {@code <depth><offset>} lines with their abbreviation's tag, and their attributes by form (blocks with their
 * location expression, {@link DwarfExpression}). The abbreviations come from the cubin's {@code .debug_abbrev}.
 * Where a unit cannot be read on (an abbreviation number the table lacks, the section's end) this stops.
 */
final class DebugInfoDump {
    private DebugInfoDump() {}

    private static final int DW_FORM_INDIRECT = 0x16;

    static String print(Cubin cubin, Section s) {
        return print(s.data(), cubin.section(".debug_abbrev").map(Section::data).orElse(new byte[0]),
                cubin.section(".debug_str").map(Section::data).orElse(new byte[0]));
    }

    /** {@code info} read with the abbreviations of {@code abbrevs} and the strings of {@code strings}. */
    static String print(byte[] info, byte[] abbrevs, byte[] strings) {
        StringBuilder out = new StringBuilder();
        DwarfBytes r = new DwarfBytes(info, 0);
        try {
            while (r.length() - r.at() >= 11) {
                unit(r, abbrevs, strings, out);
            }
        } catch (IndexOutOfBoundsException e) {
            // a truncated unit: what was read stays printed
        }
        out.append('\n');
        return out.toString();
    }

    private static void unit(DwarfBytes r, byte[] abbrevs, byte[] strings, StringBuilder out) {
        int start = r.at();
        long length = r.u32();
        int version = r.u16();
        long abbrevOffset = r.u32();
        int pointerSize = r.u8();
        int end = (int) Math.min(r.length(), start + 4 + length);
        out.append(" Compilation Unit @ offset 0x").append(Integer.toHexString(start)).append(":\n");
        out.append("  Length:           ").append((int) length).append('\n');
        out.append("  Version:          ").append(version).append('\n');
        out.append("  Abbrev Offset:    ").append((int) abbrevOffset).append('\n');
        out.append("  Pointer Size:     ").append(pointerSize).append('\n');
        Map<Long, DebugAbbrevDump.Abbrev> table = DebugAbbrevDump.table(abbrevs, abbrevOffset);
        int depth = 0;
        while (r.at() < end) {
            int offset = r.at() - start; // cuobjdump numbers DIEs (and references) within their unit
            long number = r.uleb();
            if (number == 0) {
                depth--;
                continue;
            }
            DebugAbbrevDump.Abbrev a = table.get(number);
            if (a == null) {
                r.seek(r.length()); // cuobjdump cannot read on either
                return;
            }
            out.append(String.format(" <%d><%x>:  Abbrev Number: %d   (0x%02x %s)\n", depth, offset, number, a.tag(),
                    DebugAbbrevDump.tagName(a.tag())));
            for (long[] attribute : a.attributes()) {
                out.append("      ").append(DebugAbbrevDump.attributeName(attribute[0])).append("   ");
                value(r, attribute[1], pointerSize, strings, out);
                out.append('\n');
            }
            if (a.children()) {
                depth++;
            }
        }
        r.seek(end);
    }

    /** One attribute's value, as cuobjdump prints it for its form. */
    private static void value(DwarfBytes r, long form, int pointerSize, byte[] strings, StringBuilder out) {
        switch ((int) form) {
            case 0x01 -> out.append('\t').append(Long.toHexString(r.unsigned(pointerSize)));
            case 0x03 -> block(r, r.u16(), "%5d", pointerSize, out);
            case 0x04 -> block(r, r.u32(), "%10d", pointerSize, out);
            case 0x05 -> out.append("\t0x").append(Long.toHexString(r.u16()));
            case 0x06 -> out.append("\t0x").append(Long.toHexString(r.u32()));
            case 0x07 -> out.append("\t0x").append(Long.toHexString(r.u64()));
            case 0x08 -> out.append('\t').append(r.string());
            case 0x09 -> block(r, r.uleb(), "%20d", pointerSize, out);
            case 0x0a -> block(r, r.u8(), "%3d", pointerSize, out);
            case 0x0b -> out.append("\t0x").append(Long.toHexString(r.u8()));
            case 0x0c -> out.append('\t').append(r.u8());
            case 0x0d -> out.append('\t').append(r.sleb());
            case 0x0e -> out.append('\t').append(stringAt(strings, r.u32()));
            case 0x0f -> out.append('\t').append(Long.toUnsignedString(r.uleb()));
            case 0x10 -> out.append("\t<").append(Long.toHexString(r.unsigned(pointerSize))).append('>');
            case 0x11 -> out.append("\t<").append(Long.toHexString(r.u8())).append('>');
            case 0x12 -> out.append("\t<").append(Long.toHexString(r.u16())).append('>');
            case 0x13 -> out.append("\t<").append(Long.toHexString(r.u32())).append('>');
            case 0x14 -> out.append("\t<").append(Long.toHexString(r.u64())).append('>');
            case 0x15 -> out.append("\t<").append(Long.toHexString(r.uleb())).append('>');
            case DW_FORM_INDIRECT -> value(r, r.uleb(), pointerSize, strings, out);
            default -> throw new IndexOutOfBoundsException("form " + form); // its size is unknown: stop here
        }
    }

    /** A block: its size, its bytes in hex, and the location expression they hold when cuobjdump reads one. */
    private static void block(DwarfBytes r, long size, String sizeFormat, int pointerSize, StringBuilder out) {
        byte[] bytes = r.bytes(size);
        out.append('\t').append(String.format(sizeFormat, size)).append(" byte block: ");
        for (byte x : bytes) {
            out.append(String.format("%2x ", x & 0xff));
        }
        List<String> ops = DwarfExpression.decode(bytes, pointerSize);
        if (!ops.isEmpty()) {
            out.append('(').append(String.join("; ", ops)).append(')');
        }
    }

    private static String stringAt(byte[] strings, long offset) {
        if (offset < 0 || offset >= strings.length) {
            return "(nill)";
        }
        int end = (int) offset;
        while (end < strings.length && strings[end] != 0) {
            end++;
        }
        return new String(strings, (int) offset, end - (int) offset, java.nio.charset.StandardCharsets.UTF_8);
    }
}
