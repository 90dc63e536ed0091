package org.jptxas.isel.cubin;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The {@code .debug_frame} section ptxas 13 writes: 64-bit DWARF call-frame information, for each function (in
 * section order) a copy of one fixed CIE and the function's FDE, padded with {@code DW_CFA_nop} to a multiple of 8
 * bytes. The FDE's initial location is 0 in the file and relocated ({@code R_CUDA_64} against the function's
 * symbol); relocatable output also relocates the CIE pointer and marks the address range
 * {@code R_CUDA_UNUSED_CLEAR64}.
 *
 * <p>The call-frame program of a function that makes no calls, measured on the corpus: rows after the first instruction that ends a
 * basic block ({@code DW_CFA_def_cfa} of the stack register with the frame size) and at the last EXIT, plus, below sm_90, a
 * first row after the stack-pointer set-up at 0x10; below sm_90 the rows stay in that order (the last advance may be
 * negative), from sm_90 on they are sorted by address. Functions with calls or internal subroutines get an empty
 * program here (ptxas writes {@code DW_CFA_register} rows for the saved return address; not derived yet).
 */
public final class DebugFrame {
    private DebugFrame() {}

    /** The CIE: version 3, code alignment 4, data alignment -4, the CUDA return-address and stack registers. */
    static final byte[] CIE = HexFormat.of().parseHex("ffffffff2400000000000000ffffffff"
            + "ffffffff0300047cffffffff0f0c8180" + "80280008ff8180280881808028000000");

    /** The DWARF number ptxas gives the stack-pointer register in {@code DW_CFA_def_cfa}. */
    static final long STACK_REGISTER = 0x5000001;

    static final int DW_CFA_ADVANCE_LOC4 = 0x04;
    static final int DW_CFA_DEF_CFA = 0x0c;

    /** Byte offset of each FDE's initial-location field from the FDE start. */
    static final int LOCATION_FIELD = 0x14;
    /** Byte offset of each FDE's CIE-pointer field from the FDE start. */
    static final int CIE_POINTER_FIELD = 0x0c;
    /** Byte offset of each FDE's address-range field from the FDE start. */
    static final int RANGE_FIELD = 0x1c;

    /** The section bytes and where each function's CIE and FDE start (in the order of the functions given). */
    public record Encoded(byte[] bytes, List<Integer> cieOffsets, List<Integer> fdeOffsets) {}

    /**
     * {@code .debug_frame} for {@code functions} in section order: ptxas writes a copy of the CIE before each FDE.
     * In an executable the FDE's CIE pointer holds the CIE's offset; in relocatable output it is 0 and relocated.
     */
    public static Encoded encode(int sm, List<FunctionFacts> functions, boolean relocatable) {
        ByteWriter w = new ByteWriter();
        List<Integer> cies = new ArrayList<>();
        List<Integer> fdes = new ArrayList<>();
        for (FunctionFacts f : functions) {
            int cie = w.size();
            cies.add(cie);
            w.bytes(CIE);
            fdes.add(w.size());
            byte[] fde = fde(sm, f);
            if (!relocatable) {
                for (int i = 0; i < 4; i++) {
                    fde[CIE_POINTER_FIELD + i] = (byte) (cie >>> (8 * i));
                }
            }
            w.bytes(fde);
        }
        return new Encoded(w.toByteArray(), cies, fdes);
    }

    /** One FDE: 64-bit length, CIE pointer 0, location 0, address range, program, nops to a multiple of 8. */
    static byte[] fde(int sm, FunctionFacts f) {
        byte[] program = program(sm, f);
        int body = 8 + 8 + 8 + program.length;
        int total = (12 + body + 7) & ~7;
        ByteWriter w = new ByteWriter();
        w.u32(0xffffffff).u64(total - 12).u64(0).u64(0).u64(f.code().length).bytes(program);
        w.padTo(total);
        return w.toByteArray();
    }

