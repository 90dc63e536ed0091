package org.jptxas.isel.cubin;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The {@code .debug_frame} section ptxas 13 writes: 64-bit DWARF call-frame information, for each function (in
 * section order) a copy of its CIE and its FDE, then for each function placed inside its code (ptxas's
 * {@code $kernel$callee} copies and internal helpers) a call-ABI CIE ({@link #abiCie}) and that function's FDE; each
 * entry padded with {@code DW_CFA_nop} to a multiple of 8 bytes. Kernels use one fixed CIE, device functions of
 * relocatable output {@link #DEVICE_CIE}. An FDE's initial location holds the inner function's offset (0 for a
 * function) and is relocated ({@code R_CUDA_64} against the function's symbol), as is the host address in a call-ABI
 * CIE; relocatable output also relocates the CIE pointer and marks the address range {@code R_CUDA_UNUSED_CLEAR64}.
 *
 * <p>The call-frame programs, measured on the corpus (equal to ptxas's in 955 of 959 covered cubins):
 * <ul>
 *   <li>a kernel: a row where the second basic block starts ({@code DW_CFA_def_cfa} of the stack register with the
 *       frame size) and one at the last EXIT, plus, below sm_90, a first row at 0x10; below sm_90 the rows stay in
 *       that order (the last advance may be negative), from sm_90 on they are sorted by address. The first block
 *       ends after a branch, EXIT, RET, BSYNC, BREAK, BPT or a fence's MEMBAR, before a call, or at the first
 *       branch target. A kernel with a stack frame instead defines the frame after the stack pointer is lowered;</li>
 *   <li>a device function: the frame from its first instruction to its last RET;</li>
 *   <li>an inner function: as given by code generation ({@link FunctionFacts.InnerFunction#callFrameProgram}), or
 *       derived ({@link #innerProgram}).</li>
 * </ul>
 * Device functions that make calls get an empty program (ptxas's rows for saved registers are not derived).
 */
public final class DebugFrame {
    private DebugFrame() {}

    /** The CIE: version 3, code alignment 4, data alignment -4, the CUDA return-address and stack registers. */
    static final byte[] CIE = HexFormat.of().parseHex("ffffffff2400000000000000ffffffff"
            + "ffffffff0300047cffffffff0f0c8180" + "80280008ff8180280881808028000000");

    /**
     * The CIE of a device function (relocatable output): the return address in R20, which with R21, RZ and the
     * stack pointer keeps its value.
     */
    static final byte[] DEVICE_CIE = HexFormat.of().parseHex("ffffffff2c00000000000000ffffffff"
            + "ffffffff0300047c948080280c818080" + "280008ff818028088180802808948080" + "2808958080280000");

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

    /**
     * One FDE of the section: where it and its CIE start, the function (index in the list given) whose symbol its
     * location is relocated against, the location's value (the offset of an inner function in its host's code),
     * the CIE pointer's addend in relocatable output, and the offset of the CIE's relocated {@code DW_OP_addr}
     * (-1 for the plain CIE).
     */
    public record Fde(int cieOffset, int fdeOffset, int function, long location, long ciePointerAddend,
                      int cieAddressOffset) {}

    /** The section bytes and its FDEs in section order. */
    public record Encoded(byte[] bytes, List<Fde> fdes) {}

    /**
     * {@code .debug_frame} for {@code functions} in section order: ptxas writes a copy of the CIE before each FDE,
     * and after a function's FDE those of the functions placed inside its code, each after a CIE of the call ABI.
     * In an executable the FDE's CIE pointer holds the CIE's offset; in relocatable output it is 0 and relocated.
     */
    public static Encoded encode(int sm, List<FunctionFacts> functions, boolean relocatable) {
        ByteWriter w = new ByteWriter();
        List<Fde> fdes = new ArrayList<>();
        long assumed = 0;
        for (int k = 0; k < functions.size(); k++) {
            FunctionFacts f = functions.get(k);
            // The addend of a CIE pointer in relocatable output is where the CIE would be if every FDE had the
            // pre-sm_90 program (ptxas 13 keeps it when it drops the sm_90+ set-up row).
            long addend = assumed;
            long range = f.inner().isEmpty() ? f.code().length : f.inner().get(0).offset();
            assumed += (f.entry() ? CIE : DEVICE_CIE).length + fde(program(Math.min(sm, 89), f), 0, range).length;
            int cie = w.size();
            // A device function's CIE names the call ABI's return register pair.
            byte[] ownCie = f.entry() ? CIE : DEVICE_CIE;
            w.bytes(ownCie);
            fdes.add(new Fde(cie, w.size(), k, 0, addend, -1));
            w.bytes(withCiePointer(fde(program(sm, f), 0, range), cie, relocatable));
            for (FunctionFacts.InnerFunction in : f.inner()) {
                byte[] abiCie = abiCie(in.returnRegisters());
                cie = w.size();
                w.bytes(abiCie);
                byte[] program = in.callFrameProgram().length > 0 ? in.callFrameProgram() : innerProgram(sm, f, in);
                byte[] fde = fde(program, in.offset(), in.size());
                fdes.add(new Fde(cie, w.size(), k, in.offset(), assumed, cie + abiCieAddressField(abiCie)));
                assumed += abiCie.length + fde.length;
                w.bytes(withCiePointer(fde, cie, relocatable));
            }
        }
        return new Encoded(w.toByteArray(), fdes);
    }

    private static byte[] withCiePointer(byte[] fde, int cie, boolean relocatable) {
        if (!relocatable) {
            for (int i = 0; i < 4; i++) {
                fde[CIE_POINTER_FIELD + i] = (byte) (cie >>> (8 * i));
            }
        }
        return fde;
    }

    /** The DWARF number of general register {@code r} (R1 is the stack pointer, 255 RZ). */
    static long register(int r) {
        return 0x5000000L + r;
    }

    /** The return-address column of the call-ABI CIE. */
    static final long RETURN_COLUMN = 0x5000100L;
    /** Offset of the relocated {@code DW_OP_addr} operand in an {@link #abiCie}: after the last DW_OP_addr opcode. */
    static int abiCieAddressField(byte[] cie) {
        // The expression ends: DW_OP_addr, 8 address bytes, DW_OP_bregx, register (4 bytes), 0, DW_OP_plus.
        int end = cie.length;
        while (cie[end - 1] == 0) {
            end--; // padding
        }
        return end - 7 - 8;
    }

    /**
     * The CIE ptxas writes before the FDE of a function placed in another's code: the return-address column is
     * computed ({@code DW_CFA_val_expression}) as the host function's address (relocated) plus the return register;
     * RZ, the stack pointer and the return registers of the call chain keep their values.
     */
    static byte[] abiCie(List<Integer> returnRegisters) {
        int returnRegister = returnRegisters.get(returnRegisters.size() - 1);
        ByteWriter body = new ByteWriter();
        body.u64(-1L).u8(3).u8(0).u8(4).u8(0x7c);
        uleb(body, RETURN_COLUMN);
        body.u8(DW_CFA_DEF_CFA);
        uleb(body, STACK_REGISTER);
        uleb(body, 0);
        List<Integer> same = new ArrayList<>(List.of(255, 1));
        same.addAll(returnRegisters);
        for (int r : same) {
            body.u8(DW_CFA_SAME_VALUE);
            uleb(body, register(r));
        }
        ByteWriter expression = new ByteWriter().u8(DW_OP_ADDR).u64(0).u8(DW_OP_BREGX);
        uleb(expression, register(returnRegister));
        expression.u8(0).u8(DW_OP_PLUS);
        byte[] e = expression.toByteArray();
        body.u8(DW_CFA_VAL_EXPRESSION);
        uleb(body, RETURN_COLUMN);
        uleb(body, e.length);
        body.bytes(e);
        int total = (12 + body.size() + 7) & ~7;
        ByteWriter w = new ByteWriter().u32(0xffffffff).u64(total - 12).bytes(body.toByteArray());
        w.padTo(total);
        return w.toByteArray();
    }

    /**
     * The program of an inner function without one given: the frame is defined by the stack pointer and the frame
     * size after the instruction that lowers the stack pointer ({@code IADD3 R1, R1, -size}); a leaf that returns
     * through another register than the one its return address came in (a {@code MOV Rk, Rra} before
     * {@code RET Rk}) says so after that move ({@code DW_CFA_register}); one that returns through the call ABI's
     * return register (R20), not an internal helper, gets a device function's program (the frame from the first
     * instruction to the RET).
     */
    static byte[] innerProgram(int sm, FunctionFacts host, FunctionFacts.InnerFunction in) {
        byte[] code = host.code();
        int from = (int) in.offset();
        int to = (int) Math.min(code.length, in.offset() + in.size());
        ByteWriter w = new ByteWriter();
        long at = 0;
        int lowered = in.frameSize() > 0 ? stackLowering(code, from, to) : -1;
        if (lowered >= 0) {
            w.bytes(encodeRows(List.of(new long[] {lowered + 16L - from, 1}), in.frameSize()));
            at = lowered + 16L - from;
        }
        int ret = -1;
        for (int i = from; i + 16 <= to; i += 16) {
            if (opcode(code, i) == RET) {
                ret = i;
            }
        }
        int ra = in.returnRegister();
        int k = ret >= 0 ? code[ret + 3] & 0xff : ra;
        if (lowered < 0 && k == ra && ret >= 0 && ra == FunctionFacts.InnerFunction.ABI_RETURN_REGISTER
                && in.binding() != FunctionFacts.Binding.WEAK) {
            byte[] rows = encodeRows(List.of(new long[] {0, 1}, new long[] {ret - from, 0}), 0);
            return sm >= 90 ? rows : new ByteWriter().u8(DW_CFA_ADVANCE_LOC4).u32(0).bytes(rows).toByteArray();
        }
        if (lowered < 0 && k != ra) {
            for (int i = ret - 16; i >= from; i -= 16) {
                if ((code[i + 2] & 0xff) != k) {
                    continue;
                }
                int op = opcode(code, i);
                boolean move = op == MOV && (code[i + 4] & 0xff) == ra
                        || op == IMAD_MOV && (code[i + 3] & 0xff) == 0xff && (code[i + 8] & 0xff) == ra;
                if (move) {
                    long row = i + 16L - from;
                    w.u8(DW_CFA_ADVANCE_LOC4).u32((int) ((row - at) / 4));
                    w.u8(DW_CFA_REGISTER);
                    uleb(w, register(ra));
                    uleb(w, register(k));
                }
                break;
            }
        }
        return w.toByteArray();
    }

    private static int opcode(byte[] code, int at) {
        return (code[at] & 0xff) | (code[at + 1] & 0x0f) << 8;
    }

    /** {@code MOV Rd, Rb} and {@code IMAD.MOV.U32 Rd, RZ, RZ, Rc} (bits [11:0], register forms). */
    static final int MOV = 0x202;
    static final int IMAD_MOV = 0x224;
    static final int DW_CFA_REGISTER = 0x09;

    /** Offset of the first {@code IADD3 R1, R1, imm} (the stack pointer lowered) in [from, to), or -1. */
    static int stackLowering(byte[] code, int from, int to) {
        for (int at = from; at + 16 <= to; at += 16) {
            int opcode = opcode(code, at);
            if (opcode == IADD3_IMMEDIATE && code[at + 2] == 1 && code[at + 3] == 1) {
                return at;
            }
        }
        return -1;
    }

    /** {@code IADD3 Rd, Ra, imm, Rc} (bits [11:0]). */
    static final int IADD3_IMMEDIATE = 0x810;
    static final int DW_CFA_SAME_VALUE = 0x08;
    static final int DW_CFA_VAL_EXPRESSION = 0x16;
    static final int DW_OP_ADDR = 0x03;
    static final int DW_OP_BREGX = 0x92;
    static final int DW_OP_PLUS = 0x22;

    /** One FDE: 64-bit length, CIE pointer 0, location, address range, program, nops to a multiple of 8. */
    static byte[] fde(byte[] program, long location, long range) {
        int body = 8 + 8 + 8 + program.length;
        int total = (12 + body + 7) & ~7;
        ByteWriter w = new ByteWriter();
        w.u32(0xffffffff).u64(total - 12).u64(0).u64(location).u64(range).bytes(program);
        w.padTo(total);
        return w.toByteArray();
    }

    /** The call-frame program (see the class comment). */
    static byte[] program(int sm, FunctionFacts f) {
        int[] exits = f.exitOffsets();
        if (!f.entry() && !f.callees().isEmpty() || f.crsStackSize().orElse(0) > 0) {
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
            // Below sm_90 ptxas writes the advance to the first instruction even though it is zero.
            byte[] program = encodeRows(List.of(new long[] {0, 1}, new long[] {ret, 0}), f.frameSize());
            if (sm >= 90) {
                return program;
            }
            return java.nio.ByteBuffer.allocate(5 + program.length).put((byte) DW_CFA_ADVANCE_LOC4).putInt(0)
                    .put(program).array();
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
        int lowered = f.frameSize() > 0 ? stackLowering(f.code(), 0, f.code().length) : -1;
        if (lowered >= 0) {
            // A kernel with a stack frame: the frame is defined after the stack pointer is lowered, and redefined
            // at once (an advance of zero) with offset 0.
            // From sm_90 on only the second is written.
            if (sm >= 90) {
                return encodeRows(List.of(new long[] {lowered + 16L, 1}), 0);
            }
            ByteWriter w = new ByteWriter().bytes(encodeRows(List.of(new long[] {0x10, 0},
                    new long[] {lowered + 16L, 1}), f.frameSize()));
            w.u8(DW_CFA_ADVANCE_LOC4).u32(0).bytes(encodeRows(List.of(new long[] {0, 1}), 0));
            return w.toByteArray();
        }
        int first = exits[0];
        int last = exits[0];
        for (int e : exits) {
            first = Math.min(first, e);
            last = Math.max(last, e);
        }
        rows.add(new Row(secondBlock(sm, f.code(), first), true));
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
            if (opcode(code, at) == opcode) {
                found = at;
            }
        }
        return found;
    }

    /** Opcodes (bits [11:0]) that end a basic block: BRA, BRX, JMP, JMX, EXIT, RET, BREAK, BSYNC, BPT. */
    private static final java.util.Set<Integer> BLOCK_ENDS = java.util.Set.of(0x947, 0x949, 0x94a, 0x94c, 0x94d, 0x950,
            0x942, 0x941, BPT);
    static final int MEMBAR = 0x992;

    /**
     * Where the second basic block starts: after the first instruction that ends a block (at the latest the first
     * EXIT), or earlier at the first target of a branch (a loop head).
     */
    static long secondBlock(int sm, byte[] code, int firstExit) {
        long start = endOfFirstBlock(sm, code, firstExit);
        for (int at = 0; at + 16 <= code.length; at += 16) {
            int opcode = opcode(code, at);
            if (opcode == BRA) {
                int offset = (code[at + 4] & 0xff) | (code[at + 5] & 0xff) << 8 | (code[at + 6] & 0xff) << 16
                        | code[at + 7] << 24;
                long target = at + 16L + offset;
                if (target > 0 && target < start) {
                    start = target;
                }
            }
        }
        return start;
    }

    static final int BRA = 0x947;

    /**
     * Where the first basic block ends: after the first instruction that ends one (at the latest the first EXIT),
     * or before the first call (a call starts its own block). A MEMBAR ends one too, below sm_90 always; from sm_90
     * on only a fence of the PTX's own (membar/fence: MEMBAR.SC, or MEMBAR.ALL with the CCTL.IVALL of its acquire
     * side soon after), not the MEMBAR.ALL of a release sequence (st.release: MEMBAR.ALL.GPU, ERRBAR, CGAERRBAR, ST),
     * whose bits are the same; measured on the corpus and on membar/fence kernels.
     */
    static long endOfFirstBlock(int sm, byte[] code, int firstExit) {
        for (int at = 0; at + 16 <= code.length && at < firstExit; at += 16) {
            int opcode = opcode(code, at);
            if (opcode == CALL_ABS || opcode == CALL_REL) {
                return at;
            }
            if (BLOCK_ENDS.contains(opcode) || opcode == MEMBAR && (sm < 90 || isFence(code, at))) {
                return at + 16L;
            }
        }
        return firstExit + 16L;
    }

    /** Whether the MEMBAR at {@code at} is a fence of its own (see {@link #endOfFirstBlock}). */
    private static boolean isFence(byte[] code, int at) {
        boolean all = (code[at + 9] & 0x80) != 0; // bit 79: .ALL rather than .SC
        if (!all) {
            return true;
        }
        for (int next = at + 16; next <= at + 48 && next + 16 <= code.length; next += 16) {
            if (opcode(code, next) == CCTL) {
                return true;
            }
        }
        return false;
    }

    static final int CCTL = 0x98f;
    static final int CALL_ABS = 0x943;
    static final int CALL_REL = 0x944;

    private static void uleb(ByteWriter w, long v) {
        do {
            int b = (int) (v & 0x7f);
            v >>>= 7;
            w.u8(v != 0 ? b | 0x80 : b);
        } while (v != 0);
    }
}
