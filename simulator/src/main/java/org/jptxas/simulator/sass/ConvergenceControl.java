package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.sass.SassMachine.Stop;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.Pred;

/**
 * Convergence barriers (BSSY, BSYNC, BREAK, BMOV, WARPSYNC), block barriers (BAR) and EXIT: which threads wait, and
 * when they are released.
 */
final class ConvergenceControl {
    private final SassMachine machine;
    private final OperandAccess operands;

    ConvergenceControl(SassMachine machine) {
        this.machine = machine;
        this.operands = machine.operands;
    }

    private static int exitedMask(Warp w) {
        return w.exited;
    }

    private void advance(Warp w, int lanes) {
        for (int k = lanes; k != 0; k &= k - 1) {
            machine.threads[w.base + Integer.numberOfTrailingZeros(k)].pc++;
        }
    }

    private static int barrierIndex(SassOperand o, SassOp op) {
        if (o instanceof SassOperand.Barrier b && b.index() >= 0 && b.index() < 16) {
            return b.index();
        }
        throw new Stop(new Fault.Unimplemented(op.fullName() + " (operand " + o + ")", op.where()));
    }

    /**
     * BSSY records the executing threads in a convergence barrier; BSYNC waits until every recorded thread that has
     * not exited arrives; BREAK drops threads from it; BMOV saves, restores or clears it; WARPSYNC waits for the
     * threads of its member mask (at any WARPSYNC). Released threads continue as one group.
     */
    void convergence(SassOp op, int group, int active, Warp w) {
        List<SassOperand> o = op.operands();
        switch (op.opcode()) {
            case "BSSY" -> {
                int b = barrierIndex(o.get(0), op);
                w.convergence[b] = active;
                w.reconvergeAt[b] = o.get(1) instanceof SassOperand.Target t ? t.address() : -1;
                advance(w, group);
            }
            case "BSYNC" -> {
                int b = barrierIndex(o.get(0), op);
                int waiting = active & w.convergence[b];
                for (int k = waiting; k != 0; k &= k - 1) {
                    Thread t = machine.threads[w.base + Integer.numberOfTrailingZeros(k)];
                    t.convWait = b;
                    t.waitOp = op;
                }
                advance(w, group & ~waiting);
                releaseConvergence(w, b);
            }
            case "BREAK" -> {
                int b = barrierIndex(o.get(o.size() - 1), op);
                int leaving = active;
                if (o.size() == 2) {
                    leaving = 0;
                    for (int k = active; k != 0; k &= k - 1) {
                        int l = Integer.numberOfTrailingZeros(k);
                        if (operands.pred(o.get(0), machine.threads[w.base + l], w)) {
                            leaving |= 1 << l;
                        }
                    }
                }
                w.convergence[b] &= ~leaving;
                advance(w, group);
                releaseConvergence(w, b);
            }
            case "BMOV" -> {
                if (!op.has("32")) {
                    throw machine.unimplemented(op);
                }
                if (o.get(0) instanceof SassOperand.Barrier) { // BMOV.32 Bx, Ra: restore a saved barrier
                    int b = barrierIndex(o.get(0), op);
                    if (active != 0) {
                        w.convergence[b] = operands.read(o.get(1), machine.threads[w.base + Integer.numberOfTrailingZeros(active)], w);
                    }
                    advance(w, group);
                    releaseConvergence(w, b);
                } else { // BMOV.32{.CLEAR} Rd, Bx: save (and clear) a barrier
                    int b = barrierIndex(o.get(1), op);
                    int v = w.convergence[b];
                    for (int k = active; k != 0; k &= k - 1) {
                        OperandAccess.writeR(machine.threads[w.base + Integer.numberOfTrailingZeros(k)], o.get(0), v);
                    }
                    if (op.has("CLEAR") && active != 0) {
                        w.convergence[b] = 0;
                    }
                    advance(w, group);
                }
            }
            case "WARPSYNC" -> {
                for (int k = active; k != 0; k &= k - 1) {
                    int l = Integer.numberOfTrailingZeros(k);
                    Thread t = machine.threads[w.base + l];
                    int mask = op.has("ALL") || o.isEmpty() ? -1 : operands.read(o.get(0), t, w);
                    t.syncMask = mask | 1 << l;
                    t.convWait = SassMachine.WAIT_WARPSYNC;
                    t.waitOp = op;
                }
                advance(w, group & ~active);
                releaseWarpSync(w);
            }
            default -> throw machine.unimplemented(op);
        }
    }

