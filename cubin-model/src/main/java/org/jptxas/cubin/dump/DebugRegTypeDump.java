package org.jptxas.cubin.dump;

import java.util.List;

/**
 * {@code cuobjdump -elf}'s decoded {@code .nv_debug_info_reg_type}: per function its name, a u32 entry count, then
 * one byte per entry of {@code .nv_debug_info_reg_sass}, the PTX register's type. The byte indexes cuobjdump 12.5's
 * type list (.b8 .b16 .b32 .b64 .u8 ... .pred .b128; codes 1, 2, 3, 6, 14, 15 and 16 checked against its output).
 */
final class DebugRegTypeDump {
    private DebugRegTypeDump() {}

    private static final List<String> TYPES = List.of(".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64",
            ".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2", ".f32", ".f64", ".pred", ".b128");

    static String print(byte[] b) {
        return FunctionTables.print(b, (r, out) -> {
            int type = r.u8();
            // a code past the list: printed as its number (cuobjdump's text for it is not known)
            out.append(type < TYPES.size() ? TYPES.get(type) : "0x" + Integer.toHexString(type)).append('\n');
        });
    }
}
