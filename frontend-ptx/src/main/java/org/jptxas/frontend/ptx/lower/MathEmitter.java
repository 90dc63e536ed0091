package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * A compact way to write the multi-instruction SASS expansions of the math lowerers (division, square root,
 * conversions, bit operations) against a {@link LoweringContext}.
 *
 * <p>Two modes: a straight-line expansion without predicates of its own emits every instruction under the PTX guard;
 * an expansion that predicates its own instructions or branches calls {@link #ownControl()} first, which turns the PTX
 * guard into a branch around the whole expansion, and {@link #finish()} at the end, which falls into the join block.
 *
 * <p>Sources are given as {@link Reg}, {@link Src} (with neg/abs/not), {@link Integer} (a 32-bit immediate) or
 * {@link Float} (its IEEE bits).
 */
final class MathEmitter {
    static final Reg RZ = Reg.RZ;
    static final Reg PT = Reg.PT;

    private final LoweringContext cx;
    private BasicBlock join;
    private boolean own;
    private Guard nextGuard;

    MathEmitter(LoweringContext cx) {
        this.cx = cx;
    }

    LoweringContext cx() {
        return cx;
    }

    /** A fresh 32-bit register. */
    Reg r() {
        return cx.newReg(RegFile.R, 1);
    }

    /** A fresh 64-bit register pair. */
    Reg r2() {
        return cx.newReg(RegFile.R, 2);
    }

    /** A fresh predicate. */
    Reg p() {
        return cx.newReg(RegFile.P, 1);
    }

    /** From here on instructions carry only the guards this expansion gives them; the PTX guard becomes a branch. */
    void ownControl() {
        if (own) {
            return;
        }
        own = true;
        join = cx.branchAroundGuard();
    }

    /** Ends an expansion started with {@link #ownControl()}: control falls into the join block. */
    void finish() {
        if (own && join != null) {
            cx.startBlock(join);
            join = null;
        }
    }

    /** The block an expansion's paths branch to when they are done (ownControl only). */
    BasicBlock join() {
        return join;
    }

    /** Guards the next emitted instruction with {@code @pred} or {@code @!pred} (ownControl only). */
    MathEmitter at(Reg pred, boolean negated) {
        if (!own) {
            throw new IllegalStateException("own guards need ownControl()");
        }
        nextGuard = new Guard(pred, negated);
        return this;
    }

    MathEmitter at(Reg pred) {
        return at(pred, false);
    }

    MathEmitter atNot(Reg pred) {
        return at(pred, true);
    }

    static Src src(Object o) {
        if (o instanceof Src s) {
            return s;
        }
        if (o instanceof Operand op) {
            return Src.of(op);
        }
        if (o instanceof Integer i) {
            return Src.of(Imm.ofInt(i));
        }
        if (o instanceof Long l) {
            return Src.of(new Imm(l));
        }
        if (o instanceof Float f) {
            return Src.of(Imm.ofFloat(f));
        }
        if (o instanceof Double d) {
            // an f64 immediate of DFMA/DMUL/DADD/DSETP is the high word of the double (the low word must be zero)
            long bits = Double.doubleToRawLongBits(d);
            if ((bits & 0xffffffffL) != 0) {
                throw new IllegalArgumentException("f64 immediate with a non-zero low word: " + d);
            }
            return Src.of(new Imm(bits >>> 32));
        }
        throw new IllegalArgumentException("not a source: " + o);
    }

    static Src neg(Object o) {
        return src(o).negated();
    }

    static Src abs(Object o) {
        Src s = src(o);
        return new Src(s.value(), s.neg(), true, s.not());
    }

    static Src not(Object o) {
        return src(o).inverted();
    }

    static List<String> mods(String dotted) {
        return dotted.isEmpty() ? List.of() : List.of(dotted.split("\\."));
    }

    /** Emits {@code opcode.mods dsts, srcs}; {@code mods} is dotted ("HI.U32"). */
    Instr emit(String opcode, String modifiers, List<Reg> dsts, Object... srcs) {
        List<Src> s = new ArrayList<>(srcs.length);
        Guard pending = nextGuard;
        nextGuard = null;
        for (Object o : srcs) {
            if (o instanceof Double d && !opcode.equals("DSETP")) {
                // f64 constants of DFMA/DMUL/DADD go through a register pair: the backends' f64 immediate slots of
                // those do not yet agree on the operand's type (some forms read the 32 bits as an f32, silently
                // changing the constant); DSETP keeps ptxas's immediate forms (|x| against +INF)
                Reg pair = r2();
                long bits = Double.doubleToRawLongBits(d);
                mov(pair.component(0), (int) bits);
                mov(pair.component(1), (int) (bits >>> 32));
                s.add(Src.of(pair));
            } else {
                s.add(src(o));
            }
        }
        nextGuard = pending;
        Instr i;
        if (own) {
            i = cx.emitUnguarded(opcode, mods(modifiers), dsts, s);
            if (nextGuard != null) {
                i.setGuard(nextGuard);
            }
        } else {
            i = cx.emit(opcode, mods(modifiers), dsts, s);
        }
        nextGuard = null;
        return i;
    }

    Instr op(String opcode, String modifiers, Reg dst, Object... srcs) {
        return emit(opcode, modifiers, List.of(dst), srcs);
    }

    /** A register holding the immediate {@code v} (for operand slots that take only registers). */
    Reg imm(Object v) {
        Reg r = r();
        mov(r, v);
        return r;
    }

    // ---- frequent instructions, in SASS operand order with the omitted defaults present ----

    Instr mov(Reg d, Object s) {
        return op("MOV", "", d, s);
    }

    /** {@code IMAD d, a, b, c}: a*b+c, low 32 bits. */
    Instr imad(Reg d, Object a, Object b, Object c) {
        return op("IMAD", "", d, a, b, c);
    }

    Instr imadHiU32(Reg d, Object a, Object b) {
        return op("IMAD", "HI.U32", d, a, b, RZ);
    }

    /** {@code IADD3 d, PT, PT, a, b, c}: the carry-out predicates nvdisasm omits are PT. */
    Instr iadd3(Reg d, Object a, Object b, Object c) {
        return emit("IADD3", "", List.of(d, PT, PT), a, b, c);
    }

    /** {@code LEA d, PT, a, b, shift}: (a << shift) + b. */
    Instr lea(Reg d, Object a, Object b, int shift) {
        return emit("LEA", "", List.of(d, PT), a, b, shift);
    }

    /** {@code LOP3.LUT PT, d, a, b, c, lut, !PT} (the full shape: predicate destination first, !PT last). */
    Instr lop3(Reg d, Object a, Object b, Object c, int lut) {
        return emit("LOP3", "LUT", List.of(PT, d), a, b, c, lut, not(PT));
    }

    /** {@code LOP3.LUT P, RZ, a, b, c, lut, !PT}: only the non-zero test of the result. */
    Instr lop3Test(Reg pd, Object a, Object b, Object c, int lut) {
        return emit("LOP3", "LUT", List.of(pd, RZ), a, b, c, lut, not(PT));
    }

    /** {@code SHF.{L|R}.{U32|S32|U64|S64}{.HI} d, lo, shift, hi}. */
    Instr shf(String modifiers, Reg d, Object lo, Object shift, Object hi) {
        return op("SHF", modifiers, d, lo, shift, hi);
    }

    /** {@code ISETP.cmp[.U32].AND p, PT, a, b, PT}. */
    Instr isetp(String cmp, Reg p, Object a, Object b) {
        return emit("ISETP", cmp + ".AND", List.of(p, PT), a, b, PT);
    }

    Instr fsetp(String cmp, Reg p, Object a, Object b) {
        return emit("FSETP", cmp + ".AND", List.of(p, PT), a, b, PT);
    }

    /** {@code ISETP.cmp.bool p, PT, a, b, c}: the comparison combined with predicate {@code c}. */
    Instr isetp(String cmp, String bool, Reg p, Object a, Object b, Object c) {
        return emit("ISETP", cmp + "." + bool, List.of(p, PT), a, b, c);
    }

    Instr fsetp(String cmp, String bool, Reg p, Object a, Object b, Object c) {
        return emit("FSETP", cmp + "." + bool, List.of(p, PT), a, b, c);
    }

    Instr dsetp(String cmp, Reg p, Object a, Object b) {
        return emit("DSETP", cmp + ".AND", List.of(p, PT), a, b, PT);
    }

    Instr sel(Reg d, Object a, Object b, Object p) {
        return op("SEL", "", d, a, b, p);
    }

    Instr ffma(String modifiers, Reg d, Object a, Object b, Object c) {
        return op("FFMA", modifiers, d, a, b, c);
    }

    Instr fmul(String modifiers, Reg d, Object a, Object b) {
        return op("FMUL", modifiers, d, a, b);
    }

    Instr fadd(String modifiers, Reg d, Object a, Object b) {
        return op("FADD", modifiers, d, a, b);
    }

    Instr dfma(String modifiers, Reg d, Object a, Object b, Object c) {
        return op("DFMA", modifiers, d, a, b, c);
    }

    Instr mufu(String fn, Reg d, Object a) {
        return op("MUFU", fn, d, a);
    }

    /** {@code PLOP3.LUT d, PT, a, b, c, lut, 0x0}. */
    Instr plop3(Reg d, Object a, Object b, Object c, int lut) {
        return emit("PLOP3", "LUT", List.of(d, PT), a, b, c, lut, 0);
    }

    // ---- control flow (ownControl only) ----

    BasicBlock newBlock() {
        return cx.newBlock();
    }

    /** An unconditional branch; the caller continues in another block. */
    void bra(BasicBlock target) {
        emit("BRA", "", List.of(), target.ref());
    }

    /** {@code @[!]p BRA target}, then continues in a fresh fall-through block. */
    void braIf(Reg p, boolean negated, BasicBlock target) {
        at(p, negated);
        emit("BRA", "", List.of(), target.ref());
        cx.startBlock(cx.newBlock());
    }

    void start(BasicBlock b) {
        cx.startBlock(b);
    }
}
