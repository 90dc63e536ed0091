package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The {@code .debug_frame} section ptxas 13 writes: 64-bit DWARF call-frame information, for each function (in
 * section order) a copy of its CIE and its FDE, then for each function placed inside its code (ptxas's
 * {@code $kernel$callee} copies and internal helpers) a call-ABI CIE ({@link #abiCie}) and that function's FDE; each
 * entry padded with {@code DW_CFA_nop} to a multiple of 8 bytes. Kernels use one fixed CIE, device functions of
 * relocatable output {@link #DEVICE_CIE}. An FDE's initial location holds the inner function's offset (0 for a
 * function) and is relocated ({@code R_CUDA_64} against the function's symbol), as is the host address in a call-ABI
 * CIE; relocatable output also relocates the CIE pointer and marks the address range {@code R_CUDA_UNUSED_CLEAR64}.
 *
 * <p>The call-frame programs, measured on the corpus (equal to ptxas's, section by section, in 2,133 of the 2,238
 * cubins ptxas 13 writes for it, executable and relocatable, sm_75 to sm_120):
 * <ul>
 *   <li>a kernel: a row where the second basic block starts ({@code DW_CFA_def_cfa} of the stack register with the
 *       frame size) and one at the last exit (or a call or trap placed after it), plus, below sm_90, a first row
 *       at 0x10; below sm_90 the rows stay in that order (the last advance may be negative), from sm_90 on they are
 *       sorted by address. The first block ends after a branch, EXIT, RET, BSYNC, BREAK, BPT or a fence's MEMBAR,
 *       before a call (a system call's LEPC), or at the first branch target. A kernel with a stack frame instead defines the frame after
 *       the stack pointer is lowered;</li>
 *   <li>a device function ({@link #deviceProgram}): the frame from where its body starts to its last RET, with the
 *       registers it saves and restores and the copies of its return address;</li>
 *   <li>an inner function: as given by code generation ({@link FunctionFacts.InnerFunction#callFrameProgram}), or
 *       derived ({@link #innerProgram}).</li>
 * </ul>
 * Not derived: the debug CIEs of {@code -G} code, a kernel whose call block ptxas starts at the return-address
 * set-up (it does in some files and not in others with the same code), a device function that realigns its stack
 * pointer, and an inner function whose return address ptxas describes as a constant.
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
    public static Encoded encode(CubinFlavor flavor, List<FunctionFacts> functions, boolean relocatable) {
        return encode(flavor.hopperLayout(), functions, relocatable);
    }

    /** As {@link #encode(CubinFlavor, List, boolean)}; {@code hopper}: the flavour's Hopper layout. */
    static Encoded encode(boolean hopper, List<FunctionFacts> functions, boolean relocatable) {
        ByteWriter w = new ByteWriter();
        List<Fde> fdes = new ArrayList<>();
        long assumed = 0;
        for (int k = 0; k < functions.size(); k++) {
            FunctionFacts f = functions.get(k);
            // The addend of a CIE pointer in relocatable output is where the CIE would be if every FDE had the
            // pre-sm_90 program (ptxas 13 keeps it when it drops the sm_90+ set-up row).
            long addend = assumed;
            long range = f.inner().isEmpty() ? f.code().length : f.inner().get(0).offset();
            assumed += (f.entry() ? CIE : DEVICE_CIE).length + fde(program(false, f), 0, range).length;
            int cie = w.size();
            // A device function's CIE names the call ABI's return register pair.
            byte[] ownCie = f.entry() ? CIE : DEVICE_CIE;
            w.bytes(ownCie);
            fdes.add(new Fde(cie, w.size(), k, 0, addend, -1));
            w.bytes(withCiePointer(fde(program(hopper, f), 0, range), cie, relocatable));
            for (FunctionFacts.InnerFunction in : f.inner()) {
                byte[] abiCie = abiCie(in.returnRegisters());
                cie = w.size();
                w.bytes(abiCie);
                byte[] program = in.callFrameProgram().length > 0 ? in.callFrameProgram() : innerProgram(hopper, f, in);
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
        Leb128.writeUnsigned(body, RETURN_COLUMN);
        body.u8(DW_CFA_DEF_CFA);
        Leb128.writeUnsigned(body, STACK_REGISTER);
        Leb128.writeUnsigned(body, 0);
        List<Integer> same = new ArrayList<>(List.of(255, 1));
        same.addAll(returnRegisters);
        for (int r : same) {
            body.u8(DW_CFA_SAME_VALUE);
            Leb128.writeUnsigned(body, register(r));
        }
        ByteWriter expression = new ByteWriter().u8(DW_OP_ADDR).u64(0).u8(DW_OP_BREGX);
        Leb128.writeUnsigned(expression, register(returnRegister));
        expression.u8(0).u8(DW_OP_PLUS);
        byte[] e = expression.toByteArray();
        body.u8(DW_CFA_VAL_EXPRESSION);
        Leb128.writeUnsigned(body, RETURN_COLUMN);
        Leb128.writeUnsigned(body, e.length);
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
    static byte[] innerProgram(boolean hopper, FunctionFacts host, FunctionFacts.InnerFunction in) {
        byte[] code = host.code();
        int from = (int) in.offset();
        int to = (int) Math.min(code.length, in.offset() + in.size());
        List<Row> rows = new ArrayList<>();
        int lowered = in.frameSize() > 0 ? stackAdjustment(code, from, to, true) : -1;
        if (lowered >= 0) {
            rows.add(defCfa(lowered + 16L - from, in.frameSize()));
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
            return encodeProgram(hopper, List.of(defCfa(0, 0), bare(ret - from)), true);
        }
        if (lowered < 0 && k != ra) {
            for (int i = ret - 16; i >= from; i -= 16) {
                if ((code[i + 2] & 0xff) != k) {
                    continue;
                }
                if (moveSource(code, i) == ra) {
                    rows.add(registerRow(i + 16L - from, ra, k).advancing());
                }
                break;
            }
        }
        return encodeProgram(hopper, rows, false);
    }

    private static int opcode(byte[] code, int at) {
        return (code[at] & 0xff) | (code[at + 1] & 0x0f) << 8;
    }

    /** {@code MOV Rd, Rb} and {@code IMAD.MOV.U32 Rd, RZ, RZ, Rc} (bits [11:0], register forms). */
    static final int MOV = 0x202;
    static final int IMAD_MOV = 0x224;
    static final int DW_CFA_REGISTER = 0x09;

    /**
     * Offset of the first {@code IADD3 R1, R1, imm, RZ} or {@code VIADD R1, R1, imm} in [from, to) that lowers the
     * stack pointer ({@code lower}, a negative immediate) or raises it, or -1.
     */
    static int stackAdjustment(byte[] code, int from, int to, boolean lower) {
        for (int at = from; at + 16 <= to; at += 16) {
            int opcode = opcode(code, at);
            if ((opcode == IADD3_IMMEDIATE || opcode == VIADD_IMMEDIATE) && code[at + 2] == 1 && code[at + 3] == 1
                    && unguarded(code, at) && immediate(code, at) != 0 && immediate(code, at) < 0 == lower) {
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
    static byte[] program(boolean hopper, FunctionFacts f) {
        if (f.crsStackSize().orElse(0) > 0) {
            return new byte[0];
        }
        return f.entry() ? kernelProgram(hopper, f) : deviceProgram(hopper, f);
    }

    /**
     * One row of a call-frame program: its address, the CFA instructions there (none: a bare advance), and whether
     * its advance is written even when it is zero.
     */
    private record Row(long at, byte[] instructions, boolean advance) {
        Row(long at, byte[] instructions) {
            this(at, instructions, false);
        }

        Row advancing() {
            return new Row(at, instructions, true);
        }
    }

    private static Row defCfa(long at, long frame) {
        ByteWriter w = new ByteWriter().u8(DW_CFA_DEF_CFA);
        Leb128.writeUnsigned(w, STACK_REGISTER);
        Leb128.writeUnsigned(w, frame);
        return new Row(at, w.toByteArray());
    }

    /** {@code DW_CFA_register source, destination}: register {@code source}'s value is in {@code destination}. */
    private static Row registerRow(long at, int source, int destination) {
        ByteWriter w = new ByteWriter().u8(DW_CFA_REGISTER);
        Leb128.writeUnsigned(w, register(source));
        Leb128.writeUnsigned(w, register(destination));
        return new Row(at, w.toByteArray());
    }

    private static Row bare(long at) {
        return new Row(at, new byte[0]);
    }

    private static byte[] kernelProgram(boolean hopper, FunctionFacts f) {
        byte[] code = f.code();
        int[] exits = f.exitOffsets();
        if (exits.length == 0) {
            // A kernel that only traps: its BPT.TRAP stands for the exit.
            int trap = lastOf(code, BPT);
            if (trap < 0) {
                return new byte[0];
            }
            exits = new int[] {trap};
        }
        int first = exits[0];
        int last = exits[0];
        for (int e : exits) {
            first = Math.min(first, e);
            last = Math.max(last, e);
        }
        // The last row is at the last exit or at a call or trap after it (in code placed after the exits), in the
        // kernel's own code (inner functions follow it).
        int end = (int) f.inner().stream().mapToLong(FunctionFacts.InnerFunction::offset).min().orElse(code.length);
        for (int at = last; at + 16 <= end; at += 16) {
            if (isCall(opcode(code, at)) || opcode(code, at) == BPT) {
                last = at;
            }
        }
        List<Row> rows = new ArrayList<>();
        if (!hopper) {
            rows.add(bare(0x10));
        }
        int lowered = f.frameSize() > 0 ? stackAdjustment(code, 0, code.length, true) : -1;
        if (lowered >= 0) {
            // A kernel with a stack frame: the frame is defined after the stack pointer is lowered. A kernel of one
            // block (one exit, no branch or call before it) redefines it at once (an advance of zero) with offset 0;
            // any other keeps it to its last exit.
            rows.add(defCfa(lowered + 16L, f.frameSize()));
            if (oneBlock(code, last)) {
                rows.add(defCfa(lowered + 16L, 0).advancing());
                if (hopper) {
                    rows.remove(0); // from sm_90 on only the second is written
                }
            } else {
                rows.add(bare(last));
            }
            return encodeProgram(hopper, rows, false);
        }
        rows.add(defCfa(secondBlock(hopper, code, first), f.frameSize()));
        rows.add(bare(last));
        return encodeProgram(hopper, rows, false);
    }

    /** Whether the code before {@code exit} has no branch, call, return or other exit. */
    private static boolean oneBlock(byte[] code, int exit) {
        for (int at = 0; at < exit; at += 16) {
            int opcode = opcode(code, at);
            if (BLOCK_ENDS.contains(opcode) || isCall(opcode)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A device function: the frame is defined where its body starts (after the stack pointer is lowered, or after
     * the copies of its arguments and barrier registers that open it), redefined with offset 0 after the stack
     * pointer is raised again, and described to its last RET. The registers it saves to its frame before its
     * body's first branch or call (the return address in R20/R21, the callee-saved ones) are followed where they
     * are saved ({@code DW_CFA_offset_extended}, data alignment -4) and restored after its last call
     * ({@code DW_CFA_restore_extended} for the return address, which the CIE says keeps its value;
     * {@code DW_CFA_expression} for the others), and the return address where it is copied to another register
     * and back ({@code DW_CFA_register} source, destination).
     */
    private static byte[] deviceProgram(boolean hopper, FunctionFacts f) {
        byte[] code = f.code();
        int ret = lastOf(code, RET);
        if (ret < 0) {
            return new byte[0];
        }
        List<Row> rows = new ArrayList<>();
        int lowered = stackAdjustment(code, 0, ret, true);
        if (lowered < 0) {
            rows.add(defCfa(prologueEnd(code), f.frameSize()));
            rows.addAll(returnAddressCopies(code, 0, ret));
            rows.add(bare(ret));
            return encodeProgram(hopper, rows, true);
        }
        int frame = -immediate(code, lowered);
        rows.add(defCfa(lowered + 16L, frame));
        int raised = stackAdjustment(code, lowered + 16, ret, false);
        // Saves: the stores to the frame before the body's first branch or call, each register's first.
        record Save(int register, int slot, int at) {}
        Map<Integer, Save> saves = new LinkedHashMap<>();
        for (int at = lowered + 16; at < ret; at += 16) {
            int opcode = opcode(code, at);
            if (BLOCK_ENDS.contains(opcode) || isCall(opcode)) {
                break;
            }
            if (opcode == STL && unguarded(code, at) && code[at + 3] == 1) {
                int r = code[at + 4] & 0xff;
                for (int k = 0; k < localWords(code, at); k++) {
                    saves.putIfAbsent(r + k, new Save(r + k, localOffset(code, at) + 4 * k, at));
                }
            }
        }
        // ptxas adds the save area's base (its lowest slot) to the CFA offset of every saved register but the
        // return address (measured: offsets, and restore expressions, are frame - slot + base).
        int base = saves.values().stream().mapToInt(Save::slot).min().orElse(0);
        ToLongFunction<Save> cfaOffset =
                v -> frame - v.slot() + (isReturnAddress(v.register()) ? 0 : base);
        for (Save v : saves.values()) {
            ByteWriter w = new ByteWriter().u8(DW_CFA_OFFSET_EXTENDED);
            Leb128.writeUnsigned(w, register(v.register()));
            Leb128.writeUnsigned(w, cfaOffset.applyAsLong(v) / 4);
            rows.add(new Row(v.at() + 16L, w.toByteArray()));
        }
        // Restores: loads of a saved register from its slot after the last call, before the frame is popped.
        int lastCall = lowered;
        for (int at = lowered; at < ret; at += 16) {
            if (isCall(opcode(code, at))) {
                lastCall = at;
            }
        }
        for (int at = lastCall + 16; at < (raised >= 0 ? raised : ret); at += 16) {
            if (opcode(code, at) != LDL || !unguarded(code, at) || code[at + 3] != 1) {
                continue;
            }
            int r = code[at + 2] & 0xff;
            for (int k = 0; k < localWords(code, at); k++) {
                Save v = saves.get(r + k);
                if (v == null || v.slot() != localOffset(code, at) + 4 * k) {
                    continue;
                }
                saves.remove(r + k);
                ByteWriter w = new ByteWriter();
                if (isReturnAddress(v.register())) {
                    // The CIE says the return address keeps its value.
                    w.u8(DW_CFA_RESTORE_EXTENDED);
                    Leb128.writeUnsigned(w, register(v.register()));
                } else {
                    ByteWriter e = new ByteWriter().u8(DW_OP_BREGX);
                    Leb128.writeUnsigned(e, STACK_REGISTER);
                    Leb128.writeSigned(e, -cfaOffset.applyAsLong(v));
                    w.u8(DW_CFA_EXPRESSION);
                    Leb128.writeUnsigned(w, register(v.register()));
                    Leb128.writeUnsigned(w, e.size());
                    w.bytes(e.toByteArray());
                }
                rows.add(new Row(at + 16L, w.toByteArray()));
            }
        }
        rows.addAll(returnAddressCopies(code, lowered + 16, ret));
        rows.sort(Comparator.comparingLong(Row::at));
        if (raised >= 0) {
            rows.add(defCfa(raised + 16L, 0));
        }
        rows.add(bare(ret));
        return encodeProgram(hopper, rows, true);
    }

    /** Whether {@code r} holds the call ABI's return address (R20, and R21 for its high word). */
    private static boolean isReturnAddress(int r) {
        return r == FunctionFacts.InnerFunction.ABI_RETURN_REGISTER
                || r == FunctionFacts.InnerFunction.ABI_RETURN_REGISTER + 1;
    }

    /** {@code DW_CFA_register} rows where the return address (R20/R21) is copied to another register or back. */
    private static List<Row> returnAddressCopies(byte[] code, int from, int to) {
        List<Row> rows = new ArrayList<>();
        for (int at = from; at < to; at += 16) {
            int source = moveSource(code, at);
            int destination = code[at + 2] & 0xff;
            boolean returnAddress = isReturnAddress(source) || isReturnAddress(destination);
            if (source >= 0 && source != destination && returnAddress && source != 255) {
                rows.add(registerRow(at + 16L, source, destination));
            }
        }
        return rows;
    }

    /**
     * Where a device function's body starts: after the unconditional register copies ({@code MOV},
     * {@code IMAD.MOV.U32}) and barrier-register saves ({@code BMOV.32.CLEAR}) that open it.
     */
    private static int prologueEnd(byte[] code) {
        int at = 0;
        while (at + 16 <= code.length && unguarded(code, at)
                && (moveSource(code, at) >= 0 || opcode(code, at) == BMOV_CLEAR)) {
            at += 16;
        }
        return at;
    }

    /** The source register of a register copy ({@code MOV Rd, Rs}, {@code IMAD.MOV.U32 Rd, RZ, RZ, Rs}), or -1. */
    private static int moveSource(byte[] code, int at) {
        int opcode = opcode(code, at);
        if (opcode == MOV) {
            return code[at + 4] & 0xff;
        }
        if (opcode == IMAD_MOV && (code[at + 3] & 0xff) == 0xff && (code[at + 4] & 0xff) == 0xff) {
            return code[at + 8] & 0xff;
        }
        return -1;
    }

    private static boolean unguarded(byte[] code, int at) {
        return (code[at + 1] & 0xf0) == 0x70; // guard predicate PT
    }

    /** The signed 24-bit offset of {@code STL/LDL [Ra + offset]} (bits [63:40]). */
    private static int localOffset(byte[] code, int at) {
        return ((code[at + 5] & 0xff) | (code[at + 6] & 0xff) << 8 | code[at + 7] << 16);
    }

    /** Registers an STL/LDL moves: 1, 2 for {@code .64}, 4 for {@code .128} (size field, bits [75:73]). */
    private static int localWords(byte[] code, int at) {
        int size = (code[at + 9] >> 1) & 7;
        return size == 5 ? 2 : size == 6 ? 4 : 1;
    }

    /** The signed 32-bit immediate of {@code IADD3 Rd, Ra, imm, Rc} and {@code VIADD Rd, Ra, imm} (bits [63:32]). */
    private static int immediate(byte[] code, int at) {
        return java.nio.ByteBuffer.wrap(code, at + 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /**
     * Rows as advance_loc4 (in 4-byte units, 30 bits; the advance may be negative where rows are not in address
     * order) and their instructions. From sm_90 on the rows are sorted by address. Below sm_90 a device function's
     * program opens with an advance even when it is zero.
     */
    private static byte[] encodeProgram(boolean hopper, List<Row> rows, boolean device) {
        if (hopper) {
            rows = new ArrayList<>(rows);
            rows.sort(Comparator.comparingLong(Row::at));
        }
        ByteWriter w = new ByteWriter();
        long at = 0;
        boolean firstRow = true;
        for (Row r : rows) {
            if (r.at() != at || r.advance() || firstRow && device && !hopper) {
                w.u8(DW_CFA_ADVANCE_LOC4).u32((int) ((r.at() - at) / 4 & 0x3fffffff));
                at = r.at();
            }
            firstRow = false;
            w.bytes(r.instructions());
        }
        return w.toByteArray();
    }

    static final int STL = 0x387;
    static final int LDL = 0x983;
    static final int BMOV_CLEAR = 0x355;
    static final int VIADD_IMMEDIATE = 0x836;
    static final int DW_CFA_OFFSET_EXTENDED = 0x05;
    static final int DW_CFA_RESTORE_EXTENDED = 0x06;
    static final int DW_CFA_EXPRESSION = 0x10;

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

    /** The branch ptxas 13 writes from sm_100 on (its offset laid out as sm_90's); no sm_75-sm_90 form has it. */
    static final int BRA_SM100 = 0x547;

    /** Opcodes (bits [11:0]) that end a basic block: BRA, BRX, JMP, JMX, EXIT, RET, BREAK, BSYNC, BPT, sm_100's BRA. */
    private static final java.util.Set<Integer> BLOCK_ENDS = java.util.Set.of(0x947, 0x949, 0x94a, 0x94c, 0x94d, 0x950,
            0x942, 0x941, BPT, BRA_SM100);
    static final int MEMBAR = 0x992;

    /**
     * Where the second basic block starts: after the first instruction that ends a block (at the latest the first
     * EXIT), or earlier at the first target of a branch (a loop head).
     */
    static long secondBlock(boolean hopper, byte[] code, int firstExit) {
        long start = endOfFirstBlock(hopper, code, firstExit);
        for (int at = 0; at + 16 <= code.length; at += 16) {
            int opcode = opcode(code, at);
            if (opcode == BRA || opcode == BRA_SM100) {
                long target = at + 16L + branchOffset(hopper, code, at);
                if (target > 0 && target < start) {
                    start = target;
                }
            }
        }
        return start;
    }

    static final int BRA = 0x947;

    /**
     * The byte offset of a {@code BRA} (from the next instruction), in 4-byte units in bits [63:34] (below sm_90)
     * or [23:16] then [63:34] (sm_90 on); the bits above 63 only extend the sign here.
     */
    static long branchOffset(boolean hopper, byte[] code, int at) {
        int high = immediate(code, at) >> 2; // bits [63:34], signed
        long units = hopper ? (long) high << 8 | (code[at + 2] & 0xff) : high;
        return units * 4;
    }

    /**
     * Where the first basic block ends: after the first instruction that ends one (at the latest the first EXIT),
     * or before the first call (a call starts its own block). A MEMBAR ends one too, below sm_90 always; from sm_90
     * on only a fence of the PTX's own (membar/fence: MEMBAR.SC, or MEMBAR.ALL with the CCTL.IVALL of its acquire
     * side soon after), not the MEMBAR.ALL of a release sequence (st.release: MEMBAR.ALL.GPU, ERRBAR, CGAERRBAR, ST),
     * whose bits are the same; measured on the corpus and on membar/fence kernels.
     */
    static long endOfFirstBlock(boolean hopper, byte[] code, int firstExit) {
        for (int at = 0; at + 16 <= code.length && at < firstExit; at += 16) {
            int opcode = opcode(code, at);
            if (opcode == CALL_ABS || opcode == CALL_REL) {
                return at;
            }
            if (opcode == CALL_ABS_REGISTER) {
                // A system call's block starts where its PC-relative return address is set up (LEPC).
                for (int back = at - 16; back >= 0; back -= 16) {
                    if (opcode(code, back) == LEPC || opcode(code, back) == LEPC_SM90) {
                        return back;
                    }
                }
                return at;
            }
            if (BLOCK_ENDS.contains(opcode) || opcode == MEMBAR && (!hopper || isFence(code, at))) {
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
    /** {@code LEPC Rd} below sm_90 and from sm_90 on. */
    static final int LEPC = 0x34e;
    static final int LEPC_SM90 = 0x94e;
    static final int CALL_ABS = 0x943;
    /** {@code CALL.ABS} through a register (the address of {@code vprintf} and other system calls). */
    static final int CALL_ABS_REGISTER = 0x343;

    static boolean isCall(int opcode) {
        return opcode == CALL_ABS || opcode == CALL_REL || opcode == CALL_ABS_REGISTER;
    }
    static final int CALL_REL = 0x944;
}
