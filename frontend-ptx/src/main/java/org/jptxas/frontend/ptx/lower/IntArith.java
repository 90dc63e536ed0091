package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Integer add/sub/mul/mad/min/max/abs/neg (8 to 64 bits, carry chains) with ptxas's idioms: IADD3 (with carry-out
 * predicate and {@code .X} for the high half), IMAD / IMAD.WIDE / IMAD.HI, IMNMX, IABS.
 *
 * <p>Operand shapes (full Ori forms): {@code IADD3 d, cout0, cout1, a, b, c [, cin0, cin1 when X]};
 * {@code IMAD d, a, b, c}; {@code IMAD.WIDE d.64, a, b, c.64}; {@code IMNMX d, a, b, p} (PT = min).
 */
final class IntArith {
    private IntArith() {}

    /**
     * {@code -s} as an IADD3 source. An immediate is negated in place, except 0: IADD3 computes {@code a - b} as
     * {@code a + ~b + 1} and carries out when {@code a >= b}, which {@code a + 0} never does, so a carry-out (a
     * 64-bit subtraction's borrow into the high word, sub.cc's flag) needs {@code -RZ}.
     */
    static Src neg(Src s) {
        if (s.value() instanceof Imm m) {
            return (int) m.bits() == 0 ? Ptx.rz().negated() : Ptx.imm(-(int) m.bits());
        }
        return s.negated();
    }

    static void iadd3(LoweringContext cx, Reg d, Src a, Src b, Src c) {
        cx.emit("IADD3", List.of(), List.of(d, Reg.PT, Reg.PT), List.of(a, b, c));
    }

    /** 64-bit {@code d = a + b} (b negated: a - b). */
    static void add64(LoweringContext cx, Reg d, Src a, Src b, boolean subtract) {
        Reg carry = Ptx.pred(cx);
        cx.emit("IADD3", List.of(), List.of(d.component(0), carry, Reg.PT),
                List.of(Ptx.lo(a), subtract ? neg(Ptx.lo(b)) : Ptx.lo(b), Ptx.rz()));
        Src bh = Ptx.hi(b);
        if (subtract) {
            bh = bh.value() instanceof Imm m ? Ptx.imm(~m.bits()) : bh.inverted();
        }
        cx.emit("IADD3", List.of("X"), List.of(d.component(1), Reg.PT, Reg.PT),
                List.of(Ptx.hi(a), bh, Ptx.rz(), Src.of(carry), Ptx.notPt()));
    }

    static void add(Instruction insn, LoweringContext cx, PtxType t, boolean subtract) throws CompilationException {
        boolean sat = insn.hasModifier("sat");
        boolean cc = insn.hasModifier("cc");
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        if (Ptx.wide(t)) {
            if (cc) {
                add64Carry(cx, d, a, b, subtract, false, true);
            } else {
                add64(cx, d, a, b, subtract);
            }
            return;
        }
        if (sat) {
            if (cc || t != PtxType.S32) {
                throw cx.unsupported(null);
            }
            addSat32(cx, d, a, b, subtract);
            return;
        }
        if (cc) {
            Reg carry = ((FunctionLowerer) cx).carryFlag();
            cx.emit("IADD3", List.of(), List.of(d, carry, Reg.PT), List.of(a, subtract ? neg(b) : b, Ptx.rz()));
            return;
        }
        if (a.value() instanceof Imm && !(b.value() instanceof Imm) && !subtract) {
            Src x = a;
            a = b;
            b = x;
        }
        iadd3(cx, d, a, subtract ? neg(b) : b, Ptx.rz());
    }

