package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;
import static org.jptxas.frontend.ptx.lower.MathEmitter.neg;

import com.google.auto.service.AutoService;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Bit-field and bit-counting instructions: {@code bfe} (SHF + SGXT), {@code bfi} (BMSK + SHF + LOP3), {@code bfind}
 * (FLO), {@code brev} (BREV), {@code clz} (FLO.U32 + IADD3), {@code popc} (POPC), {@code prmt} (PRMT and its modes);
 * 64-bit forms of brev/clz/popc/bfind are composed from the halves.
 */
@AutoService(InstructionLowerer.class)
public final class BitLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("bfe", "bfi", "bfind", "brev", "clz", "popc", "prmt");
    }

    static Object part(Src s, int i) {
        if (s.value() instanceof Reg r) {
            return r.comps() == 2 ? r.component(i) : (i == 0 ? r : RZ);
        }
        long bits = ((Imm) s.value()).bits();
        return (int) (i == 0 ? bits : bits >>> 32);
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType t = MathTypes.type(insn);
        boolean wide = t.sizeBytes() == 8;
        MathEmitter m = new MathEmitter(cx);
        switch (insn.opcode()) {
            case "popc" -> {
                Reg d = cx.dst(insn.operands().get(0), PtxType.U32);
                Src a = cx.src(insn.operands().get(1), t);
                if (!wide) {
                    m.op("POPC", "", d, a);
                } else {
                    Reg l = m.r(), h = m.r();
                    m.op("POPC", "", l, part(a, 0));
                    m.op("POPC", "", h, part(a, 1));
                    m.iadd3(d, l, h, RZ);
                }
            }
            case "brev" -> {
                Reg d = cx.dst(insn.operands().get(0), t);
                Src a = cx.src(insn.operands().get(1), t);
                if (!wide) {
                    m.op("BREV", "", d, a);
                } else {
                    Reg l = m.r(), h = m.r();
                    m.op("BREV", "", h, part(a, 0));
                    m.op("BREV", "", l, part(a, 1));
                    m.mov(d.component(0), l);
                    m.mov(d.component(1), h);
                }
            }
            case "clz" -> {
                Reg d = cx.dst(insn.operands().get(0), PtxType.U32);
                Src a = cx.src(insn.operands().get(1), t);
                if (!wide) {
                    Reg f = m.r();
                    m.op("FLO", "U32", f, a);
                    m.iadd3(d, neg(f), 0x1f, RZ);
                } else {
                    // clz(hi) when hi != 0, else 32 + clz(lo) (= 64 for zero)
                    Reg fh = m.r(), fl = m.r(), ch = m.r(), cl = m.r(), p = m.p();
                    m.op("FLO", "U32", fh, part(a, 1));
                    m.op("FLO", "U32", fl, part(a, 0));
                    m.iadd3(ch, neg(fh), 0x1f, RZ);
                    m.iadd3(cl, neg(fl), 0x3f, RZ);
                    m.isetp("NE.U32", p, part(a, 1), RZ);
                    m.sel(d, ch, cl, p);
                }
            }
            case "bfind" -> {
                Reg d = cx.dst(insn.operands().get(0), PtxType.U32);
                Src a = cx.src(insn.operands().get(1), t);
                boolean signed = MathTypes.isSigned(t);
                boolean sh = insn.hasModifier("shiftamt");
                if (!wide) {
                    m.op("FLO", (signed ? "" : "U32") + (sh ? (signed ? "SH" : ".SH") : ""), d, a);
                } else {
                    // the highest non-sign bit: FLO of the high word (after inverting negatives), else of the low word
                    Reg hi = m.r(), lo = m.r(), fh = m.r(), fl = m.r(), r = m.r(), p = m.p();
                    if (signed) {
                        Reg sign = m.r();
                        m.shf("R.S32.HI", sign, RZ, 0x1f, part(a, 1));
                        m.lop3(hi, part(a, 1), sign, RZ, 0x3c);
                        m.lop3(lo, part(a, 0), sign, RZ, 0x3c);
                    } else {
                        m.mov(hi, part(a, 1));
                        m.mov(lo, part(a, 0));
                    }
                    m.op("FLO", "U32", fh, hi);
                    m.op("FLO", "U32", fl, lo);
                    m.isetp("NE.U32", p, hi, RZ);
                    m.iadd3(fh, fh, 0x20, RZ);
                    m.sel(r, fh, fl, p);
                    if (sh) {
                        // shift amount 63 - msb, or all ones when none
                        Reg none = m.p(), s = m.r();
                        m.isetp("EQ", none, r, -1);
                        m.iadd3(s, neg(r), 0x3f, RZ);
                        m.sel(d, -1, s, none);
                    } else {
                        m.mov(d, r);
                    }
                }
            }
            case "bfe" -> {
                if (wide) {
                    bfe64(insn, cx, m, t);
                    return;
                }
                Reg d = cx.dst(insn.operands().get(0), t);
                Src a = cx.src(insn.operands().get(1), t);
                Src pos = cx.src(insn.operands().get(2), PtxType.U32);
                Src len = cx.src(insn.operands().get(3), PtxType.U32);
                boolean signed = MathTypes.isSigned(t);
                Object p = byteOf(m, pos), l = byteOf(m, len);
                Reg s = m.r();
                m.shf(signed ? "R.S32.HI" : "R.U32.HI", s, RZ, p, a);
                m.op("SGXT", signed ? "" : "U32", d, s, l);
            }
            case "bfi" -> {
                if (wide) {
                    bfi64(insn, cx, m, t);
                    return;
                }
                Reg d = cx.dst(insn.operands().get(0), t);
                Src f = cx.src(insn.operands().get(1), t);
                Src b = cx.src(insn.operands().get(2), t);
                Src pos = cx.src(insn.operands().get(3), PtxType.U32);
                Src len = cx.src(insn.operands().get(4), PtxType.U32);
                Object p = byteOf(m, pos), l = byteOf(m, len);
                Reg mask = m.r(), s = m.r();
                m.op("BMSK", "", mask, p, l);
                m.shf("L.U32", s, f, p, RZ);
                m.lop3(d, s, mask, b, 0xe2);
            }
            case "prmt" -> {
                Reg d = cx.dst(insn.operands().get(0), PtxType.B32);
                Src a = cx.src(insn.operands().get(1), PtxType.B32);
                Src b = cx.src(insn.operands().get(2), PtxType.B32);
                Src c = cx.src(insn.operands().get(3), PtxType.B32);
                String mode = "";
                for (String mod : insn.modifiers()) {
                    switch (mod) {
                        case "f4e", "b4e", "rc8", "ecl", "ecr", "rc16" -> mode = mod.toUpperCase();
                        default -> {
                        }
                    }
                }
                m.op("PRMT", mode, d, a, c, b);
            }
            default -> throw cx.unsupported(insn.fullName());
        }
    }

    /** (0:1) << l - 1: the 64-bit mask of the low {@code l} bits (all ones from 64 on). */
    private static Reg lowMask64(MathEmitter m, Object l) {
        Reg one = m.r(), k = m.r2(), mk = m.r2(), c = m.p();
        m.mov(one, 1);
        m.shf("L.U32", k.component(0), one, l, RZ);
        m.shf("L.U64.HI", k.component(1), one, l, RZ);
        m.emit("IADD3", "", java.util.List.of(mk.component(0), c, MathEmitter.PT), k.component(0), -1, RZ);
        m.emit("IADD3", "X", java.util.List.of(mk.component(1), MathEmitter.PT, MathEmitter.PT), k.component(1), -1,
                RZ, c, MathEmitter.not(MathEmitter.PT));
        return mk;
    }

    private static void bfe64(Instruction insn, LoweringContext cx, MathEmitter m, PtxType t) {
        Reg d = cx.dst(insn.operands().get(0), t);
        Src a = cx.src(insn.operands().get(1), t);
        Object p = byteOf(m, cx.src(insn.operands().get(2), PtxType.U32));
        Object l = byteOf(m, cx.src(insn.operands().get(3), PtxType.U32));
        boolean signed = MathTypes.isSigned(t);
        Reg s = m.r2();
        m.shf(signed ? "R.S64" : "R.U64", s.component(0), part(a, 0), p, part(a, 1));
        m.shf(signed ? "R.S32.HI" : "R.U32.HI", s.component(1), RZ, p, part(a, 1));
        if (!signed) {
            Reg mk = lowMask64(m, l);
            Reg lo = m.r(), hi = m.r();
            m.lop3(lo, s.component(0), mk.component(0), RZ, 0xc0);
            m.lop3(hi, s.component(1), mk.component(1), RZ, 0xc0);
            m.mov(d.component(0), lo);
            m.mov(d.component(1), hi);
            return;
        }
        // sign-extend from bit len-1: shift left by 64-len, then arithmetic right; len 0 gives 0, len >= 64 keeps s
        Reg k = m.r(), sh = m.r2(), r = m.r2(), zero = m.p(), all = m.p(), lo = m.r(), hi = m.r();
        m.iadd3(k, MathEmitter.neg(l instanceof Reg lr ? lr : m.imm(l)), 0x40, RZ);
        m.shf("L.U32", sh.component(0), s.component(0), k, RZ);
        m.shf("L.U64.HI", sh.component(1), s.component(0), k, s.component(1));
        m.shf("R.S64", r.component(0), sh.component(0), k, sh.component(1));
        m.shf("R.S32.HI", r.component(1), RZ, k, sh.component(1));
        m.isetp("EQ.U32", zero, l, RZ);
        m.isetp("GE.U32", all, l, 0x40);
        m.sel(lo, s.component(0), r.component(0), all);
        m.sel(hi, s.component(1), r.component(1), all);
        m.sel(lo, RZ, lo, zero);
        m.sel(hi, RZ, hi, zero);
        m.mov(d.component(0), lo);
        m.mov(d.component(1), hi);
    }

    private static void bfi64(Instruction insn, LoweringContext cx, MathEmitter m, PtxType t) {
        Reg d = cx.dst(insn.operands().get(0), t);
        Src f = cx.src(insn.operands().get(1), t);
        Src b = cx.src(insn.operands().get(2), t);
        Object p = byteOf(m, cx.src(insn.operands().get(3), PtxType.U32));
        Object l = byteOf(m, cx.src(insn.operands().get(4), PtxType.U32));
        if (p instanceof Integer pc && l instanceof Integer lc && f.value() instanceof Reg) {
            bfi64Constant(d, f, b, pc, lc, m);
            return;
        }
        Reg mk = lowMask64(m, l);
        Reg fm0 = m.r(), fm1 = m.r(), ms0 = m.r(), ms1 = m.r(), fs0 = m.r(), fs1 = m.r(), lo = m.r(), hi = m.r();
        m.lop3(fm0, mk.component(0), part(f, 0), RZ, 0xc0);
        m.lop3(fm1, mk.component(1), part(f, 1), RZ, 0xc0);
        m.shf("L.U32", ms0, mk.component(0), p, RZ);
        m.shf("L.U32", fs0, fm0, p, RZ);
        m.shf("L.U64.HI", ms1, mk.component(0), p, mk.component(1));
        m.shf("L.U64.HI", fs1, fm0, p, fm1);
        m.lop3(lo, fs0, part(b, 0), ms0, 0xf4);
        m.lop3(hi, fs1, part(b, 1), ms1, 0xf4);
        m.mov(d.component(0), lo);
        m.mov(d.component(1), hi);
    }

    /**
     * {@code bfi.b64} at a constant position and length: the field's mask is known, so each half is the shifted
     * field's half, {@code b}'s, or one LOP3 of both (nvcc's sinf reduction joins two words with
     * {@code bfi.b64 d, hi, lo, 32, 32}: two copies).
     */
    private static void bfi64Constant(Reg d, Src f, Src b, int pos, int len, MathEmitter m) {
        long mask = pos >= 64 || len == 0 ? 0 : (len >= 64 ? -1L : (1L << len) - 1) << pos;
        Object[] shifted = new Object[2];
        if (pos == 0) {
            shifted[0] = part(f, 0);
            shifted[1] = part(f, 1);
        } else if (pos < 32) {
            Reg lo = m.r(), hi = m.r();
            m.shf("L.U32", lo, part(f, 0), pos, RZ);
            m.shf("L.U64.HI", hi, part(f, 0), pos, part(f, 1));
            shifted[0] = lo;
            shifted[1] = hi;
        } else if (pos < 64) {
            shifted[0] = RZ;
            if (pos == 32) {
                shifted[1] = part(f, 0);
            } else {
                Reg hi = m.r();
                m.shf("L.U32", hi, part(f, 0), pos - 32, RZ);
                shifted[1] = hi;
            }
        }
        Reg[] halves = {m.r(), m.r()}; // both read before d is written: d may be f or b
        for (int i = 0; i < 2; i++) {
            int half = (int) (mask >>> (32 * i));
            if (half == 0) {
                m.mov(halves[i], part(b, i));
            } else if (half == -1) {
                m.mov(halves[i], shifted[i]);
            } else {
                m.lop3(halves[i], shifted[i], half, part(b, i), 0xe2); // (field & mask) | (b & ~mask)
            }
        }
        m.mov(d.component(0), halves[0]);
        m.mov(d.component(1), halves[1]);
    }

    /** The low byte of a position/length operand (PTX takes them modulo 256). */
    private static Object byteOf(MathEmitter m, Src s) {
        if (s.value() instanceof Imm imm) {
            return (int) (imm.bits() & 0xff);
        }
        Reg r = m.r();
        m.lop3(r, s, 0xff, RZ, 0xc0);
        return r;
    }
}
