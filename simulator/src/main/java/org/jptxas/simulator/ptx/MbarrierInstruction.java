package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.AsyncCopies;
import org.jptxas.simulator.exec.BulkCopies;
import org.jptxas.simulator.exec.Mbarrier;
import org.jptxas.simulator.exec.TensorMap;
import org.jptxas.simulator.memory.Region;

/**
 * {@code mbarrier.*} on shared::cta barriers ({@code arrive_drop} and {@code pending_count} too; arrivals and transaction counts also on another block's of the cluster:
 * a shared::cluster address, {@link PtxCluster}) and {@code cp.async.bulk} (global -> shared with mbarrier completion,
 * shared -> global bulk_group, commit/wait, prefetch, the tensor prefetch; reductions: {@link BulkReduceInstruction})
 * for the interpreter, with the barrier word of {@link Mbarrier}
 * and the copies of {@link BulkCopies} (a copy lands when a thread checks its barrier's phase). A shared -> global
 * copy is done when issued, so its bulk-group wait has nothing left to wait for.
 */
final class MbarrierInstruction {
    private MbarrierInstruction() {}

    /** How the instruction compiler converts operands. */
    interface Operands {
        Src src(Operand o, PtxType t) throws ProgramException, InstructionCompiler.Unsupported;

        Src memory(Operand o) throws ProgramException, InstructionCompiler.Unsupported;

        /** The register a destination writes, or -1 for the sink. */
        int dst(Operand o) throws ProgramException, InstructionCompiler.Unsupported;
    }

    /** The per-thread operation of {@code mbarrier{.MODS}}, or null when the interpreter does not implement it. */
    static Insn.ThreadOp mbarrier(List<String> mods, List<Operand> ops, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (mods.get(0).equals("pending_count")) {
            int d = io.dst(ops.get(0));
            Src state = io.src(ops.get(1), PtxType.B64);
            return t -> Values.write(t, d, Mbarrier.pendingCount(state.get(t)));
        }
        boolean remote = mods.contains("shared::cluster");
        if (!remote && !mods.contains("shared") && !mods.contains("shared::cta")) {
            return null;
        }
        String what = mods.get(0);
        if (remote && !what.equals("arrive") && !what.equals("expect_tx") && !what.equals("complete_tx")) {
            return null;
        }
        boolean expectTx = mods.contains("expect_tx");
        switch (what) {
            case "init" -> {
                Src a = io.memory(ops.get(0));
                Src n = io.src(ops.get(1), PtxType.U32);
                return t -> {
                    long at = a.get(t) & 0xffffffffL;
                    bulk(t).drop(at);
                    t.cta.shared.store64(at, Mbarrier.init(n.get(t) & 0xffffffffL));
                };
            }
            case "inval" -> {
                Src a = io.memory(ops.get(0));
                return t -> bulk(t).drop(a.get(t) & 0xffffffffL);
            }
            case "expect_tx", "complete_tx" -> {
                Src a = io.memory(ops.get(0));
                Src n = io.src(ops.get(1), PtxType.U32);
                long sign = what.equals("expect_tx") ? 1 : -1;
                return t -> update(t, a.get(t) & 0xffffffffL, 0, sign * (n.get(t) & 0xffffffffL));
            }
            case "arrive" -> {
                int d = io.dst(ops.get(0));
                Src a = io.memory(ops.get(1));
                Src n = ops.size() > 2 ? io.src(ops.get(2), PtxType.U32) : t -> 1;
                return t -> {
                    long v = n.get(t) & 0xffffffffL;
                    long old = expectTx ? update(t, a.get(t) & 0xffffffffL, 1, v)
                            : update(t, a.get(t) & 0xffffffffL, v, 0);
                    if (d >= 0) {
                        Values.write(t, d, old);
                    }
                };
            }
            case "arrive_drop" -> { // with expect_tx, the third operand is bytes and one arrival drops
                int d = io.dst(ops.get(0));
                Src a = io.memory(ops.get(1));
                Src n = ops.size() > 2 ? io.src(ops.get(2), PtxType.U32) : t -> 1;
                return t -> {
                    long at = a.get(t) & 0xffffffffL;
                    Region shared = t.cta.shared;
                    long old = shared.load64(at);
                    long v = n.get(t) & 0xffffffffL;
                    try {
                        shared.store64(at, expectTx ? Mbarrier.drop(old, 1, v) : Mbarrier.drop(old, v));
                    } catch (IllegalStateException e) {
                        throw new InterpreterError(e.getMessage());
                    }
                    if (d >= 0) {
                        Values.write(t, d, old);
                    }
                };
            }
            case "test_wait", "try_wait" -> {
                int p = io.dst(ops.get(0));
                Src a = io.memory(ops.get(1));
                boolean parity = mods.contains("parity");
                Src s = io.src(ops.get(2), parity ? PtxType.U32 : PtxType.B64);
                return t -> {
                    long at = a.get(t) & 0xffffffffL;
                    Region shared = t.cta.shared;
                    try {
                        bulk(t).land(at, shared);
                    } catch (IllegalStateException e) {
                        throw new InterpreterError(e.getMessage());
                    }
                    long phase = parity ? s.get(t) & 1 : s.get(t) >>> 63;
                    Values.write(t, p, Mbarrier.completed(shared.load64(at), phase) ? 1 : 0);
                };
            }
            default -> {
                return null;
            }
        }
    }

