package org.jptxas.cubin.dump;

/**
 * The layout ptxas's per-function debug tables share ({@code .nv_debug_info_reg_sass}, {@code .nv_debug_info_reg_type}):
 * for each function its NUL-terminated name and a u32 entry count, then that many entries whose shape is the table's
 * own. cuobjdump prints the name and the count (in hex) before the entries; a truncated table keeps what was read.
 */
final class FunctionTables {
    private FunctionTables() {}

    /** Reads and prints one entry at the cursor. */
    @FunctionalInterface
    interface EntryPrinter {
        void print(DwarfBytes r, StringBuilder out);
    }

    static String print(byte[] b, EntryPrinter entry) {
        StringBuilder out = new StringBuilder();
        DwarfBytes r = new DwarfBytes(b, 0);
        try {
            while (r.more()) {
                out.append("  Function Name: ").append(r.string()).append('\n');
                long count = r.u32();
                out.append("  Total entry: ").append(Long.toHexString(count)).append('\n');
                for (long k = 0; k < count; k++) {
                    entry.print(r, out);
                }
            }
        } catch (IndexOutOfBoundsException e) {
            // a truncated table: what was read stays printed
        }
        out.append('\n');
        return out.toString();
    }
}
