package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;

/**
 * {@code mapa} and {@code getctarank} for the interpreter, over {@link PtxCluster}'s shared::cluster addresses
 * ({@code .shared::cluster} or generic, {@code .u32}/{@code .u64}).
 */
final class ClusterInstruction {
    private ClusterInstruction() {}

    /** The per-thread operation of {@code mapa{.MODS}} or {@code getctarank{.MODS}}. */
    static Insn.ThreadOp compile(String opcode, List<String> mods, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        boolean generic = !mods.contains("shared::cluster");
        boolean wide = mods.contains("u64");
        PtxType t = wide ? PtxType.U64 : PtxType.U32;
        switch (opcode) {
            case "mapa" -> {
                int d = io.dst(ops.get(0));
                Src a = io.src(ops.get(1), t);
                Src rank = io.src(ops.get(2), PtxType.U32);
                return th -> Values.write(th, d, PtxCluster.mapa(a.get(th), rank.get(th) & 0xffffffffL, generic && wide));
            }
            default -> { // getctarank
                int d = io.dst(ops.get(0));
                Src a = io.src(ops.get(1), t);
                return th -> Values.write(th, d, PtxCluster.ctaRank(th, a.get(th), generic && wide));
            }
        }
    }
}