    /** Applies arrivals and bytes to the barrier at {@code address} (any block's of the cluster): the old word. */
    private static long update(ThreadState t, long address, long arrivals, long bytes) {
        Region shared = PtxCluster.shared(t, address);
        long at = PtxCluster.offset(t, address);
        long old = shared.load64(at);
        try {
            shared.store64(at, Mbarrier.arrive(old, arrivals, bytes));
        } catch (IllegalStateException e) {
            throw new InterpreterError(e.getMessage());
        }
        return old;
    }

    /** The per-thread operation of {@code cp.async.bulk{.MODS}}, or null when not implemented. */
    static Insn.ThreadOp bulkCopy(List<String> mods, List<Operand> ops, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (mods.contains("reduce")) {
            return BulkReduceInstruction.compile(mods, ops, io);
        }
        if (mods.contains("commit_group") || mods.contains("wait_group") || mods.contains("prefetch")) {
            // a tensor prefetch (tile mode) has no architectural effect either
            return mods.stream().noneMatch(m -> m.startsWith("im2col")) ? t -> { } : null;
        }
        if (mods.contains("tensor")) {
            return tensor(mods, ops, io);
        }
        if (mods.contains("L2::cache_hint")) {
            return null;
        }
        boolean multicast = mods.contains("multicast::cluster");
        if (mods.contains("mbarrier::complete_tx::bytes") && mods.indexOf("global") > 0
                && ops.size() == (multicast ? 5 : 4)) {
            Src dst = io.memory(ops.get(0));
            Src src = io.memory(ops.get(1));
            Src n = io.src(ops.get(2), PtxType.U32);
            Src bar = io.memory(ops.get(3));
            Src mask = multicast ? io.src(ops.get(4), PtxType.B16) : null;
            return t -> {
                int bytes = (int) (n.get(t) & 0xffffffffL);
                long g = src.get(t);
                byte[] data = new byte[bytes];
                for (int i = 0; i < bytes; i++) {
                    data[i] = (byte) t.machine.launch.global().load(g + i, 1);
                }
                long b = bar.get(t) & 0xffffffffL;
                long d = dst.get(t) & 0xffffffffL;
                if (mask == null) {
                    bulk(t.cta).issue(b, d, data);
                    return;
                }
                // the same offsets in each block of the cluster named by the mask, completing on its barrier
                long ranks = mask.get(t) & 0xffff;
                for (int r = 0; r < 16; r++) {
                    if ((ranks >>> r & 1) != 0) {
                        bulk(PtxCluster.member(t, r)).issue(b, d, data.clone());
                    }
                }
            };
        }
        if (mods.contains("bulk_group") && mods.indexOf("global") == mods.indexOf("bulk") + 1 && ops.size() == 3) {
            Src dst = io.memory(ops.get(0));
            Src src = io.memory(ops.get(1));
            Src n = io.src(ops.get(2), PtxType.U32);
            return t -> {
                int bytes = (int) (n.get(t) & 0xffffffffL);
                long g = dst.get(t);
                long s = src.get(t) & 0xffffffffL;
                for (int i = 0; i < bytes; i++) {
                    t.machine.launch.global().store(g + i, 1, t.cta.shared.load8(s + i));
                }
            };
        }
        return null;
    }

    /**
     * {@code cp.async.bulk.tensor.Nd} in tile mode ({@link TensorMap}): global -> shared::cluster completing on an
     * mbarrier (the box lands when its barrier's phase is checked) and shared::cta -> global bulk_group (written when
     * issued); {@code .multicast::cluster} lands the box in every block of the cluster its mask names. Null for other
     * modes and qualifiers.
     */
    private static final List<String> TENSOR_QUALIFIERS = List.of("async", "bulk", "tensor", "tile", "global",
            "shared::cluster", "shared::cta", "mbarrier::complete_tx::bytes", "bulk_group", "multicast::cluster");

