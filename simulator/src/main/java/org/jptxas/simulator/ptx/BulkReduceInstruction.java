package org.jptxas.simulator.ptx;

import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.BulkReduction;
import org.jptxas.simulator.exec.Mbarrier;
import org.jptxas.simulator.exec.TensorMap;
import org.jptxas.simulator.memory.Region;

/**
 * {@code cp.reduce.async.bulk.global.shared::cta.bulk_group.OP.TYPE [g], [s], n} and
 * {@code cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP.tile.bulk_group [tmap, {c...}], [s]} for the
 * interpreter: shared memory reduced element by element into global memory ({@link BulkReduction}; the tensor form on
 * the map's data type, {@link TensorMap#reduce}). As a shared -> global bulk copy, done when issued: the bulk group's
 * wait then has nothing left to wait for. {@code cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::
 * complete_tx::bytes.OP.TYPE [d], [s], n, [bar]}: into the cluster's block {@code d} names, the bytes then completed
 * on the barrier {@code bar} names (as red.async). Null for forms not modelled (cache hints, im2col).
 */
final class BulkReduceInstruction {
    private BulkReduceInstruction() {}

    private static final Set<String> QUALIFIERS = Set.of("reduce", "async", "bulk", "global", "shared::cta",
            "bulk_group", "tensor", "tile", "shared::cluster", "mbarrier::complete_tx::bytes", "noftz");

    static Insn.ThreadOp compile(List<String> mods, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        BulkReduction.Op op = null;
        String type = null;
        int rank = 0;
        for (String m : mods) {
            var named = BulkReduction.Op.named(m);
            if (named.isPresent() && op == null) {
                op = named.get();
            } else if (m.matches("[1-5]d") && rank == 0) {
                rank = m.charAt(0) - '0';
            } else if (PtxType.fromName(m).isPresent() && type == null) {
                type = m;
            } else if (!QUALIFIERS.contains(m)) {
                return null;
            }
        }
        BulkReduction r = op == null || type == null ? null : BulkReduction.ofPtx(op, type).orElse(null);
        if (op != null && mods.contains("shared::cluster") && mods.contains("mbarrier::complete_tx::bytes")
                && !mods.contains("tensor")) {
            return cluster(r, ops, io);
        }
        if (op == null || !mods.contains("global") || !mods.contains("shared::cta") || !mods.contains("bulk_group")) {
            return null;
        }
        return mods.contains("tensor") ? tensor(op, rank, type, ops, io) : linear(r, ops, io);
    }

    private static Insn.ThreadOp linear(BulkReduction r, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (r == null || ops.size() != 3) {
            return null;
        }
        Copy c = Copy.of(ops, io);
        return t -> {
            int bytes = c.bytes(t);
            long g = c.dst.get(t);
            long s = c.src.get(t) & 0xffffffffL;
            try {
                r.reduce(BulkReduction.Bytes.of(t.machine.launch.global()), g, BulkReduction.Bytes.of(t.cta.shared),
                        s, bytes);
            } catch (IllegalArgumentException e) {
                throw new InterpreterError(e.getMessage());
            }
        };
    }

    /** Into another block's shared memory, completing the bytes on its barrier, when issued. */
    private static Insn.ThreadOp cluster(BulkReduction r, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (r == null || ops.size() != 4) {
            return null;
        }
        Copy c = Copy.of(ops, io);
        Src bar = io.memory(ops.get(3));
        return t -> {
            int bytes = c.bytes(t);
            long d = c.dst.get(t) & 0xffffffffL;
            long s = c.src.get(t) & 0xffffffffL;
            Region into = PtxCluster.shared(t, d);
            long at = PtxCluster.offset(t, d);
            long b = bar.get(t) & 0xffffffffL;
            Region barrier = PtxCluster.shared(t, b);
            long bo = PtxCluster.offset(t, b);
            try {
                r.reduce(BulkReduction.Bytes.of(into), at, BulkReduction.Bytes.of(t.cta.shared), s, bytes);
                barrier.store64(bo, Mbarrier.arrive(barrier.load64(bo), 0, -(long) bytes));
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new InterpreterError(e.getMessage());
            }
        };
    }

    /** A bulk reduction's first three operands: destination, source and byte count. */
    private record Copy(Src dst, Src src, Src n) {
        static Copy of(List<Operand> ops, MbarrierInstruction.Operands io)
                throws ProgramException, InstructionCompiler.Unsupported {
            return new Copy(io.memory(ops.get(0)), io.memory(ops.get(1)), io.src(ops.get(2), PtxType.U32));
        }

        int bytes(ThreadState t) {
            return (int) (n.get(t) & 0xffffffffL);
        }
    }

    private static Insn.ThreadOp tensor(BulkReduction.Op op, int rank, String type, List<Operand> ops,
            MbarrierInstruction.Operands io) throws ProgramException, InstructionCompiler.Unsupported {
        if (rank == 0 || type != null || ops.size() != 2 || !(ops.get(0) instanceof Operand.Address map)
                || map.parts().size() != 2 || !(map.parts().get(1) instanceof Operand.Vector v)
                || v.elements().size() != rank) {
            return null;
        }
        Src tmap = io.src(map.parts().get(0), PtxType.B64);
        Src[] coords = MbarrierInstruction.coordinates(io, v);
        Src shared = io.memory(ops.get(1));
        return t -> {
            int[] c = MbarrierInstruction.coordinates(coords, t);
            long s = shared.get(t) & 0xffffffffL;
            try {
                TensorMap m = TensorMap.read(t.machine.launch.global(), tmap.get(t));
                byte[] data = new byte[m.boxBytes()];
                for (int i = 0; i < data.length; i++) {
                    data[i] = (byte) t.cta.shared.load8(s + i);
                }
                m.reduce(t.machine.launch.global(), c, m.fromShared(data, s), op);
            } catch (IllegalArgumentException e) {
                throw new InterpreterError(e.getMessage());
            }
        };
    }
}