    /**
     * Releases the threads waiting at BSYNC Bb once every live thread Bb records has arrived. Only the threads Bb
     * records go: a callee saves the caller's barrier ({@code BMOV.32.CLEAR}), reuses the register and restores it
     * before returning, so caller threads already waiting at the same barrier register keep waiting meanwhile.
     */
    private void releaseConvergence(Warp w, int b) {
        int waiting = 0;
        for (int l = 0; l < w.count; l++) {
            if (machine.threads[w.base + l].convWait == b) {
                waiting |= 1 << l;
            }
        }
        int released = waiting & w.convergence[b];
        if (released == 0) {
            return;
        }
        int need = w.convergence[b] & w.lanes() & ~exitedMask(w);
        if ((need & ~waiting) != 0) {
            return;
        }
        int tag = w.nextTag++;
        for (int k = released; k != 0; k &= k - 1) {
            Thread t = machine.threads[w.base + Integer.numberOfTrailingZeros(k)];
            t.convWait = -1;
            t.waitOp = null;
            t.syncMask = 0;
            t.tag = tag;
            t.pc++;
        }
    }

    /**
     * Releases the threads waiting at WARPSYNC whose member masks (live threads) have all arrived at a WARPSYNC with
     * the same member mask: as {@code bar.warp.sync}, which waits for "a bar.warp.sync with the same membermask
     * value" — a lone thread's {@code WARPSYNC R} (mask: itself) inside a branch does not release the rest of its warp
     * waiting at a {@code WARPSYNC.ALL} the branch has yet to reach.
     */
    private void releaseWarpSync(Warp w) {
        int waiting = 0;
        for (int l = 0; l < w.count; l++) {
            if (machine.threads[w.base + l].convWait == SassMachine.WAIT_WARPSYNC) {
                waiting |= 1 << l;
            }
        }
        if (waiting == 0) {
            return;
        }
        int live = w.lanes() & ~exitedMask(w), release = 0;
        for (int k = waiting; k != 0; k &= k - 1) {
            int l = Integer.numberOfTrailingZeros(k);
            int members = machine.threads[w.base + l].syncMask & live;
            boolean all = (members & ~waiting) == 0;
            for (int m = members; all && m != 0; m &= m - 1) {
                all = (machine.threads[w.base + Integer.numberOfTrailingZeros(m)].syncMask & live) == members;
            }
            if (all) {
                release |= 1 << l;
            }
        }
        int tag = w.nextTag++;
        for (int k = release; k != 0; k &= k - 1) {
            Thread t = machine.threads[w.base + Integer.numberOfTrailingZeros(k)];
            t.convWait = -1;
            t.waitOp = null;
            t.tag = tag;
            t.pc++;
        }
    }

    /** Exited threads no longer hold back the convergence barriers and WARPSYNCs of their warp. */
    void afterExit(Warp w) {
        boolean waiting = false;
        for (int l = 0; l < w.count && !waiting; l++) {
            waiting = machine.threads[w.base + l].convWait >= 0;
        }
        if (!waiting) {
            return;
        }
        for (int b = 0; b < 16; b++) {
            releaseConvergence(w, b);
        }
        releaseWarpSync(w);
    }

    /**
     * A warp-synchronous instruction must be executed by every live thread its member mask names (the mask of the
     * last WARPSYNC; in strict mode without one, the whole warp): a thread missing from the group is a fault.
     */
    void checkConverged(SassOp op, int group, int active, Warp w) {
        List<SassOperand> o = op.operands();
        // ELECT elects among the active threads; REDUX reduces over them (no member mask operand: ptxas's
        // warp-aggregated atomics run it inside divergent branches, after VOTE.ANY names the active threads)
        if (active == 0 || op.opcode().equals("ELECT") || op.opcode().equals("REDUX")
                || op.opcode().startsWith("VOTE") && o.get(o.size() - 1) instanceof Pred p && p.index() == 7
                && !p.negated()) {
            return; // VOTE{U}.ANY d, PT, PT is activemask: defined in divergent code
        }
        Thread first = machine.threads[w.base + Integer.numberOfTrailingZeros(active)];
        int mask = first.syncMask != 0 ? first.syncMask : machine.strict ? -1 : 0;
        int missing = mask & w.lanes() & ~exitedMask(w) & ~group;
        if (missing != 0) {
            Thread absent = machine.threads[w.base + Integer.numberOfTrailingZeros(missing)];
            throw new Stop(new Fault.InvalidExecution(machine.ref(first), op.where(), String.format(
                    "%s with member mask 0x%08x names thread(s) 0x%08x not converged with this group 0x%08x "
                    + "(e.g. lane %d at 0x%04x)", op.opcode(), mask, missing, group, absent.lane, absent.pc * 16L)));
        }
    }

    /** BAR.SYNC id for a group: the lanes {@code act} arrive and wait, the others move on. */
    void barrierSync(int id, int base, int group, int act) {
        for (int k = group; k != 0; k &= k - 1) {
            int l = Integer.numberOfTrailingZeros(k);
            Thread t = machine.threads[base + l];
            if ((act >>> l & 1) != 0) {
                t.barrier = id;
                t.barrierOp = null;
                machine.arrived[id]++;
            } else {
                t.pc++;
            }
        }
        releaseBarriers(id);
    }

