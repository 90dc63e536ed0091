package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;
import static org.jptxas.frontend.ptx.lower.MathEmitter.abs;

import com.google.auto.service.AutoService;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code rcp}, {@code sqrt} and {@code rsqrt}: IEEE-exact {@code .rn} forms, the directed roundings
 * ({@link DirectedRounding}) and the MUFU approximations.
 */
@AutoService(InstructionLowerer.class)
public final class RcpSqrtLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("rcp", "sqrt", "rsqrt");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType t = MathTypes.type(insn);
        String op = insn.opcode();
        boolean ftz = insn.hasModifier("ftz");
        boolean approx = insn.hasModifier("approx");
        String rnd = MathTypes.rounding(insn);
        MathEmitter m = new MathEmitter(cx);
        Reg d = cx.dst(insn.operands().get(0), t);
        Src x = cx.src(insn.operands().get(1), t);
        DirectedRounding.Mode directed = approx ? null : DirectedRounding.mode(rnd);
        if (directed != null && !op.equals("rsqrt") && (t == PtxType.F32 || t == PtxType.F64)) {
            if (t == PtxType.F32) {
                DirectedRounding.f32(cx, directed, d, null, x, op.equals("sqrt"), ftz);
            } else if (op.equals("rcp")) {
                DirectedRounding.quotientF64(cx, directed, d, null, x);
            } else {
                DirectedRounding.sqrtF64(cx, directed, d, x);
            }
            return;
        }
        if (t == PtxType.F32) {
            if (approx) {
                approxF32(m, op, d, x, ftz);
            } else if ("rn".equals(rnd) && !op.equals("rsqrt")) {
                m.ownControl();
                Reg xr = m.r(), res = m.r();
                m.mov(xr, x);
                BasicBlock done = m.newBlock();
                if (op.equals("rcp")) {
                    F32Sequences.rcpRn(m, res, xr, ftz, done);
                } else {
                    F32Sequences.sqrtRn(m, res, xr, ftz, done);
                }
                m.start(done);
                m.mov(d, res);
                m.finish();
            } else {
                throw cx.unsupported(insn.fullName());
            }
            return;
        }
        if (t == PtxType.F64) {
            if (approx && ftz && (op.equals("rcp") || op.equals("rsqrt"))) {
                // the MUFU seed of the high word; the low word is zero
                Reg hi = m.r();
                Reg xr = m.r2();
                m.mov(xr.component(0), MathEmitter.src(x).value() instanceof Reg r ? r.component(0) : lo(x));
                m.mov(xr.component(1), MathEmitter.src(x).value() instanceof Reg r ? r.component(1) : hi(x));
                m.mufu(op.equals("rcp") ? "RCP64H" : "RSQ64H", hi, xr.component(1));
                m.mov(d.component(0), 0);
                m.mov(d.component(1), hi);
                return;
            }
            if ("rn".equals(rnd) && op.equals("rcp")) {
                F64Sequences.rcpRn(m, d, x);
                return;
            }
            if ("rn".equals(rnd) && op.equals("sqrt")) {
                F64Sequences.sqrtRn(m, d, x);
                return;
            }
            if (approx && op.equals("rsqrt")) {
                F64Sequences.rsqrtApprox(m, d, x);
                return;
            }
        }
        throw cx.unsupported(insn.fullName());
    }

    static Object lo(Src s) {
        return (int) ((org.jptxas.ori.ir.Imm) s.value()).bits();
    }

    static Object hi(Src s) {
        return (int) (((org.jptxas.ori.ir.Imm) s.value()).bits() >>> 32);
    }

    private static void approxF32(MathEmitter m, String op, Reg d, Src x, boolean ftz) {
        String fn = switch (op) {
            case "rcp" -> "RCP";
            case "sqrt" -> "SQRT";
            default -> "RSQ";
        };
        if (ftz) {
            m.mufu(fn, d, x);
            return;
        }
        m.ownControl();
        if (op.equals("rcp")) {
            // scale denormal inputs up by 2^24 and huge ones down by 4 so that MUFU sees a normal input and result
            Reg two24 = m.r(), s1 = m.r(), s = m.r(), xs = m.r(), r = m.r(), p1 = m.p(), p0 = m.p();
            m.mov(two24, 0x4b800000);
            m.fsetp("GEU", p1, abs(x), Float.MIN_NORMAL);
            m.fsetp("GT", p0, abs(x), 0x1p126f);
            m.op("FSEL", "", s1, two24, 1.0f, MathEmitter.not(p1));
            m.op("FSEL", "", s, s1, 0.25f, MathEmitter.not(p0));
            m.fmul("", xs, x, s);
            m.mufu("RCP", r, xs);
            m.fmul("", d, s, r);
        } else {
            Reg xs = m.r(), r = m.r(), p0 = m.p();
            m.mov(xs, x);
            m.fsetp("GEU", p0, abs(xs), Float.MIN_NORMAL);
            m.atNot(p0).fmul("", xs, xs, 16777216f);
            m.mufu(fn, r, xs);
            m.mov(d, r);
            m.atNot(p0).fmul("", d, r, fn.equals("SQRT") ? 0x1p-12f : 4096f);
        }
        m.finish();
    }

    static Src zero() {
        return MathEmitter.src(RZ);
    }
}
