package org.jptxas.simulator.ptx;

/**
 * One compiled PTX instruction: a guard, how it changes control flow, and its semantics. Per-thread operations run
 * once per active thread; warp operations ({@code shfl}, {@code vote}, ...) see the whole converged group.
 */
final class Insn {
    enum Kind { SIMPLE, WARP, BRANCH, CALL, RET, EXIT, BARRIER, TRAP, UNSUPPORTED }

    /** Semantics of a per-thread instruction. */
    @FunctionalInterface
    interface ThreadOp {
        void run(ThreadState t);
    }

    /** Semantics of a warp-collective instruction over the lanes in {@code group} (bit i = lane i) whose guard held. */
    @FunctionalInterface
    interface WarpOp {
        void run(ThreadState[] lanes, int group);
    }

    final Kind kind;
    final int guardReg;
    final boolean guardNegated;
    final ThreadOp op;
    final WarpOp warpOp;
    /** WARP: the member-mask operand (read from the first lane), or null for instructions without one. */
    final Src memberMask;
    /** BRANCH: target index; CALL: unused. */
    int target;
    /** BRANCH through a table ({@code brx.idx}): the index operand and the targets, else null. */
    Src tableIndex;
    int[] table;
    /** CALL: resolved after every function is compiled. */
    CallSite call;
    /** BARRIER: the barrier description. */
    final BarrierSpec barrier;
    final String text;
    final int line;
    final String unsupportedName;

    Insn(Kind kind, int guardReg, boolean guardNegated, ThreadOp op, WarpOp warpOp, Src memberMask, BarrierSpec barrier,
         String text, int line, String unsupportedName) {
        this.kind = kind;
        this.guardReg = guardReg;
        this.guardNegated = guardNegated;
        this.op = op;
        this.warpOp = warpOp;
        this.memberMask = memberMask;
        this.barrier = barrier;
        this.text = text;
        this.line = line;
        this.unsupportedName = unsupportedName;
    }

    /** {@code bar.sync a, b} / {@code bar.red.popc.u32 d, a, p}: barrier id, optional count, optional reduction. */
    record BarrierSpec(Src id, Src count, boolean waits, String reduction, int dest, Src predicate, boolean predicateNegated) {}

    /**
     * A resolved {@code call}: the callee and, per argument and result, the caller's side: a {@code .param} variable
     * (offset, else -1) or a value / register ({@code .reg} calling style).
     */
    static final class CallSite {
        final String calleeName;
        CompiledFunction callee;
        /** An indirect call's function address (then {@code calleeName} is null), else null. */
        Src target;
        final int[] argOffsets;
        final Src[] argValues;
        final int[] retOffsets;
        final int[] retRegs;

        CallSite(String calleeName, int[] argOffsets, Src[] argValues, int[] retOffsets, int[] retRegs) {
            this.calleeName = calleeName;
            this.argOffsets = argOffsets;
            this.argValues = argValues;
            this.retOffsets = retOffsets;
            this.retRegs = retRegs;
        }
    }

    boolean guardPasses(ThreadState t) {
        if (guardReg < 0) {
            return true;
        }
        boolean p = t.frame.regs[guardReg] != 0;
        return p != guardNegated;
    }

    String where() {
        return "line " + line + " (" + text + ")";
    }
}
