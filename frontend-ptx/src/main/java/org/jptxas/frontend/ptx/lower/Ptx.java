package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/** Small helpers the lowerers share: reading an instruction's types and splitting 64-bit values. */
final class Ptx {
    private Ptx() {}

    /** The type modifiers of the instruction, in order ({@code cvt.f32.s32} → [F32, S32]). */
    static List<PtxType> types(Instruction i) {
        List<PtxType> out = new ArrayList<>();
        for (String m : i.modifiers()) {
            PtxType.fromName(m).ifPresent(out::add);
        }
        return out;
    }

    /** The last type modifier (the operation type of most instructions). */
    static PtxType type(Instruction i) {
        List<PtxType> t = types(i);
        return t.isEmpty() ? PtxType.B32 : t.get(t.size() - 1);
    }

    static boolean signed(PtxType t) {
        return t == PtxType.S8 || t == PtxType.S16 || t == PtxType.S32 || t == PtxType.S64;
    }

    static boolean isFloat(PtxType t) {
        return switch (t) {
            case F16, F16X2, BF16, BF16X2, F32, F64, TF32 -> true;
            default -> false;
        };
    }

    static boolean wide(PtxType t) {
        return t.sizeBytes() == 8;
    }

    static Operand op(Instruction i, int n) {
        return i.operands().get(n);
    }

    /** Component {@code k} (32 bits) of a value: a register part, or 32 bits of an immediate. */
    static Src part(Src s, int k) {
        if (s.value() instanceof Reg r) {
            if (r.isZero()) {
                return s;
            }
            if (r.width() == 1) {
                return k == 0 ? s : Src.of(Reg.RZ);
            }
            return new Src(r.component(k), s.neg(), s.abs(), s.not());
        }
        if (s.value() instanceof Imm m) {
            return Src.of(new Imm((m.bits() >>> (32 * k)) & 0xffffffffL));
        }
        if (s.value() instanceof org.jptxas.ori.ir.CBank c) {
            return Src.of(new org.jptxas.ori.ir.CBank(c.bank(), c.offset() + 4 * k, c.index()));
        }
        return s;
    }

    static Src lo(Src s) {
        return part(s, 0);
    }

    static Src hi(Src s) {
        return part(s, 1);
    }

    static Src imm(long v) {
        return Src.of(new Imm(v & 0xffffffffL));
    }

    static Src rz() {
        return Src.of(Reg.RZ);
    }

    static Src pt() {
        return Src.of(Reg.PT);
    }

    static Src notPt() {
        return Src.of(Reg.PT).inverted();
    }

    static Src of(Reg r) {
        return Src.of(r);
    }

    static Reg r32(LoweringContext cx) {
        return cx.newReg(RegFile.R, 1);
    }

    static Reg pred(LoweringContext cx) {
        return cx.newReg(RegFile.P, 1);
    }

    /**
     * A 64-bit address plus a constant offset, as a new register pair (IADD3 with carry-out, IADD3.X); the base itself
     * for offset 0. {@code guarded}: whether the instruction's guard predicates the two adds.
     */
    static Reg plus64(LoweringContext cx, Reg base, long offset, boolean guarded) {
        if (offset == 0) {
            return base;
        }
        Reg sum = cx.newReg(RegFile.R, 2);
        Reg carry = pred(cx);
        List<Src> low = List.of(Src.of(base.component(0)), imm(offset & 0xffffffffL), rz());
        List<Src> high = List.of(Src.of(base.component(1)), imm((offset >> 32) & 0xffffffffL), rz(), Src.of(carry),
                notPt());
        if (guarded) {
            cx.emit("IADD3", List.of(), List.of(sum.component(0), carry, Reg.PT), low);
            cx.emit("IADD3", List.of("X"), List.of(sum.component(1), Reg.PT, Reg.PT), high);
        } else {
            cx.emitUnguarded("IADD3", List.of(), List.of(sum.component(0), carry, Reg.PT), low);
            cx.emitUnguarded("IADD3", List.of("X"), List.of(sum.component(1), Reg.PT, Reg.PT), high);
        }
        return sum;
    }

    /** Is the source a 64-bit register (a whole pair)? */
    static boolean isPair(Src s) {
        return s.value() instanceof Reg r && r.width() == 2;
    }

    /** SASS size modifier of a memory access of {@code bytes} bytes ({@code U8}, {@code S16}, none, {@code 64}). */
    static String sizeMod(PtxType t, int bytes) {
        return switch (bytes) {
            case 1 -> signed(t) ? "S8" : "U8";
            case 2 -> signed(t) ? "S16" : "U16";
            case 4 -> null;
            case 8 -> "64";
            case 16 -> "128";
            default -> throw new IllegalArgumentException("access of " + bytes + " bytes");
        };
    }
}
