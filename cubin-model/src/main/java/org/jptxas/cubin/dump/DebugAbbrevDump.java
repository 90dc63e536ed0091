package org.jptxas.cubin.dump;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.tables.CubinTables;

/**
 * {@code cuobjdump -elf}'s decoded {@code .debug_abbrev}: each abbreviation's number, tag and children flag, then its
 * (attribute, form) pairs, by their DWARF names ({@code cubin/dwarf.json}). A truncated table prints what was read.
 */
final class DebugAbbrevDump {
    private DebugAbbrevDump() {}

    /** One abbreviation: its tag, whether its DIEs have children, and its (attribute, form) pairs. */
    record Abbrev(long number, long tag, boolean children, List<long[]> attributes) {}

    static String print(byte[] b) {
        StringBuilder out = new StringBuilder("\nContents of the .debug_abbrev section:\n\n  Number  TAG\n");
        List<Abbrev> all = new ArrayList<>();
        DwarfBytes r = new DwarfBytes(b, 0);
        try {
            while (r.more()) {
                table(r, all, out);
            }
        } catch (IndexOutOfBoundsException e) {
            // a truncated table: what was read stays printed
        }
        out.append('\n');
        return out.toString();
    }

    /** The table at {@code offset}, by abbreviation number (empty when it cannot be read). */
    static Map<Long, Abbrev> table(byte[] b, long offset) {
        List<Abbrev> all = new ArrayList<>();
        if (offset >= 0 && offset < b.length) {
            try {
                table(new DwarfBytes(b, (int) offset), all, null);
            } catch (IndexOutOfBoundsException e) {
                // the abbreviations read so far
            }
        }
        Map<Long, Abbrev> byNumber = new LinkedHashMap<>();
        for (Abbrev a : all) {
            byNumber.putIfAbsent(a.number(), a);
        }
        return byNumber;
    }

    /** Reads one table up to its 0 terminator, printing each abbreviation when {@code out} is not null. */
    private static void table(DwarfBytes r, List<Abbrev> all, StringBuilder out) {
        while (true) {
            long number = r.uleb();
            if (number == 0) {
                return;
            }
            long tag = r.uleb();
            boolean children = r.u8() != 0;
            if (out != null) {
                out.append(String.format("   %d      0x%02x %s      %s\n", number, tag, tagName(tag),
                        children ? "[has children]" : "[has no children]"));
            }
            List<long[]> attributes = new ArrayList<>();
            while (true) {
                long attribute = r.uleb();
                long form = r.uleb();
                if (attribute == 0 && form == 0) {
                    break;
                }
                attributes.add(new long[] {attribute, form});
                if (out != null) {
                    out.append(String.format("   %s(0x%x)          %s(0x%x)\n", attributeName(attribute), attribute,
                            formName(form), form));
                }
            }
            if (out != null) {
                out.append('\n');
            }
            all.add(new Abbrev(number, tag, children, List.copyOf(attributes)));
        }
    }

    static String tagName(long tag) {
        return CubinTables.dwarfTag(tag).orElse("DW_TAG_<unknown>");
    }

    /** Empty for a code cuobjdump does not know (it says "Unknown Attribute value N" on stderr and prints no name). */
    static String attributeName(long attribute) {
        return CubinTables.dwarfAttribute(attribute).orElse("");
    }

    static String formName(long form) {
        return CubinTables.dwarfForm(form).orElse("Unknown FORM value " + form);
    }
}
