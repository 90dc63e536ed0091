package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.AsyncCopies;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.memory.Region;

/**
 * {@code cp.async.ca|cg.shared{::cta}.global{.L2::cache_hint}{.L2::NB} [s], [g], cp-size{, src-size | ignore-src}
 * {, policy}}, {@code cp.async.commit_group},
 * {@code cp.async.wait_group N}, {@code cp.async.wait_all} and {@code cp.async.mbarrier.arrive[.noinc]} (the copies then
 * complete on the mbarrier: {@link MbarrierInstruction#trackCopies}) for the interpreter, with {@link AsyncCopies}' memory
 * model (a copy lands at the wait that retires its group). Each thread keeps its own groups, as the PTX ISA says.
 */
final class AsyncCopyInstruction {
    private AsyncCopyInstruction() {}

    /** How the instruction compiler converts operands. */
    interface Operands {
        Src src(Operand o, PtxType t) throws ProgramException, InstructionCompiler.Unsupported;

        Src memory(Operand o) throws ProgramException, InstructionCompiler.Unsupported;

        /** The constant value of an operand, or null. */
        Long constant(Operand o);

        /** Whether the operand names a predicate register. */
        boolean isPredicate(Operand o);
    }

    /** The per-thread operation of {@code cp.async{.MODS}}, or null when the interpreter does not implement it. */
    static Insn.ThreadOp compile(List<String> mods, List<Operand> ops, Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (mods.contains("commit_group") && ops.isEmpty()) {
            return t -> copies(t).commit();
        }
        if (mods.contains("wait_all") && ops.isEmpty()) {
            return t -> {
                copies(t).commit();
                copies(t).waitFor(0);
            };
        }
        if (mods.contains("wait_group") && ops.size() == 1) {
            Long n = io.constant(ops.get(0));
            if (n == null || n < 0) {
                return null;
            }
            int pending = (int) Math.min(n, Integer.MAX_VALUE);
            return t -> copies(t).waitFor(pending);
        }
        if (mods.contains("mbarrier") && mods.contains("arrive")) {
            if (ops.size() != 1 || !mods.contains("shared") && !mods.contains("shared::cta")) {
                return null;
            }
            Src bar = io.memory(ops.get(0));
            boolean noinc = mods.contains("noinc");
            return t -> MbarrierInstruction.trackCopies(t, bar.get(t) & 0xffffffffL, copies(t), noinc);
        }
        for (String m : mods) {
            switch (m) {
                case "async", "ca", "cg", "shared", "shared::cta", "global", "L2::64B", "L2::128B", "L2::256B",
                        "L2::cache_hint" -> { }
                default -> {
                    return null;
                }
            }
        }
        if (mods.contains("L2::cache_hint")) {
            if (ops.size() < 4) {
                return null;
            }
            ops = ops.subList(0, ops.size() - 1); // the cache policy: a performance hint, no effect on the data
        }
        if (ops.size() < 3 || ops.size() > 4 || io.constant(ops.get(2)) == null) {
            return null;
        }
        int size = (int) (long) io.constant(ops.get(2));
        if (size != 4 && size != 8 && size != 16 || mods.contains("cg") && size != 16) {
            return null;
        }
        Src dst = io.memory(ops.get(0));
        Src src = io.memory(ops.get(1));
        // ignore-src: a true predicate reads nothing (the destination gets zeros), as a source size of 0 does
        Src valid = ops.size() < 4 ? t -> size
                : io.isPredicate(ops.get(3)) ? ignoreSrc(io.src(ops.get(3), PtxType.PRED), size)
                : io.src(ops.get(3), PtxType.U32);
        return t -> {
            long s = dst.get(t) & 0xffffffffL, g = src.get(t);
            int n = (int) Math.min(size, valid.get(t) & 0xffffffffL);
            if ((s & (size - 1)) != 0 || (g & (size - 1)) != 0) {
                throw new MemoryAccessException((s & (size - 1)) != 0 ? AddressSpace.SHARED : AddressSpace.GLOBAL,
                        (s & (size - 1)) != 0 ? s : g, size, "misaligned cp.async");
            }
            byte[] data = new byte[n];
            for (int i = 0; i < n; i++) {
                data[i] = (byte) t.machine.launch.global().load(g + i, 1);
            }
            Region shared = t.cta.shared;
            copies(t).issue(shared, s, data, size);
        };
    }

    private static Src ignoreSrc(Src predicate, int size) {
        return t -> (predicate.get(t) & 1) != 0 ? 0 : size;
    }

    private static AsyncCopies copies(ThreadState t) {
        if (t.asyncCopies == null) {
            t.asyncCopies = new AsyncCopies();
        }
        return t.asyncCopies;
    }
}
