package org.jptxas.cubin.dump;

import java.util.List;
import org.jptxas.cubin.RegisterMaps;

/**
 * {@code cuobjdump -elf}'s decoded {@code .nv_debug_info_reg_type}: per function its name, a u32 entry count, then
 * one byte per entry of {@code .nv_debug_info_reg_sass}, the PTX register's type. The byte indexes cuobjdump 12.5's
 * type list ({@link RegisterMaps#TYPES}; codes 1, 2, 3, 6, 7, 9, 13, 14, 15 and 16 checked against its output).
 */
final class DebugRegTypeDump {
    private DebugRegTypeDump() {}

    private static final List<String> TYPES = RegisterMaps.TYPES;

    static String print(byte[] b) {
        return FunctionTables.print(b, (r, out) -> {
            int type = r.u8();
            // a code past the list: printed as its number (cuobjdump's text for it is not known)
            out.append(type < TYPES.size() ? TYPES.get(type) : "0x" + Integer.toHexString(type)).append('\n');
        });
    }
}
