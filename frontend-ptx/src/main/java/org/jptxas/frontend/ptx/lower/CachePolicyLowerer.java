package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;

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
 * {@code createpolicy}: the 64-bit L2 cache-policy word that {@code .L2::cache_hint} loads and stores take, computed
 * as ptxas 13 computes it (probed on sm_80: the low word is 0; the high word is {@code 0x10000000}, the primary
 * priority at bits 26:25 (evict_unchanged 0, evict_first 1, evict_last 2, evict_normal 3), a secondary evict_first at
 * bit 24, and {@code trunc(fraction * 15.99f)} at bits 23:20). {@code .cvt.L2} passes the policy through; the
 * {@code .range} form is not lowered yet.
 */
@AutoService(InstructionLowerer.class)
public final class CachePolicyLowerer implements InstructionLowerer {
    private static final int FRACTIONAL = 0x10000000;
    private static final float FRACTION_SCALE = 15.99f;

    @Override
    public Set<String> opcodes() {
        return Set.of("createpolicy");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        MathEmitter m = new MathEmitter(cx);
        Reg d = cx.dst(Ptx.op(insn, 0), PtxType.B64);
        if (insn.hasModifier("cvt")) {
            MovLowerer.move(cx, d, cx.src(Ptx.op(insn, 1), PtxType.B64), PtxType.B64);
            return;
        }
        if (!insn.hasModifier("fractional")) {
            throw cx.unsupported(insn.fullName());
        }
        List<String> priorities = insn.modifiers().stream().filter(s -> s.startsWith("L2::")).toList();
        int base = FRACTIONAL | priority(priorities.isEmpty() ? "L2::evict_normal" : priorities.get(0)) << 25;
        if (priorities.size() > 1 && priorities.get(1).equals("L2::evict_first")) {
            base |= 1 << 24;
        }
        m.mov(d.component(0), 0);
        if (insn.operands().size() < 2) {
            m.mov(d.component(1), base | 15 << 20);
            return;
        }
        Src fraction = cx.src(Ptx.op(insn, 1), PtxType.F32);
        if (fraction.value() instanceof Imm imm) {
            float f = Float.intBitsToFloat((int) imm.bits());
            int steps = (int) (f * FRACTION_SCALE);
            m.mov(d.component(1), base | (steps & 0xf) << 20);
            return;
        }
        Reg scaled = m.r();
        m.fmul("", scaled, fraction, FRACTION_SCALE);
        Reg steps = m.r();
        m.op("F2I", "U32.TRUNC.NTZ", steps, scaled);
        Reg field = m.r();
        m.shf("L.U32", field, steps, 20, RZ);
        Reg masked = m.r();
        m.lop3(masked, field, 0xf00000, RZ, 0xc0);
        m.lop3(d.component(1), masked, base, RZ, 0xfc);
    }

    private static int priority(String name) {
        return switch (name) {
            case "L2::evict_first" -> 1;
            case "L2::evict_last" -> 2;
            case "L2::evict_normal" -> 3;
            default -> 0; // L2::evict_unchanged
        };
    }
}
