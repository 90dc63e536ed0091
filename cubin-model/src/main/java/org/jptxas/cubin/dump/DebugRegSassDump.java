package org.jptxas.cubin.dump;

/**
 * {@code cuobjdump -elf}'s decoded {@code .nv_debug_info_reg_sass}, ptxas's map from PTX registers to where their
 * values live in the SASS code: per function its name, a u32 entry count, then entries of a u32 (not printed),
 * the PTX register's name and three u32 (the SASS location, and the code range it holds for).
 */
final class DebugRegSassDump {
    private DebugRegSassDump() {}

    static String print(byte[] b) {
        return FunctionTables.print(b, (r, out) -> {
            r.u32();
            String register = r.string();
            out.append("    (reg: ").append(register).append(") 0x").append(Long.toHexString(r.u32()))
                    .append(", 0x").append(Long.toHexString(r.u32())).append(", 0x")
                    .append(Long.toHexString(r.u32())).append('\n');
        });
    }
}
