package org.jptxas.cubin.dump;

import java.nio.charset.StandardCharsets;
import org.jptxas.cubin.Leb128;

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
        long length = u32(b, start);
        int end = (int) Math.min(b.length, start + 4 + length);
        int version = u16(b, start + 4);
        long prologue = u32(b, start + 6);
        int minInstruction = b[start + 10] & 0xff;
        int defaultIsStmt = b[start + 11] & 0xff;
        int lineBase = b[start + 12];
        int lineRange = b[start + 13] & 0xff;
        int opcodeBase = b[start + 14] & 0xff;
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
        int at = start + 15;
        for (int op = 1; op < opcodeBase; op++) {
            argCounts[op] = b[at++] & 0xff;
            out.append("  Opcode ").append(op).append(" has ").append(argCounts[op]).append(" args\n");
        }
        out.append("\nThe Directory Table:\n");
        while (b[at] != 0) {
            int nul = nul(b, at);
            out.append("  ").append(text(b, at, nul)).append('\n');
            at = nul + 1;
        }
        at++;
        out.append("\nThe File Name Table:\n  Entry   Dir     Time    Size    Name\n");
        long[] v = new long[1];
        int files = 0;
        while (b[at] != 0) {
            int nul = nul(b, at);
            String name = text(b, at, nul);
            at = Leb128.readUnsigned(b, nul + 1, v);
            long dir = v[0];
            at = Leb128.readUnsigned(b, at, v);
            long time = v[0];
            at = Leb128.readUnsigned(b, at, v);
            files++;
            out.append(String.format("  %2d      %2d      %d       %d       %s\n", files, dir, time, v[0], name));
        }
        at++;
        int prologueEnd = start + 10 + (int) prologue;
        if (prologueEnd - at >= 4) {
            // ptxas's extension of the header: where the inlined functions' names start in .debug_str
            out.append("\nOffset in .debug_str:            ").append(Long.toHexString(u32(b, at))).append('\n');
        }
        out.append("\nLine Number Statements:\n");
        statements(b, start + 10 + (int) prologue, end, new Program(minInstruction, lineBase, lineRange, opcodeBase,
                argCounts, files), out);
        out.append("\n\n");
        return end;
    }

    private record Program(int minInstruction, int lineBase, int lineRange, int opcodeBase, int[] argCounts,
            int files) {}

    private static void statements(byte[] b, int at, int end, Program p, StringBuilder out) {
        long address = 0;
        long line = 1;
        long[] v = new long[1];
        while (at < end) {
            int op = b[at++] & 0xff;
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
                    at = Leb128.readUnsigned(b, at, v);
                    int next = at + (int) v[0];
                    int sub = b[at] & 0xff;
                    if (sub == DW_LNE_END_SEQUENCE) {
                        out.append("  Extended opcode 1: End of Sequence\n\n");
                        address = 0;
                        line = 1;
                    } else if (sub == NV_LNE_INLINED_CONTEXT) {
                        int arg = Leb128.readUnsigned(b, at + 1, v);
                        long context = v[0];
                        Leb128.readUnsigned(b, arg, v);
                        out.append("  Extended opcode ").append(sub).append(": Set context to ").append(context)
                                .append(" and function offset to 0x").append(Long.toHexString(v[0])).append('\n');
                    } else if (sub == DW_LNE_SET_ADDRESS) {
                        address = next - at - 1 >= 8 ? u64(b, at + 1) : u32(b, at + 1);
                        out.append("  Extended opcode 2: set Address to 0x").append(Long.toHexString(address))
                                .append('\n');
                    }
                    at = next;
                }
                case 1 -> out.append("  Copy\n");
                case 2 -> {
                    at = Leb128.readUnsigned(b, at, v);
                    long advance = v[0] * p.minInstruction();
                    address += advance;
                    out.append("  Advance PC by ").append(advance).append(" to 0x").append(Long.toHexString(address))
                            .append('\n');
                }
                case 3 -> {
                    at = Leb128.readSigned(b, at, v);
                    line += v[0];
                    out.append("  Advance Line by ").append(v[0]).append(" to ").append(line).append('\n');
                }
                case 4 -> {
                    at = Leb128.readUnsigned(b, at, v);
                    out.append("  Set File Name to entry ").append(v[0]).append(" in the File Name Table\n");
                }
                case 5 -> {
                    at = Leb128.readUnsigned(b, at, v);
                    out.append("  Set column to ").append(v[0]).append('\n');
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
                    int advance = u16(b, at);
                    at += 2;
                    address += advance;
                    out.append("  Opcode : DW_LNS_Fixed_advance_pc : advance Address by ").append(advance)
                            .append(" to 0x").append(Long.toHexString(address)).append('\n');
                }
                default -> {
                    // an opcode the header declares but DWARF 2 does not name: skip its arguments
                    for (int k = 0; k < p.argCounts()[op]; k++) {
                        at = Leb128.readUnsigned(b, at, v);
                    }
                }
            }
        }
    }

    private static int nul(byte[] b, int at) {
        int i = at;
        while (b[i] != 0) {
            i++;
        }
        return i;
    }

    private static String text(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.UTF_8);
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    private static long u32(byte[] b, int at) {
        return u16(b, at) | (long) u16(b, at + 2) << 16;
    }

    private static long u64(byte[] b, int at) {
        return u32(b, at) | u32(b, at + 4) << 32;
    }
}
