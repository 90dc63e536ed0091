package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.lower.MemoryOrdering.Scope;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Reg;

/**
 * Thread-block clusters (sm_90), as ptxas 13 lowers them:
 * <ul>
 *   <li>{@code mapa[.shared::cluster].u32 d, a, rank}: the rank in the top byte of the shared-window address,
 *       {@code PRMT d, rank, 0x654, a}; {@code .u64}: the low word so, the high word copied.</li>
 *   <li>{@code getctarank[.shared::cluster].u32/.u64 d, a}: the top byte of the (low) word,
 *       {@code SHF.L.U64.HI d, a, 0x8, RZ}, generic addresses included.</li>
 *   <li>{@code barrier.cluster.arrive[.release|.relaxed]}: when the launch has an explicit cluster
 *       ({@code c[0x0][0x140] == 1}) the release fence ({@code MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR}, not for
 *       {@code .relaxed}) and {@code UCGABAR_ARV}, else nothing; {@code barrier.cluster.wait[.acquire]}:
 *       {@code UCGABAR_WAIT; CCTL.IVALL} in a cluster, else {@code BAR.SYNC.DEFER_BLOCKING 0x0} (a cluster of one
 *       block). In a kernel declared {@code .explicitcluster} (always a cluster launch) only the cluster path, without
 *       the flag test. {@code .aligned} changes nothing in ptxas's code.</li>
 * </ul>
 */
@AutoService(InstructionLowerer.class)
public final class ClusterLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("mapa", "getctarank", "barrier.cluster");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        switch (insn.opcode()) {
            case "mapa" -> mapa(insn, cx);
            case "getctarank" -> getctarank(insn, cx);
            default -> barrier(insn, cx);
        }
    }

    private static void mapa(Instruction insn, LoweringContext cx) {
        MathEmitter m = new MathEmitter(cx);
        boolean wide = Ptx.type(insn).sizeBytes() == 8;
        PtxType t = wide ? PtxType.U64 : PtxType.U32;
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Reg a = SyncOperands.register(cx, Ptx.op(insn, 1), t);
        Reg rank = SyncOperands.register(cx, Ptx.op(insn, 2), PtxType.U32);
        m.op("PRMT", "", wide ? d.component(0) : d, rank, 0x654, wide ? a.component(0) : a);
        if (wide) {
            m.mov(d.component(1), a.component(1));
        }
    }

    private static void getctarank(Instruction insn, LoweringContext cx) {
        MathEmitter m = new MathEmitter(cx);
        boolean wide = Ptx.type(insn).sizeBytes() == 8;
        Reg d = cx.dst(Ptx.op(insn, 0), PtxType.U32);
        Reg a = SyncOperands.register(cx, Ptx.op(insn, 1), wide ? PtxType.U64 : PtxType.U32);
        // the rank is the top byte of the low word, for generic addresses too (ptxas 13 shifts in RZ, not the high word)
        m.shf("L.U64.HI", d, wide ? a.component(0) : a, 8, MathEmitter.RZ);
    }

    private static void barrier(Instruction insn, LoweringContext cx) {
        boolean arrive = insn.hasModifier("arrive");
        if (cx.explicitCluster()) { // always a cluster launch: ptxas drops the flag test and the one-block path
            clusterBarrier(insn, cx, arrive);
            return;
        }
        MathEmitter m = new MathEmitter(cx);
        m.ownControl();
        Reg flag = m.r();
        m.mov(flag, CBank.of(0, cx.profile().driver().explicitCluster()));
        Reg explicit = m.p();
        m.isetp("EQ.U32", explicit, flag, 1);
        BasicBlock single = m.newBlock();
        BasicBlock join = m.newBlock();
        m.braIf(explicit, true, single);
        if (arrive) {
            if (!insn.hasModifier("relaxed")) {
                MemoryOrdering.releaseFence(cx, Scope.GPU);
            }
            m.emit("UCGABAR_ARV", "", List.of());
            m.bra(join);
            m.start(single);
            m.emit("NOP", "", List.of());
        } else {
            m.emit("UCGABAR_WAIT", "", List.of());
            MemoryOrdering.acquireFence(cx, Scope.GPU);
            m.bra(join);
            m.start(single);
            m.emit("BAR", "SYNC.DEFER_BLOCKING", List.of(), 0);
        }
        m.start(join);
        m.finish();
    }

    /** The cluster path alone, under the instruction's guard. */
    private static void clusterBarrier(Instruction insn, LoweringContext cx, boolean arrive) {
        MathEmitter m = new MathEmitter(cx);
        m.ownControl();
        if (arrive) {
            if (!insn.hasModifier("relaxed")) {
                MemoryOrdering.releaseFence(cx, Scope.GPU);
            }
            m.emit("UCGABAR_ARV", "", List.of());
        } else {
            m.emit("UCGABAR_WAIT", "", List.of());
            MemoryOrdering.acquireFence(cx, Scope.GPU);
        }
        m.finish();
    }
}
