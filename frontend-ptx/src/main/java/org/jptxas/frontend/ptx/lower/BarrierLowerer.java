package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
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
 * CTA barriers: {@code bar.sync}/{@code barrier.sync}, {@code bar.arrive}/{@code barrier.arrive},
 * {@code bar.red}/{@code barrier.red} and {@code bar.warp.sync}, as ptxas 13 -O3 emits them (sm_80 spelling):
 * <ul>
 *   <li>{@code bar.sync a{, b}} and {@code barrier.sync.aligned}: {@code BAR.SYNC.DEFER_BLOCKING a{, b}};
 *       {@code barrier.sync} without {@code .aligned}: {@code BAR.SYNC a{, b}} (sm_75 has no DEFER_BLOCKING;
 *       sm_90 prints DEFER_BLOCKING on both);</li>
 *   <li>arrive: {@code BAR.ARV a, b};</li>
 *   <li>a barrier id and a thread count both in registers: one register holding the id in bits 0..15 and the count
 *       in bits 16..27 ({@code SHF.L.U32 t, b, 0x10; LOP3.LUT t, t, 0xfff0000, a, 0xe2}), given twice:
 *       {@code BAR.SYNC.DEFER_BLOCKING t, t};</li>
 *   <li>{@code bar.red.popc.u32 d, a{, b}, {!}p}: {@code BAR.RED.POPC.DEFER_BLOCKING a{, b}, {!}p; B2R.RESULT d};
 *       {@code .and/.or.pred}: {@code BAR.RED.AND/OR...; B2R.RESULT RZ, Pd};</li>
 *   <li>{@code bar.warp.sync m}: {@code WARPSYNC m}.</li>
 * </ul>
 */
@AutoService(InstructionLowerer.class)
public final class BarrierLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("bar", "barrier");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        List<Operand> ops = insn.operands();
        if (insn.hasModifier("warp")) {
            WarpMasks.warpSync(cx, ops.get(0));
            return;
        }
        if (insn.hasModifier("cluster")) {
            throw cx.unsupported("cluster barriers");
        }
        boolean deferBlocking = insn.opcode().equals("bar") || insn.hasModifier("aligned");
        if (insn.hasModifier("red")) {
            reduce(insn, cx, ops, deferBlocking);
            return;
        }
        boolean arrive = insn.hasModifier("arrive");
        List<String> mods = new ArrayList<>();
        mods.add(arrive ? "ARV" : "SYNC");
        if (!arrive && deferBlocking) {
            mods.add("DEFER_BLOCKING");
        }
        cx.emit("BAR", mods, List.of(), idAndCount(cx, ops.get(0), ops.size() > 1 ? ops.get(1) : null));
    }

    private static void reduce(Instruction insn, LoweringContext cx, List<Operand> ops, boolean deferBlocking) {
        String kind = SyncOperands.first(insn, null, "popc", "and", "or");
        List<String> mods = new ArrayList<>(List.of("RED", kind.toUpperCase()));
        if (deferBlocking) {
            mods.add("DEFER_BLOCKING");
        }
        Operand d = ops.get(0);
        Operand count = ops.size() == 4 ? ops.get(2) : null;
        List<Src> srcs = new ArrayList<>(idAndCount(cx, ops.get(1), count));
        srcs.add(SyncOperands.predicate(cx, ops.get(ops.size() - 1)));
        cx.emit("BAR", mods, List.of(), srcs);
        if (kind.equals("popc")) {
            cx.emit("B2R", List.of("RESULT"), List.of(cx.dst(d, PtxType.U32)), List.of());
        } else {
            cx.emit("B2R", List.of("RESULT"), List.of(Reg.RZ, cx.dst(d, PtxType.PRED)), List.of());
        }
    }

    /** The barrier id and optional thread count operands in the forms BAR takes. */
    private static List<Src> idAndCount(LoweringContext cx, Operand idOperand, Operand countOperand) {
        Src id = cx.src(idOperand, PtxType.U32);
        if (countOperand == null) {
            return List.of(id);
        }
        Src count = cx.src(countOperand, PtxType.U32);
        if (id.value() instanceof Reg && count.value() instanceof Reg countReg) {
            // both in registers: BAR reads one register with the count in bits 16..27 and the id below
            Reg shifted = cx.newReg(RegFile.R, 1);
            cx.emit("SHF", List.of("L", "U32"), List.of(shifted),
                    List.of(Src.of(countReg), Src.of(new Imm(16)), Src.of(Reg.RZ)));
            Reg packed = cx.newReg(RegFile.R, 1);
            cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, packed),
                    List.of(Src.of(shifted), Src.of(new Imm(0xfff0000)), id, Src.of(new Imm(0xe2)),
                            Src.of(Reg.PT).inverted()));
            return List.of(Src.of(packed), Src.of(packed));
        }
        return List.of(id, count);
    }
}