    private static Insn.ThreadOp tensor(List<String> mods, List<Operand> ops, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        int rank = 0;
        for (int d = 1; d <= 5; d++) {
            rank = mods.contains(d + "d") ? d : rank;
        }
        boolean load = mods.contains("mbarrier::complete_tx::bytes") && mods.contains("shared::cluster");
        boolean store = mods.contains("bulk_group") && mods.contains("shared::cta");
        for (String m : mods) {
            if (!m.equals(rank + "d") && !TENSOR_QUALIFIERS.contains(m)) {
                return null;
            }
        }
        boolean multicast = mods.contains("multicast::cluster") && load;
        if (rank == 0 || load == store || ops.size() != (load ? multicast ? 4 : 3 : 2)
                || !(ops.get(load ? 1 : 0) instanceof Operand.Address map) || map.parts().size() != 2
                || !(map.parts().get(1) instanceof Operand.Vector v) || v.elements().size() != rank) {
            return null;
        }
        Src tmap = io.src(map.parts().get(0), PtxType.B64);
        Src[] coords = coordinates(io, v);
        Src shared = io.memory(ops.get(load ? 0 : 1));
        Src bar = load ? io.memory(ops.get(2)) : null;
        Src mask = multicast ? io.src(ops.get(3), PtxType.B16) : null;
        return t -> {
            int[] c = coordinates(coords, t);
            long s = shared.get(t) & 0xffffffffL;
            try {
                TensorMap m = TensorMap.read(t.machine.launch.global(), tmap.get(t));
                if (mask != null) { // the same offsets in each block of the cluster the mask names, on its barrier
                    byte[] data = m.toShared(m.load(t.machine.launch.global(), c), s);
                    long ranks = mask.get(t) & 0xffff;
                    for (int r = 0; r < 16; r++) {
                        if ((ranks >>> r & 1) != 0) {
                            bulk(PtxCluster.member(t, r)).issue(bar.get(t) & 0xffffffffL, s, data.clone());
                        }
                    }
                } else if (load) {
                    bulk(t.cta).issue(bar.get(t) & 0xffffffffL, s, m.toShared(m.load(t.machine.launch.global(), c), s));
                } else {
                    byte[] data = new byte[m.boxBytes()];
                    for (int i = 0; i < data.length; i++) {
                        data[i] = (byte) t.cta.shared.load8(s + i);
                    }
                    m.store(t.machine.launch.global(), c, m.fromShared(data, s));
                }
            } catch (IllegalArgumentException e) {
                throw new InterpreterError(e.getMessage());
            }
        };
    }

    /**
     * {@code cp.async.mbarrier.arrive[.noinc]}: the thread's copies in flight complete on the barrier at
     * {@code address} (they land when its phase is checked). Without {@code .noinc} the barrier first expects one
     * more transaction, which their completion completes (the thread's own arrival count is unchanged); with it their
     * completion is one of the phase's arrivals.
     */
    static void trackCopies(ThreadState t, long address, AsyncCopies copies, boolean noinc) {
        if (!noinc) {
            update(t, address, 0, 1);
        }
        copies.moveTo(bulk(t), address, noinc ? 1 : 0, noinc ? 0 : -1);
    }

    private static BulkCopies bulk(ThreadState t) {
        return bulk(t.cta);
    }

    private static BulkCopies bulk(CtaState cta) {
        if (cta.bulkCopies == null) {
            cta.bulkCopies = new BulkCopies();
        }
        return cta.bulkCopies;
    }

    /** A tensor copy's coordinate vector {@code {c...}}, each an s32. */
    static Src[] coordinates(Operands io, Operand.Vector v) throws ProgramException, InstructionCompiler.Unsupported {
        Src[] coords = new Src[v.elements().size()];
        for (int d = 0; d < coords.length; d++) {
            coords[d] = io.src(v.elements().get(d), PtxType.S32);
        }
        return coords;
    }

    /** The coordinates {@code t} names. */
    static int[] coordinates(Src[] coords, ThreadState t) {
        int[] c = new int[coords.length];
        for (int d = 0; d < c.length; d++) {
            c[d] = (int) coords[d].get(t);
        }
        return c;
    }
}