    /** EXIT for a group: the lanes {@code act} exit (releasing what waited for them), the others move on. */
    void exit(Warp w, int group, int act) {
        for (int k = group; k != 0; k &= k - 1) {
            int l = Integer.numberOfTrailingZeros(k);
            Thread t = machine.threads[w.base + l];
            if ((act >>> l & 1) != 0) {
                t.exited = true;
                machine.exitedCount++;
            } else {
                t.pc++;
            }
        }
        w.exited |= act;
        if (act != 0 && (w.exited | (int) (-1L << w.count)) == -1) { // the warp's last lanes leave
            try {
                machine.warpgroupOps.exit(w);
            } catch (WarpgroupOps.WarpgroupFault e) {
                throw new Stop(new Fault.InvalidExecution(machine.ref(machine.threads[w.base]), "EXIT", e.getMessage()));
            }
        }
        releaseBarriers(-1);
        afterExit(w);
    }

    /** Releases barrier {@code only} (every barrier for -1) once all threads that have not exited arrived. */
    void releaseBarriers(int only) {
        for (int id = only < 0 ? 0 : only; id < (only < 0 ? machine.arrived.length : only + 1); id++) {
            int need = machine.expected[id] >= 0 ? machine.expected[id] : machine.threads.length - machine.exitedCount;
            if (machine.arrived[id] > 0 && machine.arrived[id] >= need) {
                int popc = 0;
                boolean all = true, any = false;
                for (Thread t : machine.threads) {
                    if (t.barrier == id) {
                        popc += t.barrierPredicate ? 1 : 0;
                        all &= t.barrierPredicate;
                        any |= t.barrierPredicate;
                    }
                }
                int[] tags = new int[machine.warpState.length]; // released threads of one warp continue as one group
                for (Thread t : machine.threads) {
                    if (t.barrier == id) {
                        Warp w = machine.warpState[t.linear / 32];
                        if (tags[t.linear / 32] == 0) {
                            tags[t.linear / 32] = w.nextTag++;
                        }
                        t.tag = tags[t.linear / 32];
                        SassOp bop = t.barrierOp;
                        if (bop != null) {
                            t.barrierResult = bop.has("POPC") ? popc : (bop.has("AND") ? all : any) ? 1 : 0;
                        }
                        t.barrier = -1;
                        t.pc++;
                    }
                }
                machine.arrived[id] = 0;
                machine.expected[id] = -1;
            }
        }
    }

    /**
     * BAR.SYNC, BAR.RED and BAR.ARV: the thread arrives at a block barrier (BAR.ARV without waiting). Operands:
     * {@code [id [, count]] [, {!}Pp]}. With the id in a register, that register holds the barrier in bits 0-15 and
     * a count register the thread count in bits 16-27 (ptxas packs both into one register and names it twice:
     * {@code BAR.SYNC R0, R0}); after an immediate id the count register holds the count itself
     * ({@code BAR.SYNC 0x3, R0}).
     */
    void barrier(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean red = op.has("RED");
        if (!red && !op.has("ARV") && !op.has("SYNC")) {
            throw machine.unimplemented(op);
        }
        int values = o.size() - (red ? 1 : 0);
        if (values < 0 || values > 2 || !red && op.has("ARV") && values != 2) {
            throw machine.unimplemented(op);
        }
        int id = values == 0 ? 0 : barrierField(o.get(0), t, w, false);
        boolean packed = values > 0 && !(o.get(0) instanceof SassOperand.Imm);
        if (id < 0 || id >= machine.arrived.length) {
            throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(), "barrier id " + id + " out of range 0..15"));
        }
        if (values == 2) {
            int count = barrierField(o.get(1), t, w, packed);
            if (count <= 0 || count % 32 != 0 && count != machine.threads.length) {
                throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(),
                        "barrier thread count " + count + " is not a positive multiple of the warp size"));
            }
            machine.expected[id] = count;
        }
        machine.arrived[id]++;
        if (op.has("ARV")) {
            // bar.arrive: counts as arrived at the barrier without waiting for it
            t.pc++;
        } else {
            // BAR.RED.{POPC|AND|OR}: the result is read afterwards with B2R.RESULT
            t.barrier = id;
            t.barrierPredicate = red && operands.pred(o.get(o.size() - 1), t, w);
            t.barrierOp = red ? op : null;
        }
        releaseBarriers(id);
    }

    /** A barrier id (bits 0-15 of a register), a packed thread count (bits 16-27), or an operand's value itself. */
    private int barrierField(SassOperand o, Thread t, Warp w, boolean packedCount) {
        int v = operands.read(o, t, w);
        if (o instanceof SassOperand.Imm) {
            return v;
        }
        return packedCount ? v >>> 16 & 0xfff : v & 0xffff;
    }
}