    /** The call-frame program (see the class comment). */
    static byte[] program(int sm, FunctionFacts f) {
        int[] exits = f.exitOffsets();
        if (!f.callees().isEmpty() || !f.inner().isEmpty() || f.crsStackSize().isPresent()) {
            return new byte[0];
        }
        record Row(long at, boolean defCfa) {}
        List<Row> rows = new ArrayList<>();
        if (!f.entry()) {
            // A device function: the frame is defined from its first instruction to its last RET.
            int ret = lastOf(f.code(), RET);
            if (ret < 0) {
                return new byte[0];
            }
            rows.add(new Row(0, true));
            rows.add(new Row(ret, false));
            return encodeRows(rows.stream().map(r -> new long[] {r.at(), r.defCfa() ? 1 : 0}).toList(), f.frameSize());
        }
        if (exits.length == 0) {
            // A kernel that only traps: its BPT.TRAP stands for the exit.
            int trap = lastOf(f.code(), BPT);
            if (trap < 0) {
                return new byte[0];
            }
            exits = new int[] {trap};
        }
        if (sm < 90) {
            rows.add(new Row(0x10, false));
        }
        int first = exits[0];
        int last = exits[0];
        for (int e : exits) {
            first = Math.min(first, e);
            last = Math.max(last, e);
        }
        rows.add(new Row(endOfFirstBlock(f.code(), first) + 16L, true));
        rows.add(new Row(last, false));
        if (sm >= 90) {
            rows.sort(java.util.Comparator.comparingLong(Row::at));
        }
        return encodeRows(rows.stream().map(r -> new long[] {r.at(), r.defCfa() ? 1 : 0}).toList(), f.frameSize());
    }

    /** Rows {address, 1 for DW_CFA_def_cfa else 0} as advance_loc4 (in 4-byte units, 30 bits) and def_cfa. */
    private static byte[] encodeRows(List<long[]> rows, int frameSize) {
        ByteWriter w = new ByteWriter();
        long at = 0;
        for (long[] r : rows) {
            if (r[0] != at) {
                w.u8(DW_CFA_ADVANCE_LOC4).u32((int) ((r[0] - at) / 4 & 0x3fffffff));
                at = r[0];
            }
            if (r[1] != 0) {
                w.u8(DW_CFA_DEF_CFA);
                uleb(w, STACK_REGISTER);
                uleb(w, frameSize);
            }
        }
        return w.toByteArray();
    }

    static final int RET = 0x950;
    static final int BPT = 0x95c;

    /** Offset of the last instruction with {@code opcode} (bits [11:0]), or -1. */
    private static int lastOf(byte[] code, int opcode) {
        int found = -1;
        for (int at = 0; at + 16 <= code.length; at += 16) {
            if (((code[at] & 0xff) | (code[at + 1] & 0x0f) << 8) == opcode) {
                found = at;
            }
        }
        return found;
    }

    /** Opcodes (bits [11:0]) that end a basic block: BRA, BRX, JMP, JMX, EXIT, RET, CALL, BREAK, BSYNC. */
    private static final java.util.Set<Integer> BLOCK_ENDS = java.util.Set.of(0x947, 0x949, 0x94a, 0x94c, 0x94d, 0x950,
            0x943, 0x944, 0x942, 0x941, BPT);

    /** Offset of the first instruction that ends a basic block (at the latest the first EXIT). */
    static int endOfFirstBlock(byte[] code, int firstExit) {
        for (int at = 0; at + 16 <= code.length && at < firstExit; at += 16) {
            int opcode = (code[at] & 0xff) | (code[at + 1] & 0x0f) << 8;
            if (BLOCK_ENDS.contains(opcode)) {
                return at;
            }
        }
        return firstExit;
    }

    private static void uleb(ByteWriter w, long v) {
        do {
            int b = (int) (v & 0x7f);
            v >>>= 7;
            w.u8(v != 0 ? b | 0x80 : b);
        } while (v != 0);
    }
}
