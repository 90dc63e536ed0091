package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.abs;

import com.google.auto.service.AutoService;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code sin}, {@code cos}, {@code lg2}, {@code ex2}, {@code tanh} ({@code .approx}): MUFU with the operand scaling
 * ptxas uses (sin/cos take revolutions: FMUL.RZ by 1/2pi; lg2 scales denormal inputs by 2^24 and subtracts 24; ex2
 * halves arguments below -126 and squares the result). f16/bf16 forms convert through f32.
 */
@AutoService(InstructionLowerer.class)
public final class TranscendentalLowerer implements InstructionLowerer {
    private static final float INV_2PI = 0.15915493667125701904f;

    @Override
    public Set<String> opcodes() {
        return Set.of("sin", "cos", "lg2", "ex2", "tanh");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType t = MathTypes.type(insn);
        if (t != PtxType.F32) {
            halfLanes(insn, cx, t);
            return;
        }
        boolean ftz = insn.hasModifier("ftz");
        MathEmitter m = new MathEmitter(cx);
        Reg d = cx.dst(insn.operands().get(0), t);
        Src x = cx.src(insn.operands().get(1), t);
        switch (insn.opcode()) {
            case "sin", "cos" -> {
                if (x.value() instanceof Imm imm && foldsTrigonometry(Float.intBitsToFloat((int) imm.bits()), ftz)) {
                    // ptxas 13 folds sin/cos of a finite immediate to the function's value rounded to f32
                    float v = Float.intBitsToFloat((int) imm.bits());
                    double r = insn.opcode().equals("sin") ? Math.sin(v) : Math.cos(v);
                    m.mov(d, Float.floatToRawIntBits((float) r));
                    return;
                }
                Reg rev = m.r();
                m.fmul("RZ", rev, x, INV_2PI);
                m.mufu(insn.opcode().equals("sin") ? "SIN" : "COS", d, rev);
            }
            case "tanh" -> m.mufu("TANH", d, x);
            case "lg2" -> {
                if (ftz) {
                    m.mufu("LG2", d, x);
                    return;
                }
                m.ownControl();
                Reg xs = m.r(), r = m.r(), p0 = m.p();
                m.mov(xs, x);
                m.fsetp("GEU", p0, abs(xs), Float.MIN_NORMAL);
                m.atNot(p0).fmul("", xs, xs, 16777216f);
                m.mufu("LG2", r, xs);
                m.mov(d, r);
                m.atNot(p0).fadd("", d, r, -24f);
                m.finish();
            }
            case "ex2" -> {
                if (ftz) {
                    m.mufu("EX2", d, x);
                    return;
                }
                m.ownControl();
                Reg xs = m.r(), r = m.r(), p0 = m.p();
                m.mov(xs, x);
                m.fsetp("GEU", p0, xs, -126f);
                m.atNot(p0).fmul("", xs, xs, 0.5f);
                m.mufu("EX2", r, xs);
                m.mov(d, r);
                m.atNot(p0).fmul("", d, r, r);
                m.finish();
            }
            default -> throw cx.unsupported(insn.fullName());
        }
    }

    /**
     * {@code ex2}/{@code tanh .approx} on f16, bf16 (sm_90) and their pairs: MUFU.{EX2,TANH}.{F16,BF16} per lane, as
     * ptxas emits them; ptxas reads the high lane as {@code a.H1}, here it is moved down first (Ori's operands carry
     * no lane selector), and the two results are packed with PRMT.
     */
    private static void halfLanes(Instruction insn, LoweringContext cx, PtxType t) throws CompilationException {
        boolean bf = t == PtxType.BF16 || t == PtxType.BF16X2;
        boolean pair = t == PtxType.F16X2 || t == PtxType.BF16X2;
        String fn = insn.opcode().equals("ex2") ? "EX2" : insn.opcode().equals("tanh") ? "TANH" : null;
        if (fn == null || !(bf || t == PtxType.F16 || t == PtxType.F16X2)) {
            throw cx.unsupported(insn.fullName());
        }
        String mods = fn + (bf ? ".BF16" : ".F16");
        MathEmitter m = new MathEmitter(cx);
        Reg d = cx.dst(insn.operands().get(0), t);
        Src x = cx.src(insn.operands().get(1), t);
        if (!pair) {
            m.mufu(mods, d, x);
            return;
        }
        Reg lo = m.r(), high = m.r(), hi = m.r();
        m.mufu(mods, lo, x);
        m.op("PRMT", "", high, x, 0x7632, MathEmitter.RZ);
        m.mufu(mods, hi, high);
        m.op("PRMT", "", d, lo, 0x5410, hi);
    }

    /** Whether ptxas folds sin/cos of {@code v}: finite, and not a subnormal .ftz flushes (that one goes to MUFU). */
    private static boolean foldsTrigonometry(float v, boolean ftz) {
        return Float.isFinite(v) && !(ftz && v != 0 && Math.abs(v) < Float.MIN_NORMAL);
    }
}
