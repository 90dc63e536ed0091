package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.MatrixFragments;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.sass.SassMachine.Stop;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.Mem;
import org.jptxas.simulator.sass.SassOperand.Pred;
import org.jptxas.simulator.sass.SassOperand.Reg;
import org.jptxas.simulator.sass.SassOperand.UPred;
import org.jptxas.simulator.sass.SassOperand.UReg;

/**
 * Instructions that combine the lanes of a converged group: SHFL, VOTE, REDUX, MATCH, LDSM, MOVM, R2UR and the
 * matrix multiplies.
 */
final class WarpCollectives {
    private final SassMachine machine;
    private final OperandAccess operands;

    WarpCollectives(SassMachine machine) {
        this.machine = machine;
        this.operands = machine.operands;
    }

    /** SHFL, VOTE, REDUX, MATCH and LDSM over the group's threads whose guard holds (the converged, active threads). */
    void warpCollective(SassOp op, int base, int count, int group, Warp w) {
        List<SassOperand> o = op.operands();
        int active = 0;
        for (int l = 0; l < count; l++) {
            if ((group >>> l & 1) != 0) {
                Thread t = machine.threads[base + l];
                boolean g = op.guardUniform() ? w.up[op.guard()] != op.guardNegated() : t.p[op.guard()] != op.guardNegated();
                if (g) {
                    active |= 1 << l;
                }
            }
        }
        switch (op.opcode()) {
            case "SHFL" -> {
                String mode = op.modifiers().get(0);
                int[] src = new int[32];
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) != 0) {
                        src[l] = operands.read(o.get(2), machine.threads[base + l], w);
                    }
                }
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) == 0) {
                        continue;
                    }
                    Thread t = machine.threads[base + l];
                    int b = operands.read(o.get(3), t, w) & 0x1f, c = operands.read(o.get(4), t, w);
                    int segmask = (c >>> 8) & 0x1f, clamp = c & 0x1f;
                    int maxLane = (l & segmask) | (clamp & ~segmask), minLane = l & segmask;
                    int j;
                    boolean ok;
                    switch (mode) {
                        case "UP" -> { j = l - b; ok = j >= maxLane; }
                        case "DOWN" -> { j = l + b; ok = j <= maxLane; }
                        case "BFLY" -> { j = l ^ b; ok = j <= maxLane; }
                        case "IDX" -> { j = minLane | (b & ~segmask); ok = j <= maxLane; }
                        default -> throw machine.unimplemented(op);
                    }
                    if (!ok) {
                        j = l;
                    }
                    if ((active >>> j & 1) == 0) {
                        throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(),
                                "SHFL reads lane " + j + ", which is not active (undefined)"));
                    }
                    OperandAccess.writeR(t, o.get(1), src[j]);
                    if (o.get(0) instanceof Pred) {
                        OperandAccess.writeP(t, o.get(0), ok);
                    }
                }
            }
            case "VOTE", "VOTEU" -> {
                String mode = op.modifiers().get(0);
                SassOperand in = o.get(o.size() - 1);
                int ballot = 0;
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) != 0 && operands.pred(in, machine.threads[base + l], w)) {
                        ballot |= 1 << l;
                    }
                }
                boolean r = switch (mode) {
                    case "ANY" -> ballot != 0;
                    case "ALL" -> ballot == active;
                    case "EQ" -> ballot == 0 || ballot == active;
                    default -> throw machine.unimplemented(op);
                };
                if (op.opcode().equals("VOTEU")) {
                    if (o.get(0) instanceof UReg) {
                        UniformDatapath.writeU(w, o.get(0), ballot);
                        if (o.size() == 3 && o.get(1) instanceof UPred up && up.index() != 7) {
                            w.up[up.index()] = r;
                        }
                    } else if (o.get(0) instanceof UPred up && up.index() != 7) {
                        w.up[up.index()] = r;
                    }
                } else {
                    for (int l = 0; l < count; l++) {
                        if ((active >>> l & 1) == 0) {
                            continue;
                        }
                        Thread t = machine.threads[base + l];
                        if (o.get(0) instanceof Reg) {
                            OperandAccess.writeR(t, o.get(0), ballot);
                            if (o.size() == 3) {
                                OperandAccess.writeP(t, o.get(1), r);
                            }
                        } else {
                            OperandAccess.writeP(t, o.get(0), r);
                        }
                    }
                }
            }
            case "REDUX" -> {
                String mode = op.modifiers().isEmpty() ? "AND" : op.modifiers().get(0);
                boolean signed = op.has("S32");
                long acc = switch (mode) {
                    case "AND" -> -1L;
                    case "MIN" -> signed ? Integer.MAX_VALUE : 0xffffffffL;
                    case "MAX" -> signed ? Integer.MIN_VALUE : 0;
                    default -> 0;
                };
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) == 0) {
                        continue;
                    }
                    int x = operands.read(o.get(1), machine.threads[base + l], w);
                    long v = signed ? x : Integer.toUnsignedLong(x);
                    acc = switch (mode) {
                        case "SUM" -> acc + v;
                        case "MIN" -> Math.min(acc, v);
                        case "MAX" -> Math.max(acc, v);
                        case "AND" -> acc & v;
                        case "OR" -> acc | v;
                        case "XOR" -> acc ^ v;
                        default -> throw machine.unimplemented(op);
                    };
                }
                if (!(o.get(0) instanceof UReg)) {
                    throw machine.unimplemented(op);
                }
                UniformDatapath.writeU(w, o.get(0), (int) acc);
            }
            case "R2UR" -> { // R2UR Pd, URd, Ra: Pd (every active lane) says whether Ra is the same in all of them;
                // ptxas tests it to take a membermask's fast path, else the slow one through BRA.DIV
                Integer first = null;
                boolean same = true;
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) != 0) {
                        int x = operands.read(o.get(2), machine.threads[base + l], w);
                        same &= first == null || x == first;
                        first = first == null ? x : first;
                    }
                }
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) != 0) {
                        OperandAccess.writeP(machine.threads[base + l], o.get(0), same);
                    }
                }
                if (first != null) {
                    UniformDatapath.writeU(w, o.get(1), first);
                }
            }
            case "MATCH" -> match(op, base, count, active, w);
            case "LDSM" -> ldsm(op, base, count, active, w);
            case "MOVM" -> movm(op, base, count, active, w);
            case "ELECT", "STSM" -> machine.hopper().collective(op, machine.threads, base, count, active, w);
            case "HMMA", "IMMA", "BMMA", "DMMA", "QMMA" -> matrixMultiply(op, base, count, active);
            case "HGMMA", "QGMMA", "IGMMA", "BGMMA", "WARPGROUP", "USETMAXREG" -> warpgroup(op, w, count, active);
            default -> throw machine.unimplemented(op);
        }
        for (int l = 0; l < count; l++) {
            if ((group >>> l & 1) != 0) {
                machine.threads[base + l].pc++;
            }
        }
    }

    /**
     * {@code MOVM.16.MT88 Rd, Ra}: the warp's 8x8 matrix of 16-bit elements in Ra (lane t: elements (t/4, 2(t%4)) and
     * (t/4, 2(t%4)+1)) transposed into Rd ({@link MatrixFragments#transpose}). Every lane must take part: a missing
     * lane's elements are undefined, a fault here. Ra is read in full before Rd is written.
     */
    private void movm(SassOp op, int base, int count, int active, Warp w) {
        List<SassOperand> o = op.operands();
        if (!op.modifiers().equals(List.of("16", "MT88")) || o.size() != 2 || !(o.get(0) instanceof Reg d)
                || d.negate() || d.abs() || d.invert() || !d.suffix().isEmpty()) {
            throw machine.unimplemented(op);
        }
        if (active == 0) {
            return;
        }
        if (count != 32 || active != -1) {
            Thread t = machine.threads[base + Integer.numberOfTrailingZeros(active)];
            throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(), "MOVM needs all 32 lanes (active: 0x"
                    + Integer.toHexString(active) + ")"));
        }
        int[] in = new int[32];
        for (int l = 0; l < 32; l++) {
            in[l] = operands.read(o.get(1), machine.threads[base + l], w);
        }
        if (d.index() == 255) {
            return;
        }
        int[] out = MatrixFragments.transpose(in);
        for (int l = 0; l < 32; l++) {
            machine.threads[base + l].r[d.index()] = out[l];
        }
    }

    /**
     * {@code LDSM.16.M88{.2|.4} Rd, [Ra+imm]} ({@code .MT88}: transposed) for the lanes {@code active}: N = 1, 2 or 4
     * 8x8 matrices of 16-bit elements; lane 8i+j gives the shared address of row j of matrix i (16 bytes, aligned),
     * and every active lane t receives in Rd+i, low half first, elements (t/4, 2(t%4)) and (t/4, 2(t%4)+1) of matrix
     * i, or with MT88 elements (2(t%4), t/4) and (2(t%4)+1, t/4). Addresses of the other lanes are not read. A row
     * address outside shared memory or misaligned is a memory fault of the lane that gave it; a row whose lane is
     * not active is undefined (a fault, as SHFL reading an inactive lane). All rows are read before any register is
     * written, so Rd may overlap Ra.
     */
    private void ldsm(SassOp op, int base, int count, int active, Warp w) {
        List<SassOperand> o = op.operands();
        boolean trans = op.has("MT88");
        int n = op.has("4") ? 4 : op.has("2") ? 2 : 1;
        for (String m : op.modifiers()) {
            if (!m.equals("16") && !m.equals("M88") && !m.equals("MT88") && !m.equals("2") && !m.equals("4")) {
                throw machine.unimplemented(op);
            }
        }
        if (!op.has("16") || trans == op.has("M88") || op.has("2") && op.has("4") || o.size() != 2
                || !(o.get(0) instanceof Reg d) || d.negate() || d.abs() || d.invert() || !d.suffix().isEmpty()
                || !(o.get(1) instanceof Mem m)) {
            throw machine.unimplemented(op);
        }
        if (active == 0) {
            return;
        }
        int[][] rows = new int[8 * n][];
        for (int r = 0; r < 8 * n; r++) {
            if (r >= count || (active >>> r & 1) == 0) {
                Thread t = machine.threads[base + Integer.numberOfTrailingZeros(active)];
                throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(), "LDSM reads row " + (r & 7)
                        + " of matrix " + r / 8 + " from lane " + r + ", which is not active (undefined)"));
            }
            Thread t = machine.threads[base + r];
            long a = machine.windows.address(m, t, w, false) & 0xffffffffL; // Ra + imm (+ UR) as a 32-bit shared address
            try {
                rows[r] = machine.shared.load128(a);
            } catch (MemoryAccessException e) {
                throw new Stop(new Fault.MemoryFault(machine.ref(t), op.where(), e));
            }
        }
        if (d.index() == 255) {
            return;
        }
        for (int l = 0; l < count; l++) {
            if ((active >>> l & 1) == 0) {
                continue;
            }
            Thread t = machine.threads[base + l];
            for (int i = 0; i < n; i++) {
                t.r[d.index() + i] = MatrixFragments.of(rows, 8 * i, l, trans);
            }
        }
    }

    /** Hopper's warpgroup instructions ({@link WarpgroupOps}), for the whole warp. */
    private void warpgroup(SassOp op, Warp w, int count, int active) {
        Thread first = machine.threads[w.base + Integer.numberOfTrailingZeros(active == 0 ? 1 : active)];
        if (active == 0) {
            return;
        }
        if (active != -1 || count != 32) {
            throw new Stop(new Fault.InvalidExecution(machine.ref(first), op.where(), op.opcode() + " needs all 32 lanes"));
        }
        int[][] regs = new int[32][];
        for (int l = 0; l < 32; l++) {
            regs[l] = machine.threads[w.base + l].r;
        }
        try {
            if (!machine.warpgroupOps.execute(op, w, regs, w.ur, w.up, w.base / 32 % 4, machine.shared)) {
                throw machine.unimplemented(op);
            }
        } catch (WarpgroupOps.WarpgroupFault e) {
            throw new Stop(new Fault.InvalidExecution(machine.ref(first), op.where(), e.getMessage()));
        }
    }

    /** HMMA/IMMA/DMMA ({@link MatrixMultiplyOps}): the whole warp or none of it (a partial warp is undefined). */
    private void matrixMultiply(SassOp op, int base, int count, int active) {
        org.jptxas.simulator.exec.WarpMma.Spec s = MatrixMultiplyOps.spec(op);
        if (s == null) {
            throw machine.unimplemented(op);
        }
        if (active == 0) {
            return;
        }
        if (active != -1 || count != 32) {
            throw new Stop(new Fault.InvalidExecution(machine.ref(machine.threads[base + Integer.numberOfTrailingZeros(active)]),
                    op.where(), op.opcode() + " needs all 32 lanes of the warp (executing: 0x"
                    + Integer.toHexString(active) + ")"));
        }
        int[][] regs = new int[32][];
        for (int l = 0; l < 32; l++) {
            regs[l] = machine.threads[base + l].r;
        }
        MatrixMultiplyOps.execute(op, s, regs);
    }

    /**
     * MATCH.ALL Pd, Rd, Ra / MATCH.ANY Rd, Ra over the active lanes (.U64: Ra a register pair); the comparisons in
     * {@link WarpMatch}.
     */
    private void match(SassOp op, int base, int count, int active, Warp w) {
        List<SassOperand> o = op.operands();
        boolean all = op.has("ALL");
        if (!all && (!op.has("ANY") || !(o.get(0) instanceof Reg))) {
            throw machine.unimplemented(op);
        }
        SassOperand src = o.get(o.size() - 1);
        long[] v = new long[32];
        for (int l = 0; l < count; l++) {
            if ((active >>> l & 1) != 0) {
                Thread t = machine.threads[base + l];
                if (!op.has("U64")) {
                    v[l] = operands.read(src, t, w);
                } else if (src instanceof Reg r && r.index() != 255) {
                    v[l] = OperandAccess.pair(t, r.index());
                } else {
                    throw machine.unimplemented(op);
                }
            }
        }
        boolean same = all && WarpMatch.allSame(v, active, count);
        for (int l = 0; l < count; l++) {
            if ((active >>> l & 1) == 0) {
                continue;
            }
            Thread t = machine.threads[base + l];
            if (!all) {
                OperandAccess.writeR(t, o.get(0), WarpMatch.lanesHolding(v, active, count, v[l]));
                continue;
            }
            for (SassOperand d : o.subList(0, o.size() - 1)) {
                if (d instanceof Pred) {
                    OperandAccess.writeP(t, d, same);
                } else {
                    OperandAccess.writeR(t, d, same ? active : 0);
                }
            }
        }
    }
}
