package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code mov}: MOV per 32-bit component; predicates by PLOP3; vector packing ({@code mov.b64 %rd, {%r1, %r2}},
 * {@code mov.b32 %r, {%h1, %h2}}) and unpacking with MOV/PRMT, as ptxas does.
 */
@AutoService(InstructionLowerer.class)
public final class MovLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("mov");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType t = Ptx.type(insn);
        Operand d = Ptx.op(insn, 0);
        Operand s = Ptx.op(insn, 1);
        if (t == PtxType.PRED) {
            Reg p = cx.dst(d, t);
            Src v = cx.src(s, t);
            if (v.value() instanceof Imm m) {
                cx.emit("PLOP3", List.of("LUT"), List.of(p, Reg.PT),
                        List.of(Ptx.pt(), Ptx.pt(), Ptx.pt(), Ptx.imm(m.bits() != 0 ? 0xff : 0x00), Ptx.imm(0)));
            } else {
                copyPred(cx, p, v);
            }
            return;
        }
        if (s instanceof Operand.Vector sv && d instanceof Operand.Vector dv) {
            copyVector(cx, dv, sv, t);
            return;
        }
        if (s instanceof Operand.Vector vec) {
            pack(insn, cx, cx.dst(d, t), vec, t);
            return;
        }
        if (d instanceof Operand.Vector vec) {
            unpack(insn, cx, vec, cx.src(s, t), t);
            return;
        }
        Reg dst = cx.dst(d, t);
        Src v = cx.srcAllowingConstant(s, t);
        move(cx, dst, v, t);
    }

    static void copyPred(LoweringContext cx, Reg p, Src v) {
        cx.emit("PLOP3", List.of("LUT"), List.of(p, Reg.PT), List.of(v, Ptx.pt(), Ptx.pt(), Ptx.imm(0x80), Ptx.imm(0)));
    }

    /** Moves a value of type {@code t} into {@code dst}, 32 bits at a time. */
    static void move(LoweringContext cx, Reg dst, Src v, PtxType t) {
        if (dst.width() == 4) { // .b128: a 64-bit literal is zero-extended, as ptxas does
            boolean quad = v.value() instanceof Reg r && r.width() == 4;
            for (int k = 0; k < 4; k++) {
                Src part = quad || k == 0 ? Ptx.part(v, k) : k == 1 && t.sizeBytes() >= 8 ? Ptx.hi(v) : Ptx.rz();
                cx.emit("MOV", List.of(), List.of(dst.component(k)), List.of(part));
            }
        } else if (dst.width() == 2) {
            cx.emit("MOV", List.of(), List.of(dst.component(0)), List.of(Ptx.lo(v)));
            cx.emit("MOV", List.of(), List.of(dst.component(1)), List.of(t.sizeBytes() == 8 ? Ptx.hi(v) : Ptx.rz()));
        } else {
            cx.emit("MOV", List.of(), List.of(dst), List.of(Ptx.lo(v)));
        }
    }

    /**
     * {@code mov.v2.u32 {a, b}, {c, d}}: element by element (a sink element is not written), every source read before
     * any element is written (through temporaries, so that {@code {a, b}, {b, a}} swaps).
     */
    private static void copyVector(LoweringContext cx, Operand.Vector d, Operand.Vector s, PtxType t)
            throws CompilationException {
        int n = d.elements().size();
        if (n != s.elements().size()) {
            throw cx.unsupported("vector copy of different lengths");
        }
        Src[] held = new Src[n];
        for (int k = 0; k < n; k++) {
            Src v = cx.src(s.elements().get(k), t);
            if (v.value() instanceof Reg) {
                Reg tmp = cx.newReg(RegFile.R, Math.max(1, (t.sizeBytes() + 3) / 4));
                move(cx, tmp, v, t);
                v = Src.of(tmp);
            }
            held[k] = v;
        }
        for (int k = 0; k < n; k++) {
            if (!(d.elements().get(k) instanceof Operand.Sink)) {
                move(cx, cx.dst(d.elements().get(k), t), held[k], t);
            }
        }
    }

    /** Bits of one element: the type's own for {@code mov.v4.u16}, else the packed type split by the elements. */
    private static int elementBits(Instruction insn, PtxType t, int n) {
        boolean vectorType = insn.hasModifier("v2") || insn.hasModifier("v4") || insn.hasModifier("v8");
        return vectorType ? t.sizeBytes() * 8 : t.sizeBytes() * 8 / n;
    }

    private void pack(Instruction insn, LoweringContext cx, Reg dst, Operand.Vector vec, PtxType t)
            throws CompilationException {
        int n = vec.elements().size();
        int bits = elementBits(insn, t, n);
        if (bits == 32 && dst.width() == n) {
            for (int k = 0; k < n; k++) {
                cx.emit("MOV", List.of(), List.of(dst.component(k)), List.of(cx.src(vec.elements().get(k), PtxType.B32)));
            }
        } else if (bits == 64 && dst.width() == 2 * n) {
            // mov.b128 %q, {%rd1, %rd2}: each 64-bit element into two registers of the quad
            for (int k = 0; k < n; k++) {
                Src e = cx.src(vec.elements().get(k), PtxType.B64);
                cx.emit("MOV", List.of(), List.of(dst.component(2 * k)), List.of(Ptx.lo(e)));
                cx.emit("MOV", List.of(), List.of(dst.component(2 * k + 1)), List.of(Ptx.hi(e)));
            }
        } else if (bits == 16 && n == 2) {
            Src a = cx.src(vec.elements().get(0), PtxType.B16);
            Src b = cx.src(vec.elements().get(1), PtxType.B16);
            cx.emit("PRMT", List.of(), List.of(dst), List.of(a, Ptx.imm(0x5410), b));
        } else if (bits == 16 && n == 4 && dst.width() == 2) {
            for (int k = 0; k < 2; k++) {
                Src a = cx.src(vec.elements().get(2 * k), PtxType.B16);
                Src b = cx.src(vec.elements().get(2 * k + 1), PtxType.B16);
                cx.emit("PRMT", List.of(), List.of(dst.component(k)), List.of(a, Ptx.imm(0x5410), b));
            }
        } else if (bits == 8 && n == 4) {
            Reg lo = Ptx.r32(cx);
            Reg hi = Ptx.r32(cx);
            cx.emit("PRMT", List.of(), List.of(lo), List.of(cx.src(vec.elements().get(0), PtxType.B8), Ptx.imm(0x3340),
                    cx.src(vec.elements().get(1), PtxType.B8)));
            cx.emit("PRMT", List.of(), List.of(hi), List.of(cx.src(vec.elements().get(2), PtxType.B8), Ptx.imm(0x3340),
                    cx.src(vec.elements().get(3), PtxType.B8)));
            cx.emit("PRMT", List.of(), List.of(dst), List.of(Src.of(lo), Ptx.imm(0x5410), Src.of(hi)));
        } else if (bits == 8 && n == 2) {
            // mov.b16 %h, {%b0, %b1}: the two low bytes, the upper half zero as a 16-bit value is kept
            Reg pair = Ptx.r32(cx);
            cx.emit("PRMT", List.of(), List.of(pair), List.of(cx.src(vec.elements().get(0), PtxType.B8),
                    Ptx.imm(0x0040), cx.src(vec.elements().get(1), PtxType.B8)));
            cx.emit("PRMT", List.of(), List.of(dst), List.of(Src.of(pair), Ptx.imm(0x7710), Ptx.rz()));
        } else {
            throw cx.unsupported("vector packing");
        }
    }

    private void unpack(Instruction insn, LoweringContext cx, Operand.Vector vec, Src v, PtxType t)
            throws CompilationException {
        int n = vec.elements().size();
        int bits = elementBits(insn, t, n);
        for (int k = 0; k < n; k++) {
            Operand e = vec.elements().get(k);
            if (e instanceof Operand.Sink) {
                continue;
            }
            if (bits == 64 && v.value() instanceof Reg r && r.width() == 2 * n) {
                // mov.b128 {%rd1, %rd2}, %q: two registers of the quad per element
                Reg dst = cx.dst(e, PtxType.B64);
                cx.emit("MOV", List.of(), List.of(dst.component(0)), List.of(Ptx.part(v, 2 * k)));
                cx.emit("MOV", List.of(), List.of(dst.component(1)), List.of(Ptx.part(v, 2 * k + 1)));
            } else if (bits == 32) {
                Reg dst = cx.dst(e, PtxType.B32);
                cx.emit("MOV", List.of(), List.of(dst), List.of(Ptx.part(v, k)));
            } else if (bits == 16) {
                Reg dst = cx.dst(e, PtxType.B16);
                Src word = Ptx.part(v, k / 2);
                cx.emit("PRMT", List.of(), List.of(dst), List.of(word, Ptx.imm(k % 2 == 0 ? 0x7610 : 0x7632), Ptx.rz()));
            } else if (bits == 8) {
                Reg dst = cx.dst(e, PtxType.B8);
                cx.emit("PRMT", List.of(), List.of(dst), List.of(v, Ptx.imm(0x7770 + k), Ptx.rz()));
            } else {
                throw cx.unsupported("vector unpacking");
            }
        }
    }
}
