package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.PT;
import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
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
    private static final int RANGE = 0x18000000;
    /** The policy of a range whose total size is 0, for every priority. */
    private static final int EMPTY_RANGE = 0x18000000;
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
        boolean range = insn.hasModifier("range");
        if (!range && !insn.hasModifier("fractional")) {
            throw cx.unsupported(insn.fullName());
        }
        List<String> priorities = insn.modifiers().stream().filter(s -> s.startsWith("L2::")).toList();
        int base = (range ? RANGE : FRACTIONAL)
                | priority(priorities.isEmpty() ? "L2::evict_normal" : priorities.get(0)) << 25;
        if (priorities.size() > 1 && priorities.get(1).equals("L2::evict_first")) {
            base |= 1 << 24;
        }
        if (range) {
            range(insn, cx, m, d, base);
            return;
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

    /**
     * {@code createpolicy.range d, [a], primary, total} as ptxas 13 computes it (probed on sm_80): the low word 0; the
     * high word {@code base} (priorities, bit 27 for a range) with the block size's log2 {@code g = max(ceil(log2(
     * total)) - 7, 12)} (MUFU.LG2 of the float, F2I.CEIL) as {@code g - 12} at bits 23:20, the first block
     * {@code a >> g} at bits 18:12 and the number of blocks the primary part reaches past it, {@code ((a + primary - 1
     * + 2^g) >> g) - (a >> g)} clamped to 127, at bits 11:5. A total of 0 gives {@code 0x18000000} whatever the
     * priorities; ptxas branches there, this selects.
     */
    private static void range(Instruction insn, LoweringContext cx, MathEmitter m, Reg d, int base)
            throws CompilationException {
        if (!(Ptx.op(insn, 1) instanceof Operand.Address addrOp)) {
            throw cx.unsupported(insn.fullName());
        }
        Addr addr = cx.address(addrOp, StateSpace.GLOBAL);
        Reg a = m.r2();
        Src baseLo = addr.base().isZero() ? Src.of(Reg.RZ) : Src.of(addr.base().component(0));
        Src baseHi = addr.base().isZero() || addr.base().width() < 2 ? Src.of(Reg.RZ)
                : Src.of(addr.base().component(1));
        Reg carry = m.p();
        m.emit("IADD3", "", List.of(a.component(0), carry, PT), baseLo, Ptx.imm(addr.offset()), RZ);
        m.emit("IADD3", "X", List.of(a.component(1), PT, PT), baseHi, Ptx.imm(addr.offset() >> 32), RZ, carry,
                MathEmitter.not(PT));
        Reg primary = m.r();
        MovLowerer.move(cx, primary, Ptx.lo(cx.src(Ptx.op(insn, 2), PtxType.U32)), PtxType.B32);
        Reg total = m.r();
        MovLowerer.move(cx, total, Ptx.lo(cx.src(Ptx.op(insn, 3), PtxType.U32)), PtxType.B32);
        Reg nonEmpty = m.p();
        m.isetp("NE.U32", nonEmpty, total, RZ);
        Reg totalF = m.r();
        m.op("I2F", "U32", totalF, total);
        Reg log = m.r();
        m.mufu("LG2", log, totalF);
        Reg ceil = m.r();
        m.op("F2I", "U32.CEIL.NTZ", ceil, log);
        Reg less7 = m.r();
        m.iadd3(less7, ceil, -7, RZ);
        Reg g = m.r();
        m.op("IMNMX", "", g, less7, 12, MathEmitter.not(PT));
        Reg one = m.imm(1);
        Reg block = m.r();
        m.shf("L.U32", block, one, g, RZ);
        Reg reach = m.r();
        m.iadd3(reach, primary, -1, block);
        Reg end = m.r2();
        Reg endCarry = m.p();
        m.emit("IADD3", "", List.of(end.component(0), endCarry, PT), a.component(0), reach, RZ);
        m.emit("IADD3", "X", List.of(end.component(1), PT, PT), a.component(1), RZ, RZ, endCarry, MathEmitter.not(PT));
        Reg firstLo = m.r(), firstHi = m.r();
        m.shf("R.U64", firstLo, a.component(0), g, a.component(1));
        m.shf("R.U32.HI", firstHi, RZ, g, a.component(1));
        Reg lastLo = m.r(), lastHi = m.r();
        m.shf("R.U64", lastLo, end.component(0), g, end.component(1));
        m.shf("R.U32.HI", lastHi, RZ, g, end.component(1));
        Reg countLo = m.r(), countHi = m.r();
        Reg borrow = m.p();
        m.emit("IADD3", "", List.of(countLo, borrow, PT), MathEmitter.neg(firstLo), lastLo, RZ);
        m.emit("IADD3", "X", List.of(countHi, PT, PT), lastHi, MathEmitter.not(firstHi), RZ, borrow,
                MathEmitter.not(PT));
        Reg fits = m.p();
        m.isetp("LT.U32", fits, countLo, 0x7f);
        m.emit("ISETP", "LT.U32.AND.EX", List.of(fits, PT), countHi, RZ, PT, fits);
        Reg count = m.r();
        m.sel(count, countLo, 0x7f, fits);
        Reg first = m.r();
        m.shf("L.U32", first, firstLo, 12, RZ);
        Reg firstField = m.r();
        m.lop3(firstField, first, 0x7f000, RZ, 0xc0);
        Reg gLess12 = m.r();
        m.iadd3(gLess12, g, -12, RZ);
        Reg gShifted = m.r();
        m.shf("L.U32", gShifted, gLess12, 20, RZ);
        Reg gField = m.r();
        m.lop3(gField, gShifted, 0xf00000, RZ, 0xc0);
        Reg countShifted = m.r();
        m.shf("L.U32", countShifted, count, 5, RZ);
        Reg countField = m.r();
        m.lop3(countField, countShifted, 0xfe0, RZ, 0xc0);
        Reg fields = m.r();
        m.lop3(fields, firstField, gField, countField, 0xfe);
        Reg word = m.r();
        m.lop3(word, fields, base, RZ, 0xfc);
        m.mov(d.component(0), 0);
        m.sel(d.component(1), word, EMPTY_RANGE, nonEmpty);
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