    /**
     * {@code add.sat.s32}/{@code sub.sat.s32} (and mad.hi.sat.s32's addition): the wrapped sum, replaced by the
     * bound on a's side when it overflowed. Overflow is ptxas's sign test on a, b and the sum (its PLOP3 on
     * R.SIGN): an addition overflows when a and b agree in sign and the sum does not, a subtraction when a and b
     * differ and the difference's sign is b's.
     */
    static void addSat32(LoweringContext cx, Reg d, Src a, Src b, boolean subtract) {
        Reg ra = Ptx.r32(cx);
        MovLowerer.move(cx, ra, a, PtxType.B32);
        Reg sum = Ptx.r32(cx);
        iadd3(cx, sum, Src.of(ra), subtract ? neg(b) : b, Ptx.rz());
        // sign bit of (a ^ s) & (b ^ s) for a sum, (a ^ b) & (a ^ s) for a difference: LUTs on (a, b, s)
        Reg flags = Ptx.r32(cx);
        cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, flags),
                List.of(Src.of(ra), b, Src.of(sum), Ptx.imm(subtract ? 0x18 : 0x42), Ptx.notPt()));
        Reg overflow = Ptx.pred(cx), nonNegative = Ptx.pred(cx);
        cx.emit("ISETP", List.of("LT", "AND"), List.of(overflow, Reg.PT), List.of(Src.of(flags), Ptx.rz(), Ptx.pt()));
        cx.emit("ISETP", List.of("GE", "AND"), List.of(nonNegative, Reg.PT), List.of(Src.of(ra), Ptx.rz(), Ptx.pt()));
        Reg max = Ptx.r32(cx), bound = Ptx.r32(cx);
        MovLowerer.move(cx, max, Ptx.imm(0x7fffffff), PtxType.B32);
        cx.emit("SEL", List.of(), List.of(bound), List.of(Src.of(max), Ptx.imm(0x80000000L), Src.of(nonNegative)));
        cx.emit("SEL", List.of(), List.of(d), List.of(Src.of(bound), Src.of(sum), Src.of(overflow)));
    }

    /** {@code addc}/{@code subc} [.cc]: IADD3.X with the function's carry flag. */
    static void addc(Instruction insn, LoweringContext cx, PtxType t, boolean subtract) throws CompilationException {
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        if (Ptx.wide(t)) {
            add64Carry(cx, d, a, b, subtract, true, insn.hasModifier("cc"));
            return;
        }
        Reg carry = ((FunctionLowerer) cx).carryFlag();
        if (subtract) {
            b = b.value() instanceof Imm m ? Ptx.imm(~m.bits()) : b.inverted();
        }
        Reg cout = insn.hasModifier("cc") ? carry : Reg.PT;
        cx.emit("IADD3", List.of("X"), List.of(d, cout, Reg.PT), List.of(a, b, Ptx.rz(), Src.of(carry), Ptx.notPt()));
    }

    /**
     * 64-bit {@code d = a + b} or {@code a - b} in the function's carry flag's chain: {@code carryIn} adds the flag
     * (addc/subc: {@code a + ~b + CF} for a subtraction, the flag being "no borrow"), {@code carryOut} writes the
     * carry out of bit 63 to it (.cc).
     */
    static void add64Carry(LoweringContext cx, Reg d, Src a, Src b, boolean subtract, boolean carryIn,
                           boolean carryOut) {
        Reg flag = ((FunctionLowerer) cx).carryFlag();
        Reg mid = Ptx.pred(cx);
        Src bl = Ptx.lo(b);
        Src bh = Ptx.hi(b);
        if (subtract) {
            bl = carryIn ? invert(bl) : neg(bl);
            bh = invert(bh);
        }
        if (carryIn) {
            cx.emit("IADD3", List.of("X"), List.of(d.component(0), mid, Reg.PT),
                    List.of(Ptx.lo(a), bl, Ptx.rz(), Src.of(flag), Ptx.notPt()));
        } else {
            cx.emit("IADD3", List.of(), List.of(d.component(0), mid, Reg.PT), List.of(Ptx.lo(a), bl, Ptx.rz()));
        }
        cx.emit("IADD3", List.of("X"), List.of(d.component(1), carryOut ? flag : Reg.PT, Reg.PT),
                List.of(Ptx.hi(a), bh, Ptx.rz(), Src.of(mid), Ptx.notPt()));
    }

    private static Src invert(Src s) {
        return s.value() instanceof Imm m ? Ptx.imm(~m.bits()) : s.inverted();
    }

    static void mul(Instruction insn, LoweringContext cx, PtxType t, boolean mad) throws CompilationException {
        boolean hi = insn.hasModifier("hi");
        boolean wide = insn.hasModifier("wide");
        boolean cc = insn.hasModifier("cc");
        boolean sat = insn.hasModifier("sat");
        if (sat && !(mad && hi && !cc && t == PtxType.S32)) {
            throw cx.unsupported(null);
        }
        PtxType dt = wide ? widen(t) : t;
        Reg d = cx.dst(Ptx.op(insn, 0), dt);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        Src c = mad ? cx.src(Ptx.op(insn, 3), dt) : null;
        if (a.value() instanceof Imm && !(b.value() instanceof Imm)) {
            Src x = a;
            a = b;
            b = x;
        }
        if (!mad && !hi && !wide && t.sizeBytes() == 4 && b.value() instanceof Imm m && Long.bitCount(m.bits()) == 1) {
            // multiplication by a power of two: IMAD.SHL.U32, as ptxas writes it
            Reg d0 = cx.dst(Ptx.op(insn, 0), dt);
            cx.emit("IMAD", List.of("SHL", "U32"), List.of(d0), List.of(a, b, Ptx.rz()));
            return;
        }
        String u = Ptx.signed(t) ? null : "U32";
        if (c != null && !(c.value() instanceof Reg) && (!(b.value() instanceof Reg) || wide || Ptx.wide(t))) {
            // one immediate/constant slot per IMAD: the addend goes to a register; and a 64-bit addend always
            // (IMAD.WIDE's immediate is one 32-bit word: the high word of the constant was lost)
            Reg r = cx.newReg(RegFile.R, wide || Ptx.wide(t) ? 2 : 1);
            MovLowerer.move(cx, r, c, dt);
            c = Src.of(r);
        }
        if (t.sizeBytes() < 4) {
            a = extend(cx, a, t);
            b = extend(cx, b, t);
        }
        if (hi && t.sizeBytes() < 4) {
            // the high half of a 16 x 16-bit product: the (exact) 32-bit product of the extended sources, shifted
            // right by 16 (IMAD.HI would take the high word of a 64-bit product, which is 0 or all sign bits)
            Reg p = Ptx.r32(cx);
            cx.emit("IMAD", List.of(), List.of(p), List.of(a, b, Ptx.rz()));
            Reg h = mad ? Ptx.r32(cx) : d;
            cx.emit("SHF", List.of("R", Ptx.signed(t) ? "S32" : "U32", "HI"), List.of(h),
                    List.of(Ptx.rz(), Ptx.imm(8 * t.sizeBytes()), Src.of(p)));
            if (mad) {
                emitAdd(cx, insn, d, Src.of(h), c, cc);
            }
            return;
        }
        if (wide) {
            if (t.sizeBytes() == 4) {
                cx.emit("IMAD_WIDE", u == null ? List.of() : List.of(u), List.of(d), List.of(a, b, mad ? c : Ptx.rz()));
            } else {
                // 16 x 16 -> 32
                cx.emit("IMAD", List.of(), List.of(d), List.of(a, b, mad ? c : Ptx.rz()));
            }
            return;
        }
        if (Ptx.wide(t) && mad && cc) {
            // mad.cc.u64: the 64-bit product (low or high half), then an addition that writes the carry flag
            Reg p = cx.newReg(RegFile.R, 2);
            if (hi) {
                mulHi64(cx, p, a, b, Ptx.signed(t));
            } else {
                mul64(cx, p, a, b, null);
            }
            add64Carry(cx, d, Src.of(p), c, false, false, true);
            return;
        }
        if (Ptx.wide(t)) {
            if (hi) {
                Reg h = mad ? cx.newReg(RegFile.R, 2) : d;
                mulHi64(cx, h, a, b, Ptx.signed(t));
                if (mad) {
                    add64(cx, d, Src.of(h), c, false);
                }
                return;
            }
            mul64(cx, d, a, b, mad ? c : null);
            return;
        }
        if (hi) {
            Reg h = mad ? Ptx.r32(cx) : d;
            List<String> mods = u == null ? List.of("HI") : List.of("HI", "U32");
            cx.emit("IMAD", mods, List.of(h), List.of(a, b, Ptx.rz()));
            if (sat) {
                addSat32(cx, d, Src.of(h), c, false);
            } else if (mad) {
                emitAdd(cx, insn, d, Src.of(h), c, cc);
            }
            return;
        }
        if (cc) {
            Reg p = Ptx.r32(cx);
            cx.emit("IMAD", List.of(), List.of(p), List.of(a, b, Ptx.rz()));
            emitAdd(cx, insn, d, Src.of(p), c, true);
            return;
        }
        cx.emit("IMAD", List.of(), List.of(d), List.of(a, b, mad ? c : Ptx.rz()));
    }

    private static void emitAdd(LoweringContext cx, Instruction insn, Reg d, Src a, Src b, boolean cc) {
        if (cc || insn.opcode().equals("madc")) {
            Reg carry = ((FunctionLowerer) cx).carryFlag();
            Reg cout = cc ? carry : Reg.PT;
            if (insn.opcode().equals("madc")) {
                cx.emit("IADD3", List.of("X"), List.of(d, cout, Reg.PT),
                        List.of(a, b, Ptx.rz(), Src.of(carry), Ptx.notPt()));
            } else {
                cx.emit("IADD3", List.of(), List.of(d, cout, Reg.PT), List.of(a, b, Ptx.rz()));
            }
        } else {
            iadd3(cx, d, a, b, Ptx.rz());
        }
    }

    static void madc(Instruction insn, LoweringContext cx, PtxType t) throws CompilationException {
        boolean hi = insn.hasModifier("hi");
        if (Ptx.wide(t)) {
            Reg d = cx.dst(Ptx.op(insn, 0), t);
            Src a = cx.src(Ptx.op(insn, 1), t);
            Src b = cx.src(Ptx.op(insn, 2), t);
            Src c = cx.src(Ptx.op(insn, 3), t);
            if (a.value() instanceof Imm && !(b.value() instanceof Imm)) {
                Src x = a;
                a = b;
                b = x;
            }
            Reg p = cx.newReg(RegFile.R, 2);
            if (hi) {
                mulHi64(cx, p, a, b, Ptx.signed(t));
            } else {
                mul64(cx, p, a, b, null);
            }
            add64Carry(cx, d, Src.of(p), c, false, true, insn.hasModifier("cc"));
            return;
        }
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        Src c = cx.src(Ptx.op(insn, 3), t);
        Reg p = Ptx.r32(cx);
        List<String> mods = hi ? (Ptx.signed(t) ? List.of("HI") : List.of("HI", "U32")) : List.of();
        cx.emit("IMAD", mods, List.of(p), List.of(a, b, Ptx.rz()));
        emitAdd(cx, insn, d, Src.of(p), c, insn.hasModifier("cc"));
    }

    /** 64-bit {@code d = a * b (+ c)}: IMAD.WIDE.U32 of the low halves plus the two cross products. */
    static void mul64(LoweringContext cx, Reg d, Src a, Src b, Src c) {
        Reg t = cx.newReg(RegFile.R, 2);
        cx.emit("IMAD_WIDE", List.of("U32"), List.of(t), List.of(Ptx.lo(a), Ptx.lo(b), c == null ? Ptx.rz() : c));
        Src high = Src.of(t.component(1));
        if (!isZero(Ptx.hi(b))) {
            Reg h = Ptx.r32(cx);
            cx.emit("IMAD", List.of(), List.of(h), List.of(Ptx.lo(a), Ptx.hi(b), high));
            high = Src.of(h);
        }
        if (isZero(Ptx.hi(a))) {
            cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(high));
        } else {
            cx.emit("IMAD", List.of(), List.of(d.component(1)), List.of(Ptx.hi(a), Ptx.lo(b), high));
        }
        cx.emit("MOV", List.of(), List.of(d.component(0)), List.of(Src.of(t.component(0))));
    }

    /**
     * The high 64 bits of a 64 x 64-bit product: four IMAD.WIDE.U32 partial products chained through their 64-bit
     * addends ({@code u = aL*bH + hi(aL*bL)}, {@code v = aH*bL + lo(u)}, {@code hi = aH*bH + hi(u) + hi(v)}); the
     * signed form subtracts {@code b} when {@code a < 0} and {@code a} when {@code b < 0}.
     */
    static void mulHi64(LoweringContext cx, Reg d, Src a, Src b, boolean signed) {
        Src aL = Ptx.lo(a);
        Src aH = Ptx.hi(a);
        Src bL = Ptx.lo(b);
        Src bH = Ptx.hi(b);
        Reg t = cx.newReg(RegFile.R, 2);
        cx.emit("IMAD_WIDE", List.of("U32"), List.of(t), List.of(aL, bL, Ptx.rz()));
        Reg u = cx.newReg(RegFile.R, 2);
        cx.emit("IMAD_WIDE", List.of("U32"), List.of(u), List.of(aL, bH, Src.of(zeroExtended(cx, t.component(1)))));
        Reg v = cx.newReg(RegFile.R, 2);
        cx.emit("IMAD_WIDE", List.of("U32"), List.of(v), List.of(aH, bL, Src.of(zeroExtended(cx, u.component(0)))));
        Reg w = cx.newReg(RegFile.R, 2);
        cx.emit("IMAD_WIDE", List.of("U32"), List.of(w), List.of(aH, bH, Src.of(zeroExtended(cx, u.component(1)))));
        if (!signed) {
            add64(cx, d, Src.of(w), Src.of(zeroExtended(cx, v.component(1))), false);
            return;
        }
        Reg h = cx.newReg(RegFile.R, 2);
        add64(cx, h, Src.of(w), Src.of(zeroExtended(cx, v.component(1))), false);
        Reg h2 = cx.newReg(RegFile.R, 2);
        subtractIfNegative(cx, h2, Src.of(h), aH, b);
        subtractIfNegative(cx, d, Src.of(h2), bH, a);
    }

    /** {@code d = h - (signWord < 0 ? x : 0)}. */
    private static void subtractIfNegative(LoweringContext cx, Reg d, Src h, Src signWord, Src x) {
        Reg p = Ptx.pred(cx);
        cx.emit("ISETP", List.of("LT", "AND"), List.of(p, Reg.PT), List.of(signWord, Ptx.rz(), Ptx.pt()));
        Reg s = cx.newReg(RegFile.R, 2);
        cx.emit("SEL", List.of(), List.of(s.component(0)), List.of(Ptx.lo(x), Ptx.rz(), Src.of(p)));
        cx.emit("SEL", List.of(), List.of(s.component(1)), List.of(Ptx.hi(x), Ptx.rz(), Src.of(p)));
        add64(cx, d, h, Src.of(s), true);
    }

    /** A fresh pair holding {@code x} zero-extended to 64 bits. */
    private static Reg zeroExtended(LoweringContext cx, Reg x) {
        Reg r = cx.newReg(RegFile.R, 2);
        cx.emit("MOV", List.of(), List.of(r.component(0)), List.of(Src.of(x)));
        cx.emit("MOV", List.of(), List.of(r.component(1)), List.of(Ptx.rz()));
        return r;
    }

    private static boolean isZero(Src s) {
        return (s.value() instanceof Imm m && m.bits() == 0) || (s.value() instanceof Reg r && r.isZero());
    }

    static PtxType widen(PtxType t) {
        return switch (t) {
            case S16 -> PtxType.S32;
            case U16 -> PtxType.U32;
            case S32 -> PtxType.S64;
            default -> PtxType.U64;
        };
    }

    /** Zero- or sign-extends an 8/16-bit value held in a 32-bit register. */
    static Src extend(LoweringContext cx, Src v, PtxType t) {
        if (!(v.value() instanceof Reg r) || r.isZero() || t.sizeBytes() >= 4) {
            if (v.value() instanceof Imm m && Ptx.signed(t) && t.sizeBytes() < 4) {
                long bits = t.sizeBytes() == 1 ? (byte) m.bits() : (short) m.bits();
                return Ptx.imm(bits);
            }
            return v;
        }
        Reg out = Ptx.r32(cx);
        if (Ptx.signed(t)) {
            cx.emit("SGXT", List.of(), List.of(out), List.of(v, Ptx.imm(8 * t.sizeBytes())));
        } else {
            cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, out),
                    List.of(v, Ptx.imm(t.sizeBytes() == 1 ? 0xff : 0xffff), Ptx.rz(), Ptx.imm(0xc0), Ptx.notPt()));
        }
        return Src.of(out);
    }

    static void minMax(Instruction insn, LoweringContext cx, PtxType t, boolean min) throws CompilationException {
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        Src b = cx.src(Ptx.op(insn, 2), t);
        if (insn.hasModifier("relu")) {
            throw cx.unsupported(null);
        }
        if (Ptx.wide(t)) {
            Reg p = Ptx.pred(cx);
            Compare.int64(cx, p, Reg.PT, min ? "LT" : "GT", Ptx.signed(t), a, b, Ptx.pt(), "AND");
            cx.emit("SEL", List.of(), List.of(d.component(0)), List.of(Ptx.lo(a), Ptx.lo(b), Src.of(p)));
            cx.emit("SEL", List.of(), List.of(d.component(1)), List.of(Ptx.hi(a), Ptx.hi(b), Src.of(p)));
            return;
        }
        if (t.sizeBytes() < 4) {
            a = extend(cx, a, t);
            b = extend(cx, b, t);
        }
        if (a.value() instanceof Imm && !(b.value() instanceof Imm)) {
            Src x = a;
            a = b;
            b = x;
        }
        cx.emit("IMNMX", Ptx.signed(t) ? List.of() : List.of("U32"), List.of(d),
                List.of(a, b, min ? Ptx.pt() : Ptx.notPt()));
    }

    static void abs(Instruction insn, LoweringContext cx, PtxType t) throws CompilationException {
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        if (Ptx.wide(t)) {
            Reg p = Ptx.pred(cx);
            cx.emit("ISETP", List.of("LT", "AND"), List.of(p, Reg.PT), List.of(Ptx.hi(a), Ptx.rz(), Ptx.pt()));
            Reg n = cx.newReg(RegFile.R, 2);
            add64(cx, n, Ptx.imm(0) , a, true);
            cx.emit("SEL", List.of(), List.of(d.component(0)), List.of(Src.of(n.component(0)), Ptx.lo(a), Src.of(p)));
            cx.emit("SEL", List.of(), List.of(d.component(1)), List.of(Src.of(n.component(1)), Ptx.hi(a), Src.of(p)));
            return;
        }
        cx.emit("IABS", List.of(), List.of(d), List.of(extend(cx, a, t)));
    }

    static void negate(Instruction insn, LoweringContext cx, PtxType t) throws CompilationException {
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        if (Ptx.wide(t)) {
            add64(cx, d, Src.of(Reg.RZ), a, true);
            return;
        }
        iadd3(cx, d, neg(a), Ptx.rz(), Ptx.rz());
    }
}
