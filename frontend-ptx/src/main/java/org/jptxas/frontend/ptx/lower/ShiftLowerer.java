package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code shl}, {@code shr}, {@code shf}: SHF ({@code SHF.L.U32 d, a, n, RZ}; {@code SHF.R.U32.HI d, RZ, n, a};
 * 64-bit with {@code SHF.L.U64.HI}/{@code SHF.R.U64}/{@code SHF.R.S64}). Shape: {@code SHF d, lo, n, hi}.
 */
@AutoService(InstructionLowerer.class)
public final class ShiftLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("shl", "shr", "shf");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (insn.opcode().equals("shf")) {
            shf(insn, cx);
            return;
        }
        PtxType t = Ptx.type(insn);
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src n = cx.src(Ptx.op(insn, 2), PtxType.U32);
        boolean left = insn.opcode().equals("shl");
        boolean signed = Ptx.signed(t);
        if (Ptx.wide(t)) {
            shift64(cx, d, a, n, left, signed);
            return;
        }
        if (t.sizeBytes() < 4) {
            if (left) {
                cx.emit("SHF", List.of("L", "U32"), List.of(d), List.of(a, n, Ptx.rz()));
                return;
            }
            a = IntArith.extend(cx, a, t);
            if (n.value() instanceof Imm m && m.bits() >= 8L * t.sizeBytes()) {
                n = Ptx.imm(31);
            }
        }
        if (left) {
            cx.emit("SHF", List.of("L", "U32"), List.of(d), List.of(a, n, Ptx.rz()));
        } else {
            cx.emit("SHF", List.of("R", signed ? "S32" : "U32", "HI"), List.of(d), List.of(Ptx.rz(), n, a));
        }
    }

    static void shift64(LoweringContext cx, Reg d, Src a, Src n, boolean left, boolean signed) {
        if (n.value() instanceof Imm m && m.bits() >= 32) {
            long k = Math.min(m.bits(), 64) - 32;
            if (left) {
                cx.emit("SHF", List.of("L", "U32"), List.of(d.component(1)), List.of(Ptx.lo(a), Ptx.imm(Math.min(k, 32)), Ptx.rz()));
                cx.emit("MOV", List.of(), List.of(d.component(0)), List.of(Ptx.rz()));
            } else {
                cx.emit("SHF", List.of("R", signed ? "S32" : "U32", "HI"), List.of(d.component(0)),
                        List.of(Ptx.rz(), Ptx.imm(Math.min(k, 31 + (signed ? 0 : 1))), Ptx.hi(a)));
                if (signed) {
                    cx.emit("SHF", List.of("R", "S32", "HI"), List.of(d.component(1)),
                            List.of(Ptx.rz(), Ptx.imm(31), Ptx.hi(a)));
                } else {
                    cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Ptx.rz()));
                }
            }
            return;
        }
        Reg lo = Ptx.r32(cx);
        if (left) {
            cx.emit("SHF", List.of("L", "U64", "HI"), List.of(d.component(1)), List.of(Ptx.lo(a), n, Ptx.hi(a)));
            cx.emit("SHF", List.of("L", "U32"), List.of(lo), List.of(Ptx.lo(a), n, Ptx.rz()));
            cx.emit("MOV", List.of(), List.of(d.component(0)), List.of(Src.of(lo)));
        } else {
            cx.emit("SHF", List.of("R", signed ? "S64" : "U64"), List.of(lo), List.of(Ptx.lo(a), n, Ptx.hi(a)));
            cx.emit("SHF", List.of("R", signed ? "S32" : "U32", "HI"), List.of(d.component(1)),
                    List.of(Ptx.rz(), n, Ptx.hi(a)));
            cx.emit("MOV", List.of(), List.of(d.component(0)), List.of(Src.of(lo)));
        }
    }

    private void shf(Instruction insn, LoweringContext cx) throws CompilationException {
        boolean left = insn.hasModifier("l");
        boolean wrap = insn.hasModifier("wrap");
        Reg d = cx.dst(Ptx.op(insn, 0), PtxType.B32);
        Src a = cx.src(Ptx.op(insn, 1), PtxType.B32);
        Src b = cx.src(Ptx.op(insn, 2), PtxType.B32);
        Src c = cx.src(Ptx.op(insn, 3), PtxType.U32);
        List<String> mods = left ? (wrap ? List.of("L", "W", "U32", "HI") : List.of("L", "U32", "HI"))
                : (wrap ? List.of("R", "W", "U32") : List.of("R", "U32"));
        cx.emit("SHF", mods, List.of(d), List.of(a, c, b));
    }
}
