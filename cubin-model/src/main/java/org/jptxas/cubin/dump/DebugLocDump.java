package org.jptxas.cubin.dump;

import java.util.List;

/**
 * {@code cuobjdump -elf}'s decoded {@code .debug_loc}: each location list by its offset, one (start, end,
 * expression) line per entry until the list's (0, 0) end. Addresses are 64-bit and printed unrelocated, as
 * cuobjdump prints them; the relocations follow the section.
 */
final class DebugLocDump {
    private DebugLocDump() {}

    static String print(byte[] b) {
        StringBuilder out = new StringBuilder("\n\tStart Address\tEnd Address\tRegister-name\n");
        DwarfBytes r = new DwarfBytes(b, 0);
        try {
            while (r.more()) {
                out.append(".debug_loc + ").append(r.at()).append(":\n");
                while (true) {
                    long start = r.u64();
                    long end = r.u64();
                    if (start == 0 && end == 0) {
                        break;
                    }
                    List<String> ops = DwarfExpression.decode(r.bytes(r.u16()), 8);
                    out.append("\t0x").append(Long.toHexString(start)).append("\t\t0x").append(Long.toHexString(end))
                            .append("\t\t").append(String.join("; ", ops)).append('\n');
                }
                out.append('\n');
            }
        } catch (IndexOutOfBoundsException e) {
            out.append('\n'); // a truncated list: what was read stays printed
        }
        return out.toString();
    }
}
