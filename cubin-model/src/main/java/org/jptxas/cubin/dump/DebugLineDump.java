package org.jptxas.cubin.dump;

/**
 * {@code cuobjdump -elf}'s decoded DWARF line programs ({@code .debug_line}, {@code .nv_debug_line_sass}): each unit's
 * header, standard opcode lengths, directory and file tables, then its statements, in cuobjdump 12.5's words and
 * layout. Where cuobjdump stops decoding a unit (a file index outside the unit's file table, as in ptxas's
 * {@code .nv_debug_line_sass}, whose file table is empty) this stops too, so the texts stay equal.
 */
final class DebugLineDump {
    private DebugLineDump() {}

    private static final int DW_LNE_END_SEQUENCE = 1;
    private static final int DW_LNE_SET_ADDRESS = 2;
    /** NVIDIA's extended opcode for inlined code: the inlining context and the function's name offset. */
    private static final int NV_LNE_INLINED_CONTEXT = 0x90;

    /** Every unit of a line-program section, as cuobjdump prints the section's body. */
    static String print(byte[] b) {
        StringBuilder out = new StringBuilder();
        try {
            int at = 0;
            while (at + 4 <= b.length) {
                at = unit(b, at, out);
            }
        } catch (IndexOutOfBoundsException e) {
            out.append('\n'); // a truncated unit: what was read stays printed
        }
        return out.toString();
    }

    /** One unit from {@code start}; returns where the next one begins. */
    private static int unit(byte[] b, int start, StringBuilder out) {
        DwarfBytes r = new DwarfBytes(b, start);
        long length = r.u32();
        int end = (int) Math.min(b.length, start + 4 + length);
        int version = r.u16();
        long prologue = r.u32();
        int prologueEnd = r.at() + (int) prologue;
        int minInstruction = r.u8();
        int defaultIsStmt = r.u8();
        int lineBase = (byte) r.u8();
        int lineRange = r.u8();
        int opcodeBase = r.u8();
        out.append("  Offset:                         ").append(start).append('\n');
        out.append("  Length:                         ").append(length).append('\n');
        out.append("  DWARF Version:                   ").append(version).append('\n');
        out.append("  Prologue Length:                ").append(prologue).append('\n');
        out.append("  Minimum instruction length:      ").append(minInstruction).append('\n');
        out.append("  Initial value of is_stmt:        ").append(defaultIsStmt).append('\n');
        out.append("  Line base:                       ").append(lineBase).append('\n');
        out.append("  Line range:                      ").append(lineRange).append('\n');
        out.append("  Opcode base:                     ").append(opcodeBase).append('\n');
        out.append("\nOpcodes:\n");
        int[] argCounts = new int[Math.max(opcodeBase, 1)];
        for (int op = 1; op < opcodeBase; op++) {
            argCounts[op] = r.u8();
            out.append("  Opcode ").append(op).append(" has ").append(argCounts[op]).append(" args\n");
        }
        out.append("\nThe Directory Table:\n");
        for (String dir = r.string(); !dir.isEmpty(); dir = r.string()) {
            out.append("  ").append(dir).append('\n');
        }
        out.append("\nThe File Name Table:\n  Entry   Dir     Time    Size    Name\n");
        int files = 0;
        for (String name = r.string(); !name.isEmpty(); name = r.string()) {
            long dir = r.uleb();
            long time = r.uleb();
            long size = r.uleb();
            files++;
            out.append(String.format("  %2d      %2d      %d       %d       %s\n", files, dir, time, size, name));
        }
        if (prologueEnd - r.at() >= 4) {
            // ptxas's extension of the header: where the inlined functions' names start in .debug_str
            out.append("\nOffset in .debug_str:            ").append(Long.toHexString(r.u32())).append('\n');
        }
        out.append("\nLine Number Statements:\n");
        r.seek(prologueEnd);
        statements(r, end, new Program(minInstruction, lineBase, lineRange, opcodeBase, argCounts, files), out);
        out.append("\n\n");
        return end;
    }

    private record Program(int minInstruction, int lineBase, int lineRange, int opcodeBase, int[] argCounts,
            int files) {}

    private static void statements(DwarfBytes r, int end, Program p, StringBuilder out) {
        long address = 0;
        long line = 1;
        while (r.at() < end) {
            int op = r.u8();
            if (p.lineRange() == 0 && (op >= p.opcodeBase() || op == 8)) {
                return; // a header with line range 0 gives these opcodes no meaning: the program is not read on
            }
            if (op >= p.opcodeBase()) {
                int adjusted = op - p.opcodeBase();
                long advance = (long) (adjusted / p.lineRange()) * p.minInstruction();
                long lines = p.lineBase() + adjusted % p.lineRange();
                address += advance;
                line += lines;
                out.append("  Special opcode ").append(adjusted).append(": advance Address by ").append(advance)
                        .append(" to 0x").append(Long.toHexString(address)).append(" and Line by ").append(lines)
                        .append(" to ").append(line).append('\n');
                continue;
            }
            switch (op) {
                case 0 -> {
                    long size = r.uleb();
                    int next = r.at() + (int) size;
                    int sub = r.u8();
                    if (sub == DW_LNE_END_SEQUENCE) {
                        out.append("  Extended opcode 1: End of Sequence\n\n");
                        address = 0;
                        line = 1;
                    } else if (sub == NV_LNE_INLINED_CONTEXT) {
                        long context = r.uleb();
                        long function = r.uleb();
                        out.append("  Extended opcode ").append(sub).append(": Set context to ").append(context)
                                .append(" and function offset to 0x").append(Long.toHexString(function)).append('\n');
                    } else if (sub == DW_LNE_SET_ADDRESS) {
                        address = size - 1 >= 8 ? r.u64() : r.u32();
                        out.append("  Extended opcode 2: set Address to 0x").append(Long.toHexString(address))
                                .append('\n');
                    }
                    r.seek(next);
                }
                case 1 -> out.append("  Copy\n");
                case 2 -> {
                    long advance = r.uleb() * p.minInstruction();
                    address += advance;
                    out.append("  Advance PC by ").append(advance).append(" to 0x").append(Long.toHexString(address))
                            .append('\n');
                }
                case 3 -> {
                    long lines = r.sleb();
                    line += lines;
                    out.append("  Advance Line by ").append(lines).append(" to ").append(line).append('\n');
                }
                case 4 -> {
                    out.append("  Set File Name to entry ").append(r.uleb()).append(" in the File Name Table\n");
                }
                case 5 -> {
                    out.append("  Set column to ").append(r.uleb()).append('\n');
                }
                case 6 -> out.append(" Negate statement\n");
                case 7 -> out.append(" Set basic block to True\n");
                case 8 -> {
                    long advance = (long) ((255 - p.opcodeBase()) / p.lineRange()) * p.minInstruction();
                    address += advance;
                    out.append("  Opcode : DW_LNS_const_Add_pc : advance Address by ").append(advance).append(" to 0x")
                            .append(Long.toHexString(address)).append('\n');
                }
                case 9 -> {
                    int advance = r.u16();
                    address += advance;
                    out.append("  Opcode : DW_LNS_Fixed_advance_pc : advance Address by ").append(advance)
                            .append(" to 0x").append(Long.toHexString(address)).append('\n');
                }
                default -> {
                    // an opcode the header declares but DWARF 2 does not name: skip its arguments
                    for (int k = 0; k < p.argCounts()[op]; k++) {
                        r.uleb();
                    }
                }
            }
        }
    }
}
