package org.jptxas.simulator.ptx;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.Mbarrier;
import org.jptxas.simulator.memory.Region;

/**
 * {@code st.async} and {@code red.async} ({@code .shared::cluster.mbarrier::complete_tx::bytes}) for the interpreter:
 * the store or reduction into the shared memory of the block the address names ({@link PtxCluster}) is done at
 * once, and its bytes complete that many transaction bytes on the barrier (in the same block).
 */
final class AsyncStoreInstruction {
    private AsyncStoreInstruction() {}

    /** The per-thread operation, or null when the interpreter does not implement the form. */
    static Insn.ThreadOp compile(boolean reduction, List<String> mods, List<Operand> ops, MbarrierInstruction.Operands io)
            throws ProgramException, InstructionCompiler.Unsupported {
        if (!mods.contains("shared::cluster") || !mods.contains("mbarrier::complete_tx::bytes") || ops.size() != 3) {
            return null;
        }
        PtxType t = mods.stream().map(PtxType::fromName).flatMap(java.util.Optional::stream).findFirst().orElse(null);
        if (t == null || t.sizeBytes() < 4) {
            return null;
        }
        Src a = io.memory(ops.get(0));
        Src bar = io.memory(ops.get(2));
        List<Src> values = new ArrayList<>();
        if (ops.get(1) instanceof Operand.Vector v) {
            for (Operand e : v.elements()) {
                values.add(io.src(e, t));
            }
        } else {
            values.add(io.src(ops.get(1), t));
        }
        int size = t.sizeBytes();
        String op = reduction ? mods.stream().filter(m -> List.of("add", "min", "max", "inc", "dec", "and", "or", "xor")
                .contains(m)).findFirst().orElse(null) : null;
        if (reduction && (op == null || values.size() != 1)) {
            return null;
        }
        boolean signed = t == PtxType.S32 || t == PtxType.S64;
        return th -> {
            long at = a.get(th) & 0xffffffffL;
            Region data = PtxCluster.shared(th, at);
            long off = PtxCluster.offset(th, at);
            if (op == null) {
                for (int k = 0; k < values.size(); k++) {
                    data.store(off + (long) k * size, size, values.get(k).get(th));
                }
            } else {
                data.store(off, size, reduce(op, data.load(off, size), values.get(0).get(th), size, signed));
            }
            long b = bar.get(th) & 0xffffffffL;
            Region barrier = PtxCluster.shared(th, b);
            long bo = PtxCluster.offset(th, b);
            try {
                barrier.store64(bo, Mbarrier.arrive(barrier.load64(bo), 0, -(long) size * values.size()));
            } catch (IllegalStateException e) {
                throw new InterpreterError(e.getMessage());
            }
        };
    }

    private static long reduce(String op, long old, long b, int size, boolean signed) {
        long mask = size == 8 ? -1L : 0xffffffffL;
        long o = old & mask;
        long v = b & mask;
        return switch (op) {
            case "add" -> o + v;
            case "min" -> signed ? Math.min((int) o, (int) v) : Long.compareUnsigned(o, v) <= 0 ? o : v;
            case "max" -> signed ? Math.max((int) o, (int) v) : Long.compareUnsigned(o, v) >= 0 ? o : v;
            case "inc" -> Long.compareUnsigned(o, v) >= 0 ? 0 : o + 1;
            case "dec" -> o == 0 || Long.compareUnsigned(o, v) > 0 ? v : o - 1;
            case "and" -> o & v;
            case "or" -> o | v;
            default -> o ^ v;
        } & mask;
    }
}
