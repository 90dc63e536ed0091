package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.PT;
import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code dp4a}/{@code dp2a} (IDP), {@code sad} (VABSDIFF), {@code mul24}/{@code mad24} (24-bit operands extended by
 * SGXT/PRMT, IMAD or IMAD.WIDE + funnel shift for .hi), {@code copysign} (LOP3 on the sign bit), {@code testp}
 * (FSETP/DSETP classification) and {@code fns}.
 */
@AutoService(InstructionLowerer.class)
public final class IntMiscLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("dp4a", "dp2a", "sad", "mul24", "mad24", "copysign", "testp", "fns");
    }

    private static String byteType(PtxType t) {
        return MathTypes.isSigned(t) ? "S8" : "U8";
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        MathEmitter m = new MathEmitter(cx);
        List<PtxType> types = MathTypes.types(insn);
        switch (insn.opcode()) {
            case "dp4a", "dp2a" -> {
                PtxType at = types.get(0), bt = types.get(1);
                Reg d = cx.dst(insn.operands().get(0), PtxType.B32);
                Src a = cx.src(insn.operands().get(1), PtxType.B32);
                Src b = cx.src(insn.operands().get(2), PtxType.B32);
                Src c = cx.src(insn.operands().get(3), PtxType.B32);
                String mods = insn.opcode().equals("dp4a") ? "4A." + byteType(at) + "." + byteType(bt)
                        : "2A." + (insn.hasModifier("hi") ? "HI" : "LO") + "." + (MathTypes.isSigned(at) ? "S16" : "U16")
                                + "." + byteType(bt);
                m.op("IDP", mods, d, a, b, c);
            }
            case "sad" -> {
                PtxType t = types.get(0);
                if (t.sizeBytes() == 8) {
                    sad64(insn, cx, m, t);
                    return;
                }
                Reg d = cx.dst(insn.operands().get(0), t);
                Src a = cx.src(insn.operands().get(1), t);
                Src b = cx.src(insn.operands().get(2), t);
                Src c = cx.src(insn.operands().get(3), t);
                boolean signed = MathTypes.isSigned(t);
                Object aw = a, bw = b;
                if (t.sizeBytes() == 2) {
                    Reg x = m.r(), y = m.r();
                    CvtLowerer.extend(m, x, a, 16, signed);
                    CvtLowerer.extend(m, y, b, 16, signed);
                    aw = x;
                    bw = y;
                }
                m.op("VABSDIFF", signed ? "" : "U32", d, aw, bw, c);
            }
            case "mul24", "mad24" -> {
                PtxType t = types.get(0);
                boolean signed = MathTypes.isSigned(t);
                boolean hi = insn.hasModifier("hi");
                Reg d = cx.dst(insn.operands().get(0), t);
                Src a = cx.src(insn.operands().get(1), t);
                Src b = cx.src(insn.operands().get(2), t);
                Object c = insn.opcode().equals("mad24") ? cx.src(insn.operands().get(3), t) : RZ;
                Reg x = m.r(), y = m.r();
                extend24(m, x, a, signed);
                extend24(m, y, b, signed);
                if (!hi) {
                    m.imad(d, x, y, c);
                } else {
                    // bits 47..16 of the 48-bit product
                    Reg p = m.r2();
                    m.emit("IMAD", signed ? "WIDE" : "WIDE.U32", List.of(p, PT), x, y, RZ);
                    if (c == RZ) {
                        m.shf("R.U64", d, p.component(0), 0x10, p.component(1));
                    } else if (signed && insn.hasModifier("sat")) {
                        // mad24.hi.sat.s32: the sum clamped to the s32 range; it overflowed when h and c have one
                        // sign and the wrapped sum the other, and then saturates towards h's sign
                        Reg h = m.r(), sum = m.r(), overflow = m.r(), sign = m.r(), saturated = m.r();
                        Reg ov = m.p();
                        m.shf("R.U64", h, p.component(0), 0x10, p.component(1));
                        m.iadd3(sum, h, c, RZ);
                        m.lop3(overflow, h, c, sum, 0x42); // (h ^ sum) & (c ^ sum)
                        m.isetp("LT", ov, overflow, RZ);
                        m.shf("R.S32.HI", sign, RZ, 0x1f, h);
                        m.lop3(saturated, sign, 0x7fffffff, RZ, 0x3c);
                        m.sel(d, saturated, sum, ov);
                    } else {
                        Reg h = m.r();
                        m.shf("R.U64", h, p.component(0), 0x10, p.component(1));
                        m.iadd3(d, h, c, RZ);
                    }
                }
            }
            case "copysign" -> {
                PtxType t = types.get(0);
                Reg d = cx.dst(insn.operands().get(0), t);
                Src a = cx.src(insn.operands().get(1), t);
                Src b = cx.src(insn.operands().get(2), t);
                if (t == PtxType.F32) {
                    m.lop3(d, b, 0x80000000, a, 0xb8);
                } else {
                    Reg h = m.r(), l = m.r();
                    m.lop3(h, BitLowerer.part(b, 1), 0x80000000, BitLowerer.part(a, 1), 0xb8);
                    m.mov(l, BitLowerer.part(b, 0));
                    m.mov(d.component(0), l);
                    m.mov(d.component(1), h);
                }
            }
            case "testp" -> testp(insn, cx, m, types.get(0));
            case "fns" -> FindNthSet.lower(insn, cx, m);
            default -> throw cx.unsupported(insn.fullName());
        }
    }

    /** sad.{s64,u64}: |a - b| + c with 64-bit carry chains (ptxas's sequence). */
    private static void sad64(Instruction insn, LoweringContext cx, MathEmitter m, PtxType t) {
        Reg d = cx.dst(insn.operands().get(0), t);
        Reg a = F64Sequences.pair(m, cx.src(insn.operands().get(1), t));
        Reg b = F64Sequences.pair(m, cx.src(insn.operands().get(2), t));
        Reg c = F64Sequences.pair(m, cx.src(insn.operands().get(3), t));
        boolean signed = MathTypes.isSigned(t);
        Reg ge = m.p(), p1 = m.p(), p2 = m.p(), c3 = m.p();
        Reg d0 = m.r(), d1 = m.r(), e0 = m.r(), e1 = m.r(), s0 = m.r(), s1 = m.r(), lo = m.r(), hi = m.r();
        Reg a0 = a.component(0), a1 = a.component(1), b0 = b.component(0), b1 = b.component(1);
        m.isetp("GE.U32", ge, a0, b0);
        m.emit("IADD3", "", List.of(d0, p1, PT), a0, MathEmitter.neg(b0), RZ);
        m.emit("IADD3", "", List.of(e0, p2, PT), MathEmitter.neg(a0), b0, RZ);
        m.emit("ISETP", (signed ? "GE" : "GE.U32") + ".AND.EX", List.of(ge, PT), a1, b1, PT, ge);
        m.emit("IMAD", "X", List.of(d1), a1, 1, MathEmitter.not(b1), p1);
        m.emit("IADD3", "X", List.of(e1, PT, PT), MathEmitter.not(a1), b1, RZ, p2, MathEmitter.not(PT));
        m.sel(s0, d0, e0, ge);
        m.sel(s1, d1, e1, ge);
        m.emit("IADD3", "", List.of(lo, c3, PT), c.component(0), s0, RZ);
        m.emit("IADD3", "X", List.of(hi, PT, PT), c.component(1), s1, RZ, c3, MathEmitter.not(PT));
        m.mov(d.component(0), lo);
        m.mov(d.component(1), hi);
    }

    private static void extend24(MathEmitter m, Reg d, Src s, boolean signed) {
        if (signed) {
            m.op("SGXT", "", d, s, 0x18);
        } else {
            m.op("PRMT", "", d, s, 0x7210, RZ);
        }
    }

    private static void testp(Instruction insn, LoweringContext cx, MathEmitter m, PtxType t) throws CompilationException {
        if (insn.modifiers().size() < 2) {
            // testp.f32 p, x without a class: the ISA requires one, ptxas 13 accepts it and writes nothing (p keeps
            // its value), so nothing is emitted here either
            return;
        }
        Reg p = cx.dst(insn.operands().get(0), PtxType.PRED);
        Src x = cx.src(insn.operands().get(1), t);
        boolean dbl = t == PtxType.F64;
        String cls = insn.modifiers().get(0);
        if (cls.equals("number") || cls.equals("notanumber")) {
            setp(m, dbl ? "DSETP" : "FSETP", cls.equals("number") ? "NUM" : "NAN", "AND", p, x, x, PT);
            return;
        }
        // classify on the magnitude's bits: high word (f64) or the whole word (f32) against the exponent limits;
        // for f64 the low word decides at the boundaries
        Reg ax = m.r();
        m.lop3(ax, dbl ? BitLowerer.part(x, 1) : x, 0x7fffffff, RZ, 0xc0);
        int inf = dbl ? 0x7ff00000 : 0x7f800000, minNormal = dbl ? 0x00100000 : 0x00800000;
        Object lo = dbl ? BitLowerer.part(x, 0) : RZ;
        switch (cls) {
            case "finite" -> m.isetp("LT.U32", p, ax, inf);
            case "infinite" -> {
                Reg q = m.p();
                m.isetp("EQ.U32", q, ax, inf);
                m.isetp("EQ.U32", "AND", p, lo, RZ, q);
            }
            case "normal" -> {
                // the PTX ISA counts +-0 as normal ("as a special case"), as ptxas's code does
                Reg q = m.p(), normal = m.p();
                m.isetp("LT.U32", q, ax, inf);
                m.isetp("GE.U32", "AND", normal, ax, minNormal, q);
                Object magnitude = ax;
                if (dbl) {
                    Reg nz = m.r();
                    m.lop3(nz, ax, lo, RZ, 0xfc);
                    magnitude = nz;
                }
                m.isetp("EQ.U32", "OR", p, magnitude, RZ, normal);
            }
            case "subnormal" -> {
                Reg q = m.p(), nz = m.r();
                m.isetp("LT.U32", q, ax, minNormal);
                m.lop3(nz, ax, lo, RZ, 0xfc);
                m.isetp("NE.U32", "AND", p, nz, RZ, q);
            }
            default -> throw cx.unsupported(insn.fullName());
        }
    }

    private static void setp(MathEmitter m, String op, String cmp, String bool, Reg p, Object a, Object b, Object c) {
        m.emit(op, cmp + "." + bool, List.of(p, PT), a, b, c);
    }
}
