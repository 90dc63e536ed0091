package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.sass.SassMachine.Stop;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.CBank;
import org.jptxas.simulator.sass.SassOperand.Mem;
import org.jptxas.simulator.sass.SassOperand.Reg;
import org.jptxas.simulator.sass.SassOperand.UReg;

/**
 * The per-thread semantics of the instructions the fast path leaves to the slow path: the dispatch by opcode
 * ({@link #step}), with calls, returns and the rare opcodes.
 */
final class ThreadSemantics {
    private final SassMachine machine;
    private final OperandAccess operands;

    ThreadSemantics(SassMachine machine) {
        this.machine = machine;
        this.operands = machine.operands;
    }

    /** Runs an instruction the fast path leaves to the per-thread semantics (threads' pcs are current). */
    void execute(DecodedOp d, int pc, int base, int count, int group, Warp warp) {
        Thread first = machine.threads[base + Integer.numberOfTrailingZeros(group)];
        SassOp op = d.op;
        try {
            if (d.convergenceOp || d.collective) {
                int active = 0;
                for (int k = group; k != 0; k &= k - 1) {
                    int l = Integer.numberOfTrailingZeros(k);
                    Thread t = machine.threads[base + l];
                    boolean g = op.guardUniform() ? warp.up[op.guard()] != op.guardNegated() : t.p[op.guard()] != op.guardNegated();
                    if (g) {
                        active |= 1 << l;
                    }
                }
                if (d.convergenceOp) {
                    machine.control.convergence(op, group, active, warp);
                } else {
                    machine.control.checkConverged(op, group, active, warp);
                    machine.collectives.warpCollective(op, base, count, group, warp);
                }
                return;
            }
            if (op.opcode().equals("BRA") && op.modifiers().equals(List.of("DIV")) && op.operands().size() == 2
                    && op.operands().get(0) instanceof UReg
                    && op.operands().get(1) instanceof SassOperand.Target target) {
                // BRA.DIV URm: to the slow path only where threads of mask URm are not all here (diverged); a warp
                // converged on the mask takes the fast path, as the hardware does
                int mask = operands.read(op.operands().get(0), first, warp);
                boolean diverged = (group & mask) != mask;
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        Thread t = machine.threads[base + l];
                        boolean g = op.guardUniform() ? warp.up[op.guard()] != op.guardNegated()
                                : t.p[op.guard()] != op.guardNegated();
                        t.pc = g && diverged ? (int) (target.address() / 16) : t.pc + 1;
                    }
                }
                return;
            }
            if (machine.seat != null && op.opcode().startsWith("UCGABAR_")) { // cluster barrier: ClusterRun
                machine.seat.run().barrier(machine, op, machine.threads, base, count, group);
                return;
            }
            if (HopperAsyncOps.isBranchAny(op)) { // BRA.U.ANY: the group branches together if any lane's guard holds
                HopperAsyncOps.branchAny(op, machine.threads, base, count, group);
                return;
            }
            if (op.guardUniform()) {
                boolean g = warp.up[op.guard()] != op.guardNegated();
                if (g && d.uniformOp) { // @UPn on the uniform datapath (sm_90 ptxas): once for the warp
                    machine.uniformPath.uniform(op, first, warp);
                    g = false;
                }
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        Thread t = machine.threads[base + l];
                        if (g) {
                            step(op, t, warp);
                        } else {
                            t.pc++;
                        }
                    }
                }
            } else if (d.uniformOp) {
                // Uniform datapath: computed once for the warp (from its first active thread's registers).
                if (first.p[op.guard()] != op.guardNegated()) {
                    machine.uniformPath.uniform(op, first, warp);
                }
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        machine.threads[base + l].pc++;
                    }
                }
            } else {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        Thread t = machine.threads[base + l];
                        if (t.p[op.guard()] != op.guardNegated()) {
                            step(op, t, warp);
                        } else {
                            t.pc++;
                        }
                    }
                }
            }
            if (d.exit) {
                machine.control.afterExit(warp);
            }
            return;
        } catch (MemoryAccessException | Stop | ClassCastException | IndexOutOfBoundsException e) {
            throw machine.fault(e, op, first);
        }
    }

    /** The instruction index of code address {@code address} (a jump target); outside the code is a fault. */
    private int codeIndex(long address, SassOp op, Thread t) {
        if (address < 0 || address % 16 != 0 || address / 16 >= machine.code.length) {
            throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(),
                    "jump to 0x" + Long.toHexString(address) + ", outside the code"));
        }
        return (int) (address / 16);
    }

    /** {@link #step} for LEPC (kept out of step so that step stays small enough to be compiled). */
    private void lepc(SassOp op, List<SassOperand> o, Thread t) {
        // the code address of the label it names (sm_90+), else its own (ptxas adds the distance to the
        // return point: IADD3 R20, P0, P1, -R20(LEPC's address), R9(return point), R14(LEPC))
        long address = o.size() > 1 && o.get(1) instanceof SassOperand.Target target ? target.address()
                : 16L * t.pc;
        OperandAccess.writeR64(t, o.get(0), address);
        t.pc++;
    }

    /** {@link #step} for CALL (kept out of step so that step stays small enough to be compiled). */
    void call(SassOp op, List<SassOperand> o, Thread t) {
        // the caller already put the return address in a register
        t.callDepth++;
        if (op.has("ABS") && o.size() == 1 && o.get(0) instanceof SassOperand.Target target) {
            // CALL.ABS.NOINC `(f): the address the driver gave f (its relocation, in a linked module's image)
            t.pc = codeIndex(target.address(), op, t);
        } else if (op.has("ABS") && o.size() == 1 && o.get(0) instanceof Reg r) {
            // CALL.ABS.NOINC R2: to the 64-bit address in the pair, a system call's loaded from bank 4
            long address = OperandAccess.pair(t, r.index());
            java.util.Optional<String> system = machine.systemCallAt.apply(address);
            if (system.isPresent()) {
                throw new Stop(system.get().equals("__assertfail")
                        ? new Fault.Trap(machine.ref(t), op.where() + ": device-side assert failed")
                        : new Fault.Unimplemented("system call " + system.get(), op.where()));
            }
            t.pc = codeIndex(address, op, t);
        } else if (op.has("REL") && o.size() == 1 && o.get(0) instanceof Reg r) {
            // CALL.REL.NOINC R6 `(f): through a function address (its offset in the section) in R6
            t.pc = (int) (Integer.toUnsignedLong(t.r[r.index()]) / 16);
        } else if (!op.has("REL") || !(o.get(o.size() - 1) instanceof SassOperand.Target target)) {
            throw machine.unimplemented(op); // calls into other sections, absolute calls
        } else {
            t.pc = (int) (target.address() / 16);
        }
    }

    /** {@link #step} for RET (kept out of step so that step stays small enough to be compiled). */
    private void ret(SassOp op, List<SassOperand> o, Thread t) {
        if (op.has("ABS")) {
            // RET.ABS.NODEC R20 0x0: to the 64-bit address in the register pair plus the offset
            if (o.size() != 1 || !(o.get(0) instanceof SassOperand.RegisterOffset pair)) {
                throw machine.unimplemented(op);
            }
            long address = OperandAccess.pair(t, pair.reg()) + pair.offset();
            t.callDepth--;
            t.pc = codeIndex(address, op, t);
            return;
        }
        if (!op.has("REL") || !(o.get(0) instanceof Reg r)) {
            throw machine.unimplemented(op);
        }
        t.callDepth--;
        t.pc = (int) (Integer.toUnsignedLong(t.r[r.index()]) / 16);
    }

    /**
     * One instruction for one thread. HotSpot does not compile methods over 8000 bytes of bytecode
     * (DontCompileHugeMethods), and interpreting this one costs the emulator 2-4x: keep each case's work in a helper
     * ({@code javap -c} shows the size; at 8142 bytes collatz fell from 28 M to 6 M warp-instructions/s).
     */
    private void step(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        switch (op.opcode()) {
            case "NOP", "MEMBAR", "ERRBAR", "CGAERRBAR", "CCTL", "CCTLL", "YIELD", "NANOSLEEP", "FENCE", "PMTRIG", "ACQBULK", "PREEXIT" -> t.pc++;
            case "LDGSTS", "LDGDEPBAR", "DEPBAR" -> machine.memory.asyncCopy(op, t, w);
            case "SYNCS" -> machine.hopper().step(op, t, w, x -> operands.read(x, t, w));
            case "ARRIVES" -> machine.hopper().arriveOnCopies(op, t, w);
            case "STAS", "REDAS" -> machine.hopper().asyncStore(op, t, x -> operands.read(x, t, w));
            case "EXIT" -> {
                if (!o.isEmpty() && !operands.pred(o.get(0), t, w)) { // EXIT Pp: exits only where Pp holds
                    t.pc++;
                    break;
                }
                t.exited = true;
                w.exited |= 1 << t.lane;
                machine.exitedCount++;
                machine.control.releaseBarriers(-1);
            }
            case "BRA" -> {
                if (op.modifiers().equals(List.of("CONV")) && o.size() == 2 && o.get(0) instanceof UReg
                        && o.get(1) instanceof SassOperand.Target target) {
                    // BRA.CONV URm: a branch ptxas takes only where the threads of mask URm agree on it (its fast
                    // paths for a membermask, the slow path after it being correct for any mask); run as the
                    // thread's own guarded branch, which both paths make give the same result (BRA.DIV: execute)
                    t.pc = (int) (target.address() / 16);
                    break;
                }
                if (op.modifiers().contains("DIV") || op.modifiers().contains("CONV") || o.size() > 2
                        || !(o.get(o.size() - 1) instanceof SassOperand.Target)) {
                    throw machine.unimplemented(op);
                }
                if (o.size() == 2 && !operands.pred(o.get(0), t, w)) { // BRA Pp, target: also conditional on Pp
                    t.pc++;
                    break;
                }
                t.pc = (int) (((SassOperand.Target) o.get(o.size() - 1)).address() / 16);
            }
            case "BRX" -> {
                // BRX Ra imm: to the address after the BRX plus imm plus the 64-bit Ra (ptxas loads a branch
                // table's function offset from constant bank 2 and rebases it with imm)
                if (o.size() != 1 || !(o.get(0) instanceof SassOperand.RegisterOffset pair) || !op.modifiers().isEmpty()) {
                    throw machine.unimplemented(op);
                }
                long target = op.address() + 16 + (int) pair.offset() + OperandAccess.pair(t, pair.reg());
                t.pc = (int) (target / 16);
            }
            case "BAR" -> machine.control.barrier(op, t, w);
            case "BPT" -> {
                // BPT.TRAP 0x1 (trap, and brkpt without a debugger attached): the kernel stops with an error
                if (!op.has("TRAP")) {
                    throw machine.unimplemented(op);
                }
                throw new Stop(new Fault.Trap(machine.ref(t), op.where()));
            }
            case "B2R" -> {
                if (!op.has("RESULT")) {
                    throw machine.unimplemented(op);
                }
                OperandAccess.writeR(t, o.get(0), t.barrierResult);
                if (o.size() > 1) {
                    OperandAccess.writeP(t, o.get(1), t.barrierResult != 0);
                }
                t.pc++;
            }
            case "MOV" -> {
                OperandAccess.writeR(t, o.get(0), operands.read(o.get(1), t, w));
                t.pc++;
            }
            case "LEPC" -> lepc(op, o, t);
            case "S2R" -> {
                OperandAccess.writeR(t, o.get(0), machine.special(((SassOperand.Special) o.get(1)).name(), t));
                t.pc++;
            }
            case "CS2R" -> {
                String sr = ((SassOperand.Special) o.get(1)).name();
                if (op.has("32")) {
                    OperandAccess.writeR(t, o.get(0), machine.special(sr, t));
                } else {
                    OperandAccess.writeR64(t, o.get(0), sr.equals("SRZ") || sr.startsWith("SR_PM") ? 0 : machine.warpInstructions);
                }
                t.pc++;
            }
            case "LDC" -> {
                CBank c = (CBank) o.get(1);
                int size = MemoryOps.accessSize(op);
                if (size == 8) {
                    OperandAccess.writeR64(t, o.get(0), operands.cbank(c, t, 8));
                } else {
                    long v = operands.cbank(c, t, size);
                    OperandAccess.writeR(t, o.get(0), MemoryOps.signedAccess(op) ? (int) (size == 1 ? (byte) v : (short) v) : (int) v);
                }
                t.pc++;
            }
            case "IMAD" -> {
                machine.integer.imad(op, t, w);
                t.pc++;
            }
            case "IADD3" -> {
                machine.integer.iadd3(op, t, w);
                t.pc++;
            }
            case "LEA" -> {
                machine.integer.lea(op, t, w);
                t.pc++;
            }
            case "LOP3" -> machine.integer.lop3(op, t, w);
            case "SHF" -> {
                machine.integer.shf(op, t, w);
                t.pc++;
            }
            case "CALL" -> call(op, o, t);
            case "RET" -> ret(op, o, t);
            case "FCHK" -> {
                // FCHK flags divisions the fast path cannot do exactly; flagging every one sends them all through
                // ptxas's slow path, which is exact for every input.
                OperandAccess.writeP(t, o.get(0), true);
                t.pc++;
            }
            case "VIMNMX" -> machine.integer.vimnmx(op, t, w);
            case "VIMNMX3" -> machine.integer.vimnmx3(op, t, w);
            case "VIADDMNMX" -> machine.integer.viaddmnmx(op, t, w); // sm_90: min or max of (a + b) and c; as IMNMX, the predicate selects the minimum
            case "VABSDIFF" -> {
                int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w), c = operands.read(o.get(3), t, w);
                boolean u = op.has("U32");
                boolean less = u ? Integer.compareUnsigned(a, b) < 0 : a < b;
                OperandAccess.writeR(t, o.get(0), (less ? b - a : a - b) + c);
                t.pc++;
            }
            case "VABSDIFF4" -> machine.integer.vabsdiff4(op, t, w);
            case "SGXT" -> machine.integer.sgxt(op, t, w);
            case "BMSK" -> {
                // BMSK{.W} is PTX's bmsk (ptxas writes bmsk.clamp as a bare BMSK)
                int mask = org.jptxas.simulator.numeric.BitFields.bitMask(operands.read(o.get(1), t, w),
                        operands.read(o.get(2), t, w), op.has("W"));
                OperandAccess.writeR(t, o.get(0), mask);
                t.pc++;
            }
            case "P2R" -> {
                int mask = operands.read(o.get(3), t, w);
                int v = 0;
                for (int k = 0; k < 7; k++) {
                    v |= (t.p[k] ? 1 : 0) << k;
                }
                OperandAccess.writeR(t, o.get(0), (operands.read(o.get(2), t, w) & ~mask) | (v & mask));
                t.pc++;
            }
            case "R2P" -> { // R2P PR, Ra, mask: P0..P6 from a's bits where the mask is set
                if (!(o.get(1) instanceof SassOperand.Reg r) || !r.suffix().isEmpty()) {
                    throw machine.unimplemented(op); // Ra.B1-.B3 read another byte
                }
                int a = operands.read(o.get(1), t, w), mask = operands.read(o.get(2), t, w);
                for (int k = 0; k < 7; k++) {
                    if ((mask >>> k & 1) != 0) {
                        t.p[k] = (a >>> k & 1) != 0;
                    }
                }
                t.pc++;
            }
            case "IDP" -> machine.integer.idp(op, t, w);
            case "I2FP" -> machine.floating.i2fp(op, t, w);
            case "F2F" -> machine.floating.f2f(op, t, w);
            case "F2IP" -> machine.floating.f2ip(op, t, w);
            case "RED", "REDG", "ATOMG", "ATOMS", "ATOM" -> {
                machine.memory.atomic(op, t, w);
                t.pc++;
            }
            case "MUFU" -> machine.floating.mufu(op, t, w);
            case "I2F" -> {
                machine.floating.i2f(op, t, w);
                t.pc++;
            }
            case "I2I" -> {
                int[] range = IntegerNarrowing.range(op);
                if (range == null) {
                    throw machine.unimplemented(op);
                }
                OperandAccess.writeR(t, o.get(0), IntegerNarrowing.saturate(range, operands.read(o.get(1), t, w)));
                t.pc++;
            }
            case "F2I" -> {
                machine.floating.f2i(op, t, w);
                t.pc++;
            }
            case "DFMA", "DADD", "DMUL" -> machine.floating.doubleArith(op, t, w);
            case "POPC" -> {
                OperandAccess.writeR(t, o.get(0), Integer.bitCount(operands.read(o.get(1), t, w)));
                t.pc++;
            }
            case "BREV" -> {
                OperandAccess.writeR(t, o.get(0), Integer.reverse(operands.read(o.get(1), t, w)));
                t.pc++;
            }
            case "FLO" -> machine.integer.flo(op, t, w);
            case "VIADD" -> {
                int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w);
                // .16x2 (sm_90 add.{s,u}16x2): two 16-bit lanes, no carry from the low lane into the high one
                OperandAccess.writeR(t, o.get(0), op.has("16x2")
                        ? ((a + b) & 0xffff) | (((a >>> 16) + (b >>> 16)) << 16) : a + b);
                t.pc++;
            }
            case "IABS" -> {
                OperandAccess.writeR(t, o.get(0), Math.abs(operands.read(o.get(1), t, w)));
                t.pc++;
            }
            case "IMNMX" -> {
                int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w);
                boolean min = operands.pred(o.get(3), t, w);
                int c = op.has("U32") ? Integer.compareUnsigned(a, b) : Integer.compare(a, b);
                OperandAccess.writeR(t, o.get(0), min == (c <= 0) ? a : b);
                t.pc++;
            }
            case "FMNMX" -> machine.floating.fmnmx(op, t, w);
            case "PLOP3" -> machine.integer.plop3(op, t, w);
            case "PRMT" -> machine.integer.prmt(op, t, w);
            case "HFMA2", "HADD2", "HMUL2" -> {
                machine.floating.half2(op, t, w);
                t.pc++;
            }
            case "SEL" -> {
                OperandAccess.writeR(t, o.get(0), operands.pred(o.get(3), t, w) ? operands.read(o.get(1), t, w) : operands.read(o.get(2), t, w));
                t.pc++;
            }
            case "FSEL" -> {
                SassOperand chosen = operands.pred(o.get(3), t, w) ? o.get(1) : o.get(2);
                OperandAccess.writeR(t, o.get(0), operands.floatBits(chosen, t, w));
                t.pc++;
            }
            case "ISETP" -> {
                machine.integer.isetp(op, t, w);
                t.pc++;
            }
            case "FSETP", "DSETP" -> {
                machine.floating.fsetp(op, t, w);
                t.pc++;
            }
            case "FADD", "FMUL", "FFMA" -> {
                machine.floating.ffma(op, t, w);
                t.pc++;
            }
            case "LDG", "LDS", "LDL", "LD" -> {
                machine.memory.load(op, t, w);
                t.pc++;
            }
            case "STG", "STS", "STL", "ST" -> {
                machine.memory.store(op, t, w);
                t.pc++;
            }
            default -> rare(op, t, w);
        }
    }

    /** Instructions too rare to sit in {@link #step}'s switch (it must stay under HotSpot's size limit). */
    private void rare(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        switch (op.opcode()) {
            case "QSPC" -> { // QSPC.E.{S,L,G} Pp, RZ, [Ra.64]: whether a generic address is in a space
                long a = machine.windows.address((Mem) o.get(2), t, w, true);
                Region r = machine.windows.window(a, t);
                boolean in = op.has("S") ? r == machine.shared && r != null : op.has("L") ? r != null && r == t.local : r == null;
                OperandAccess.writeP(t, o.get(0), in);
            }
            case "FRND" -> machine.floating.frnd(op, t, w);
            case "HSETP2", "HSET2" -> machine.floating.halfSet(op, t, w);
            case "FSET" -> machine.floating.fset(op, t, w);
            case "F2FP" -> machine.floating.f2fp(op, t, w);
            case "HMNMX2", "I2IP" -> machine.floating.packed(op, t, w);
            case "TEX", "TLD", "TLD4", "TXQ" -> machine.textures.execute(op, t, w);
            case "SULD", "SUST", "SURED" -> machine.textures.surface(op, t, w);
            default -> throw machine.unimplemented(op);
        }
        t.pc++;
    }
}
