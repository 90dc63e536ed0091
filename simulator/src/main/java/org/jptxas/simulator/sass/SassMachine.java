package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.exec.MatrixFragments;
import org.jptxas.simulator.exec.ThreadRef;
import org.jptxas.simulator.launch.Dim3;
import org.jptxas.simulator.launch.Dim3Point;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.sass.SassOperand.CBank;
import org.jptxas.simulator.sass.SassOperand.Imm;
import org.jptxas.simulator.sass.SassOperand.Mem;
import org.jptxas.simulator.sass.SassOperand.Pred;
import org.jptxas.simulator.sass.SassOperand.Reg;
import org.jptxas.simulator.sass.SassOperand.UPred;
import org.jptxas.simulator.sass.SassOperand.UReg;

/** One launch on the SASS emulator: blocks in order, warps round-robin, converged groups of threads per warp. */
final class SassMachine {
    private static final int QUANTUM = 256;
    /** Local memory per thread reported to the kernel as the stack top ({@code c[0x0][0x28]}). */
    private static final int STACK_BYTES = 16 * 1024;
    /** The window of constant bank 0 the code may read. */
    private static final int CBANK0_BYTES = 0x10000;

    /** Per-thread architectural state. */
    static final class Thread {
        final int linear;
        final int lane;
        final Dim3Point tid;
        final int[] r;
        final boolean[] p = new boolean[DecodedOp.PREDS];
        int pc;
        boolean exited;
        int barrier = -1;
        boolean barrierPredicate;
        SassOp barrierOp;
        /** The last BAR.RED's result, read by B2R.RESULT. */
        int barrierResult;
        Region local;
        /** Strict convergence: threads run together only when they share pc and tag (a fresh tag per divergence). */
        int tag;
        /** Waiting at BSYNC Bx (x), at WARPSYNC ({@link #WAIT_WARPSYNC}), or -1. */
        int convWait = -1;
        /** The member mask of the WARPSYNC this thread waits at, or last passed (0: none). */
        int syncMask;
        /** The instruction the thread waits at (for deadlock reports). */
        SassOp waitOp;
        /** Calls entered and not yet returned from: lax mode merges threads at one address only in one frame depth. */
        int callDepth;
        /** LDGSTS copies and groups not yet waited for (created by the first LDGSTS or LDGDEPBAR). */
        org.jptxas.simulator.exec.AsyncCopies copies;

        void reset() {
            copies = null;
            java.util.Arrays.fill(r, 0);
            java.util.Arrays.fill(p, false);
            p[7] = true;
            pc = 0;
            exited = false;
            barrier = -1;
            barrierPredicate = false;
            barrierOp = null;
            barrierResult = 0;
            local = null;
            tag = 0;
            convWait = -1;
            syncMask = 0;
            waitOp = null;
            callDepth = 0;
        }

        Thread(int linear, Dim3Point tid, int registers) {
            this.r = new int[registers];
            this.linear = linear;
            this.lane = linear & 31;
            this.tid = tid;
            p[7] = true;
        }
    }

    static final int WAIT_WARPSYNC = 16;

    /** Per-warp uniform state and convergence barriers. */
    static final class Warp {
        final int[] ur = new int[64];
        final boolean[] up = new boolean[8];
        /** Convergence barriers B0..B15: the lanes BSSY recorded (BREAK and BMOV edit them). */
        final int[] convergence = new int[16];
        /** The reconvergence address BSSY recorded, for messages. */
        final long[] reconvergeAt = new long[16];
        final int base;
        final int count;
        /** Lanes that have exited. */
        int exited;
        int nextTag = 1;
        /** What this warp issued, in order, when the launch records timing traces: pairs of pc and group mask. */
        int[] trace;
        int traceLength;

        Warp(int base, int count) {
            this.base = base;
            this.count = count;
            up[7] = true;
        }

        /** The state of a fresh warp (a block's trace was copied when it ended). */
        void reset() {
            java.util.Arrays.fill(ur, 0);
            java.util.Arrays.fill(up, false);
            up[7] = true;
            java.util.Arrays.fill(convergence, 0);
            java.util.Arrays.fill(reconvergeAt, 0);
            exited = 0;
            nextTag = 1;
            traceLength = 0;
        }

        int lanes() {
            return count == 32 ? -1 : (1 << count) - 1;
        }
    }

    /** Stops the run with a fault. */
    static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Fault fault;

        Stop(Fault fault) {
            super(fault.describe(), null, false, false);
            this.fault = fault;
        }
    }

    private final String executor;
    private final DecodedOp[] code;
    private final Launch launch;
    private final ExecutionLimits limits;
    /** Constant bank 0 as filled (the rest of its 64 KiB reads as zeros, see {@link #cbank}). */
    private final Region cbank0;
    private final int sharedBytes;
    private final int sharedBase;
    private final Region[] banks = new Region[18];
    private static final String[] BANK_NAMES = new String[18];

    static {
        for (int i = 0; i < BANK_NAMES.length; i++) {
            BANK_NAMES[i] = "constant bank " + i;
        }
    }
    /** Which instructions ran (by pc), for the coverage report. */
    private final boolean[] ran;
    private Dim3Point cta;
    Region shared; // package-private: GenericAtomics' ATOMS.CAST.SPIN
    /** This block's place in a cluster launch ({@link ClusterRun}), or null. */
    ClusterRun.Seat seat;
    /** Outstanding warpgroup multiplies per warp. */
    private final WarpgroupOps warpgroupOps = new WarpgroupOps();
    private Thread[] threads;
    /** Threads of an earlier launch with the same block shape and register count, to reset instead of allocating. */
    private Thread[] reusable;
    /** The warps of those threads (taken with them). */
    private Warp[] reusableWarps;
    private int exitedCount;
    private final int[] arrived = new int[16];
    private Warp[] warpState;
    /** Registers per thread (see {@link DecodedOp#zeroSlot}). */
    private final int registers;
    /** Volta semantics without merging by address: groups reconverge only at BSYNC, WARPSYNC, BAR and EXIT. */
    private final boolean strict;
    /** The system call (vprintf, malloc, __assertfail, ...) a code address stands for, if any. */
    private final java.util.function.LongFunction<java.util.Optional<String>> systemCallAt;
    /** Distinct issue traces of the warps (pc sequences) with how many warps ran each, when timing is recorded. */
    private final java.util.Map<Trace, int[]> traces;
    /** Trace entries still allowed (recording stops beyond it, and {@link #tracesTruncated} says so). */
    private long traceBudget = 4_000_000;
    private boolean tracesTruncated;

    /** One warp's issue order (pc and group mask pairs), or one thread's (pcs), compared by content. */
    record Trace(int[] pcs) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Trace t && java.util.Arrays.equals(pcs, t.pcs);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(pcs);
        }

        @Override
        public String toString() {
            return "Trace[" + pcs.length + " instructions]";
        }
    }
    private long warpInstructions;
    private long threadInstructions;

    SassMachine(String executor, DecodedOp[] code, Launch launch, ExecutionLimits limits, int staticShared,
                java.util.Map<Integer, byte[]> otherBanks,
                java.util.function.LongFunction<java.util.Optional<String>> systemCallAt, boolean strict,
                boolean recordTraces) throws LaunchException {
        this.systemCallAt = systemCallAt;
        this.strict = strict;
        this.traces = recordTraces ? new java.util.LinkedHashMap<>() : null;
        for (java.util.Map.Entry<Integer, byte[]> e : otherBanks.entrySet()) {
            if (e.getKey() > 0 && e.getKey() < banks.length) {
                byte[] b = e.getValue(); // read-only: constant banks are never stored to
                banks[e.getKey()] = new Region(BANK_NAMES[e.getKey()], AddressSpace.CONST, 0,
                        b.length >= 16 ? b : java.util.Arrays.copyOf(b, 16));
            }
        }
        // From sm_90 the first KiB of a block's shared window is reserved for the system: ptxas's code addresses
        // shared variables from 0x400 (ULEA of SR_CgaCtaId and 0x400).
        this.sharedBase = launch.target().sm() >= 90 ? 0x400 : 0;
        this.executor = executor;
        this.launch = launch;
        this.limits = limits;
        this.code = code;
        this.ran = new boolean[code.length];
        int zero = 255;
        for (DecodedOp d : code) {
            if (d != null) {
                zero = d.zero;
                break;
            }
        }
        this.registers = DecodedOp.registerFileSize(zero);
        this.cbank0 = new Region("constant bank 0", AddressSpace.CONST, 0, withWindows(launch.naturalConstantBank0(STACK_BYTES)));
        this.sharedBytes = ((staticShared + 15) & ~15) + launch.dynamicSharedBytes();
    }

    /** Offers the threads of an earlier launch for reuse (taken when the block shape and register count match). */
    void reuse(Thread[] earlier, Warp[] earlierWarps) {
        this.reusable = earlier;
        this.reusableWarps = earlierWarps;
    }

    /** This launch's threads, for {@link #reuse} by a later launch once this one has finished. */
    /** This launch's warps, for {@link #reuse} with its threads. */
    Warp[] warps() {
        return warpState;
    }

    Thread[] threads() {
        return threads;
    }

    private static boolean fits(Thread[] t, Dim3 block, int registers) {
        if (t.length != block.count() || t[0].r.length != registers) {
            return false;
        }
        Dim3Point last = t[t.length - 1].tid;
        return last.x() == block.x() - 1 && last.y() == block.y() - 1 && last.z() == block.z() - 1;
    }

    /** Which instructions of the code ran, by pc (the launch's contribution to the coverage report). */
    boolean[] ran() {
        return ran;
    }

    static String className(SassOp o) {
        return o.fullName();
    }

    LaunchResult run() {
        Dim3 grid = launch.grid();
        try {
            for (long c = 0; c < grid.count(); c++) {
                runCta(grid.point(c));
            }
        } catch (Stop s) {
            return LaunchResult.faulted(executor, s.fault, warpInstructions, threadInstructions);
        }
        return LaunchResult.completed(executor, warpInstructions, threadInstructions);
    }

    ThreadRef ref(Thread t) {
        return new ThreadRef(cta, t.tid);
    }

    /** Hopper's mbarrier and bulk-copy state of the running block ({@link HopperAsyncOps}). */
    private HopperAsyncOps hopper() {
        if (hopper == null || !hopper.serves(shared)) {
            hopper = new HopperAsyncOps(shared, launch.global(), this);
        }
        return hopper;
    }

    private HopperAsyncOps hopper;

    private void runCta(Dim3Point p) {
        startCta(p);
        while (!ctaFinished()) {
            if (!sweep()) {
                deadlocked();
            }
        }
        finishCta();
    }

    void startCta(Dim3Point p) {
        cta = p;
        // the reserved KiB is not part of the region: code that stores there (below 0x400 from sm_90 on) faults
        shared = new Region("shared memory", AddressSpace.SHARED, sharedBase, sharedBytes);
        int n = (int) launch.block().count();
        if (threads == null && reusable != null && fits(reusable, launch.block(), registers)) {
            threads = reusable;
            warpState = reusableWarps; // same block shape: the same warps (reset below)
            for (Thread t : threads) {
                t.reset();
            }
        } else if (threads == null) {
            threads = new Thread[n];
            int bx = launch.block().x(), bxy = bx * launch.block().y(); // a block has at most 1024 threads
            for (int i = 0; i < n; i++) {
                threads[i] = new Thread(i, new Dim3Point(i % bx, i % bxy / bx, i / bxy), registers);
            }
        } else { // the next block of the grid: the same threads, reset
            for (Thread t : threads) {
                t.reset();
            }
        }
        exitedCount = 0;
        java.util.Arrays.fill(arrived, 0);
        int warps = (n + 31) / 32;
        if (warpState == null) {
            warpState = new Warp[warps];
            for (int w = 0; w < warps; w++) {
                warpState[w] = new Warp(w * 32, Math.min(32, n - w * 32));
                if (traces != null) {
                    warpState[w].trace = new int[64];
                }
            }
        } else { // the next block of the grid, or a reused launch's warps: reset
            for (Warp w : warpState) {
                w.reset();
                if (traces != null && w.trace == null) {
                    w.trace = new int[64];
                }
            }
        }
    }

    boolean ctaFinished() {
        return exitedCount == threads.length;
    }

    /** One round over the block's warps: whether any moved. */
    boolean sweep() {
        boolean progress = false;
        for (Warp w : warpState) {
            progress |= runWarp(w);
        }
        return progress;
    }

    void deadlocked() {
        throw new Stop(new Fault.BarrierDeadlock(cta, DeadlockReport.describe(threads, warpState, exitedCount, ref(
                java.util.Arrays.stream(threads).filter(t -> !t.exited).findFirst().orElse(threads[0])))));
    }

    void finishCta() {
        if (traces != null) {
            for (Warp w : warpState) {
                traces.computeIfAbsent(new Trace(java.util.Arrays.copyOf(w.trace, w.traceLength)), k -> new int[1])[0]++;
            }
        }
    }

    /** The distinct warp issue traces of the launch and how many warps ran each (empty unless recorded). */
    java.util.Map<Trace, int[]> traces() {
        return traces == null ? java.util.Map.of() : traces;
    }

    boolean tracesTruncated() {
        return tracesTruncated;
    }

    private void record(Warp w, int pc, int group) {
        if (traceBudget <= 0) {
            tracesTruncated = true;
            return;
        }
        traceBudget--;
        if (w.traceLength + 2 > w.trace.length) {
            w.trace = java.util.Arrays.copyOf(w.trace, w.trace.length * 2);
        }
        w.trace[w.traceLength++] = pc;
        w.trace[w.traceLength++] = group;
    }

    private static boolean ready(Thread t) {
        return !t.exited && t.barrier < 0 && t.convWait < 0;
    }

    /**
     * Runs one warp for up to a quantum of instructions. Lax mode: the group at the lowest address, all ready
     * threads there at the same call depth (merging by address, never across frames of a recursion). Strict mode: a group is the ready threads sharing pc and tag; the current
     * group runs on until it branches or blocks, then the group at the highest address (lowest tag, lowest lane)
     * is picked: a deterministic order that exposes code relying on reconvergence it did not ask for.
     */
    private boolean runWarp(Warp warp) {
        int base = warp.base, count = warp.count;
        int steps = 0;
        int group = 0, pc = 0, nextOther = 0;
        boolean valid = false, pcMoved = false;
        while (steps < QUANTUM) {
            if (!valid && !strict) {
                // Lax, in one pass: the ready threads of the deepest call at the lowest address there (as better()
                // orders them), and the lowest address of the other ready threads.
                int depth = Integer.MIN_VALUE, lowest = Integer.MAX_VALUE, at = 0, other = Integer.MAX_VALUE;
                for (int l = 0; l < count; l++) {
                    Thread t = threads[base + l];
                    if (ready(t)) {
                        int p = t.pc, dd = t.callDepth;
                        if (dd > depth || dd == depth && p < lowest) {
                            if (at != 0) {
                                other = Math.min(other, lowest);
                            }
                            depth = dd;
                            lowest = p;
                            at = 1 << l;
                        } else if (dd == depth && p == lowest) {
                            at |= 1 << l;
                        } else {
                            other = Math.min(other, p);
                        }
                    }
                }
                if (at == 0) {
                    break;
                }
                pc = lowest;
                group = at;
                nextOther = other;
            } else if (!valid) {
                int chosen = -1;
                for (int l = 0; l < count; l++) {
                    Thread t = threads[base + l];
                    if (ready(t) && (chosen < 0 || better(t, threads[base + chosen]))) {
                        chosen = l;
                    }
                }
                if (chosen < 0) {
                    break;
                }
                Thread c = threads[base + chosen];
                pc = c.pc;
                group = 0;
                nextOther = Integer.MAX_VALUE;
                for (int l = 0; l < count; l++) {
                    Thread t = threads[base + l];
                    if (ready(t)) {
                        if (t.pc == pc && (strict ? t.tag == c.tag : t.callDepth == c.callDepth)) {
                            group |= 1 << l;
                        } else {
                            nextOther = Math.min(nextOther, t.pc);
                        }
                    }
                }
            }
            DecodedOp d = fetch(pc, base, group, warp);
            steps++;
            DecodedOp.Kind k = d.kind;
            if (k.straightLine) {
                // Straight-line code: the group moves to pc + 1 and stays the next pick. Its threads' pcs are
                // written back only when the group changes or slow semantics run (pcMoved).
                try {
                    FastPath.run(this, d, threads, base, guarded(d, base, group), warp);
                } catch (MemoryAccessException | Stop | ClassCastException | IndexOutOfBoundsException e) {
                    throw fault(e, d.op, threads[base + Integer.numberOfTrailingZeros(group)]);
                }
                pc++;
                pcMoved = true;
                valid = strict || nextOther > pc;
                if (!valid) {
                    setPc(base, group, pc);
                    pcMoved = false;
                }
            } else {
                if (pcMoved) {
                    setPc(base, group, pc);
                    pcMoved = false;
                }
                switch (k) {
                    case BRA -> FastPath.branch(d, threads, base, group, guarded(d, base, group), pc);
                    case BAR_SYNC -> barrierSync(d.aux, base, group, guarded(d, base, group));
                    case EXIT -> exit(warp, group, guarded(d, base, group));
                    default -> execute(d, pc, base, count, group, warp);
                }
                if (strict || k == DecodedOp.Kind.BRA) {
                    splitDiverged(warp, group);
                }
                valid = false;
            }
        }
        if (pcMoved) {
            setPc(base, group, pc);
        }
        return steps > 0;
    }

    /**
     * Lax: the deepest call first (a callee's threads finish before their callers' other threads go on, as on a
     * reconvergence stack: callers and callees share the convergence barrier registers), then lowest pc. Strict:
     * highest pc first, then lowest tag (lanes in order).
     */
    private boolean better(Thread t, Thread best) {
        if (!strict) {
            return t.callDepth > best.callDepth || t.callDepth == best.callDepth && t.pc < best.pc;
        }
        return t.pc > best.pc || t.pc == best.pc && t.tag < best.tag;
    }

    /** After a branch: threads of one group now at different addresses get distinct tags (one keeps the old one). */
    private void splitDiverged(Warp w, int group) {
        int rest = 0;
        for (int k = group; k != 0; k &= k - 1) {
            int l = Integer.numberOfTrailingZeros(k);
            if (ready(threads[w.base + l])) {
                rest |= 1 << l;
            }
        }
        boolean first = true;
        while (rest != 0) {
            int pc = threads[w.base + Integer.numberOfTrailingZeros(rest)].pc;
            int tag = first ? threads[w.base + Integer.numberOfTrailingZeros(rest)].tag : w.nextTag++;
            for (int k = rest; k != 0; k &= k - 1) {
                int l = Integer.numberOfTrailingZeros(k);
                Thread t = threads[w.base + l];
                if (t.pc == pc) {
                    t.tag = tag;
                    rest &= ~(1 << l);
                }
            }
            first = false;
        }
    }

    /** The group's threads are at {@code pc} (straight-line fast-path code leaves their pcs behind). */
    private void setPc(int base, int group, int pc) {
        for (int k = group; k != 0; k &= k - 1) {
            threads[base + Integer.numberOfTrailingZeros(k)].pc = pc;
        }
    }

    /** The lanes of {@code group} whose guard predicate holds (fast-path instructions: a per-thread guard or PT). */
    private int guarded(DecodedOp d, int base, int group) {
        int g = d.guard;
        if (g == 7) {
            return d.guardNegated ? 0 : group;
        }
        boolean gn = d.guardNegated;
        int act = 0;
        for (int k = group; k != 0; k &= k - 1) {
            int l = Integer.numberOfTrailingZeros(k);
            if (threads[base + l].p[g] != gn) {
                act |= 1 << l;
            }
        }
        return act;
    }

    /** The instruction at {@code pc}, counted (limits, statistics, trace, coverage) as issued for {@code group}. */
    private DecodedOp fetch(int pc, int base, int group, Warp warp) {
        if (pc >= code.length || code[pc] == null) {
            throw new Stop(new Fault.InvalidExecution(ref(threads[base + Integer.numberOfTrailingZeros(group)]),
                    String.format("0x%04x", pc * 16L), "execution ran off the end of the kernel's code"));
        }
        DecodedOp d = code[pc];
        if (++warpInstructions > limits.maxWarpInstructions()) {
            throw new Stop(new Fault.StepLimitExceeded(limits.maxWarpInstructions(),
                    ref(threads[base + Integer.numberOfTrailingZeros(group)]), d.op.where()));
        }
        threadInstructions += Integer.bitCount(group);
        if (warp.trace != null) {
            record(warp, pc, group);
        }
        ran[pc] = true;
        return d;
    }

    /** Runs an instruction the fast path leaves to the per-thread semantics (threads' pcs are current). */
    private void execute(DecodedOp d, int pc, int base, int count, int group, Warp warp) {
        Thread first = threads[base + Integer.numberOfTrailingZeros(group)];
        SassOp op = d.op;
        try {
            if (d.convergenceOp || d.collective) {
                int active = 0;
                for (int k = group; k != 0; k &= k - 1) {
                    int l = Integer.numberOfTrailingZeros(k);
                    Thread t = threads[base + l];
                    boolean g = op.guardUniform() ? warp.up[op.guard()] != op.guardNegated() : t.p[op.guard()] != op.guardNegated();
                    if (g) {
                        active |= 1 << l;
                    }
                }
                if (d.convergenceOp) {
                    convergence(op, group, active, warp);
                } else {
                    checkConverged(op, group, active, warp);
                    warpCollective(op, base, count, group, warp);
                }
                return;
            }
            if (op.opcode().equals("BRA") && op.modifiers().equals(List.of("DIV")) && op.operands().size() == 2
                    && op.operands().get(0) instanceof UReg
                    && op.operands().get(1) instanceof SassOperand.Target target) {
                // BRA.DIV URm: to the slow path only where threads of mask URm are not all here (diverged); a warp
                // converged on the mask takes the fast path, as the hardware does
                int mask = read(op.operands().get(0), first, warp);
                boolean diverged = (group & mask) != mask;
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        Thread t = threads[base + l];
                        boolean g = op.guardUniform() ? warp.up[op.guard()] != op.guardNegated()
                                : t.p[op.guard()] != op.guardNegated();
                        t.pc = g && diverged ? (int) (target.address() / 16) : t.pc + 1;
                    }
                }
                return;
            }
            if (seat != null && op.opcode().startsWith("UCGABAR_")) { // cluster barrier: ClusterRun
                seat.run().barrier(this, op, threads, base, count, group);
                return;
            }
            if (HopperAsyncOps.isBranchAny(op)) { // BRA.U.ANY: the group branches together if any lane's guard holds
                HopperAsyncOps.branchAny(op, threads, base, count, group);
                return;
            }
            if (op.guardUniform()) {
                boolean g = warp.up[op.guard()] != op.guardNegated();
                if (g && d.uniformOp) { // @UPn on the uniform datapath (sm_90 ptxas): once for the warp
                    uniform(op, first, warp);
                    g = false;
                }
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        Thread t = threads[base + l];
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
                    uniform(op, first, warp);
                }
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        threads[base + l].pc++;
                    }
                }
            } else {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        Thread t = threads[base + l];
                        if (t.p[op.guard()] != op.guardNegated()) {
                            step(op, t, warp);
                        } else {
                            t.pc++;
                        }
                    }
                }
            }
            if (d.exit) {
                afterExit(warp);
            }
            return;
        } catch (MemoryAccessException | Stop | ClassCastException | IndexOutOfBoundsException e) {
            throw fault(e, op, first);
        }
    }

    /** What an exception raised while {@code op} ran for {@code first}'s group means for the launch. */
    private Stop fault(RuntimeException e, SassOp op, Thread first) {
        if (e instanceof MemoryAccessException m) {
            return new Stop(new Fault.MemoryFault(ref(first), op.where(), m));
        }
        if (e instanceof Stop s) {
            if (s.fault instanceof Fault.Unimplemented u && u.instruction().isEmpty()) {
                return new Stop(new Fault.Unimplemented(op.fullName() + " (" + u.name() + ")", op.where()));
            }
            return s;
        }
        // An operand form the emulator's semantics for this opcode do not cover: stop by name, never guess.
        return new Stop(new Fault.Unimplemented(op.fullName() + " (this operand form)", op.where()));
    }

    /** SHFL, VOTE, REDUX, MATCH and LDSM over the group's threads whose guard holds (the converged, active threads). */
    private void warpCollective(SassOp op, int base, int count, int group, Warp w) {
        List<SassOperand> o = op.operands();
        int active = 0;
        for (int l = 0; l < count; l++) {
            if ((group >>> l & 1) != 0) {
                Thread t = threads[base + l];
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
                        src[l] = read(o.get(2), threads[base + l], w);
                    }
                }
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) == 0) {
                        continue;
                    }
                    Thread t = threads[base + l];
                    int b = read(o.get(3), t, w) & 0x1f, c = read(o.get(4), t, w);
                    int segmask = (c >>> 8) & 0x1f, clamp = c & 0x1f;
                    int maxLane = (l & segmask) | (clamp & ~segmask), minLane = l & segmask;
                    int j;
                    boolean ok;
                    switch (mode) {
                        case "UP" -> { j = l - b; ok = j >= maxLane; }
                        case "DOWN" -> { j = l + b; ok = j <= maxLane; }
                        case "BFLY" -> { j = l ^ b; ok = j <= maxLane; }
                        case "IDX" -> { j = minLane | (b & ~segmask); ok = j <= maxLane; }
                        default -> throw unimplemented(op);
                    }
                    if (!ok) {
                        j = l;
                    }
                    if ((active >>> j & 1) == 0) {
                        throw new Stop(new Fault.InvalidExecution(ref(t), op.where(),
                                "SHFL reads lane " + j + ", which is not active (undefined)"));
                    }
                    writeR(t, o.get(1), src[j]);
                    if (o.get(0) instanceof Pred) {
                        writeP(t, o.get(0), ok);
                    }
                }
            }
            case "VOTE", "VOTEU" -> {
                String mode = op.modifiers().get(0);
                SassOperand in = o.get(o.size() - 1);
                int ballot = 0;
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) != 0 && pred(in, threads[base + l], w)) {
                        ballot |= 1 << l;
                    }
                }
                boolean r = switch (mode) {
                    case "ANY" -> ballot != 0;
                    case "ALL" -> ballot == active;
                    case "EQ" -> ballot == 0 || ballot == active;
                    default -> throw unimplemented(op);
                };
                if (op.opcode().equals("VOTEU")) {
                    if (o.get(0) instanceof UReg) {
                        writeU(w, o.get(0), ballot);
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
                        Thread t = threads[base + l];
                        if (o.get(0) instanceof Reg) {
                            writeR(t, o.get(0), ballot);
                            if (o.size() == 3) {
                                writeP(t, o.get(1), r);
                            }
                        } else {
                            writeP(t, o.get(0), r);
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
                    int x = read(o.get(1), threads[base + l], w);
                    long v = signed ? x : Integer.toUnsignedLong(x);
                    acc = switch (mode) {
                        case "SUM" -> acc + v;
                        case "MIN" -> Math.min(acc, v);
                        case "MAX" -> Math.max(acc, v);
                        case "AND" -> acc & v;
                        case "OR" -> acc | v;
                        case "XOR" -> acc ^ v;
                        default -> throw unimplemented(op);
                    };
                }
                if (!(o.get(0) instanceof UReg)) {
                    throw unimplemented(op);
                }
                writeU(w, o.get(0), (int) acc);
            }
            case "R2UR" -> { // R2UR Pd, URd, Ra: Pd (every active lane) says whether Ra is the same in all of them;
                // ptxas tests it to take a membermask's fast path, else the slow one through BRA.DIV
                Integer first = null;
                boolean same = true;
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) != 0) {
                        int x = read(o.get(2), threads[base + l], w);
                        same &= first == null || x == first;
                        first = first == null ? x : first;
                    }
                }
                for (int l = 0; l < count; l++) {
                    if ((active >>> l & 1) != 0) {
                        writeP(threads[base + l], o.get(0), same);
                    }
                }
                if (first != null) {
                    writeU(w, o.get(1), first);
                }
            }
            case "MATCH" -> match(op, base, count, active, w);
            case "LDSM" -> ldsm(op, base, count, active, w);
            case "ELECT", "STSM" -> hopper().collective(op, threads, base, count, active, w);
            case "HMMA", "IMMA", "DMMA" -> matrixMultiply(op, base, count, active);
            case "HGMMA", "WARPGROUP", "USETMAXREG" -> warpgroup(op, w, count, active);
            default -> throw unimplemented(op);
        }
        for (int l = 0; l < count; l++) {
            if ((group >>> l & 1) != 0) {
                threads[base + l].pc++;
            }
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
                throw unimplemented(op);
            }
        }
        if (!op.has("16") || trans == op.has("M88") || op.has("2") && op.has("4") || o.size() != 2
                || !(o.get(0) instanceof Reg d) || d.negate() || d.abs() || d.invert() || !d.suffix().isEmpty()
                || !(o.get(1) instanceof Mem m)) {
            throw unimplemented(op);
        }
        if (active == 0) {
            return;
        }
        int[][] rows = new int[8 * n][];
        for (int r = 0; r < 8 * n; r++) {
            if (r >= count || (active >>> r & 1) == 0) {
                Thread t = threads[base + Integer.numberOfTrailingZeros(active)];
                throw new Stop(new Fault.InvalidExecution(ref(t), op.where(), "LDSM reads row " + (r & 7)
                        + " of matrix " + r / 8 + " from lane " + r + ", which is not active (undefined)"));
            }
            Thread t = threads[base + r];
            long a = address(m, t, w, false) & 0xffffffffL; // Ra + imm (+ UR) as a 32-bit shared address
            try {
                rows[r] = shared.load128(a);
            } catch (MemoryAccessException e) {
                throw new Stop(new Fault.MemoryFault(ref(t), op.where(), e));
            }
        }
        if (d.index() == 255) {
            return;
        }
        for (int l = 0; l < count; l++) {
            if ((active >>> l & 1) == 0) {
                continue;
            }
            Thread t = threads[base + l];
            for (int i = 0; i < n; i++) {
                t.r[d.index() + i] = MatrixFragments.of(rows, 8 * i, l, trans);
            }
        }
    }

    /**
     * LDGSTS, LDGDEPBAR and {@code DEPBAR.LE SB0, n} ({@link AsyncCopyOps}); a DEPBAR that names no copy group waits for
     * scoreboards only, which the emulator's in-order execution has already satisfied.
     */
    private void asyncCopy(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        switch (op.opcode()) {
            case "LDGSTS" -> {
                if (t.copies == null) {
                    t.copies = new org.jptxas.simulator.exec.AsyncCopies();
                }
                boolean read = o.size() < 3 || pred(o.get(2), t, w);
                AsyncCopyOps.ldgsts(op, t.copies, shared, launch.global(),
                        address((Mem) o.get(0), t, w, false) & 0xffffffffL, address((Mem) o.get(1), t, w, true), read);
            }
            case "LDGDEPBAR" -> {
                if (t.copies == null) {
                    t.copies = new org.jptxas.simulator.exec.AsyncCopies();
                }
                t.copies.commit();
            }
            default -> {
                int pending = AsyncCopyOps.copyGroupWait(op);
                if (pending >= 0 && t.copies != null) {
                    t.copies.waitFor(pending);
                }
            }
        }
        t.pc++;
    }

    /** Hopper's warpgroup instructions ({@link WarpgroupOps}), for the whole warp. */
    private void warpgroup(SassOp op, Warp w, int count, int active) {
        Thread first = threads[w.base + Integer.numberOfTrailingZeros(active == 0 ? 1 : active)];
        if (active == 0) {
            return;
        }
        if (active != -1 || count != 32) {
            throw new Stop(new Fault.InvalidExecution(ref(first), op.where(), op.opcode() + " needs all 32 lanes"));
        }
        int[][] regs = new int[32][];
        for (int l = 0; l < 32; l++) {
            regs[l] = threads[w.base + l].r;
        }
        try {
            if (!warpgroupOps.execute(op, w, regs, w.ur, w.up, w.base / 32 % 4, shared)) {
                throw unimplemented(op);
            }
        } catch (WarpgroupOps.WarpgroupFault e) {
            throw new Stop(new Fault.InvalidExecution(ref(first), op.where(), e.getMessage()));
        }
    }

    /** HMMA/IMMA/DMMA ({@link MatrixMultiplyOps}): the whole warp or none of it (a partial warp is undefined). */
    private void matrixMultiply(SassOp op, int base, int count, int active) {
        org.jptxas.simulator.exec.WarpMma.Spec s = MatrixMultiplyOps.spec(op);
        if (s == null) {
            throw unimplemented(op);
        }
        if (active == 0) {
            return;
        }
        if (active != -1 || count != 32) {
            throw new Stop(new Fault.InvalidExecution(ref(threads[base + Integer.numberOfTrailingZeros(active)]),
                    op.where(), op.opcode() + " needs all 32 lanes of the warp (executing: 0x"
                    + Integer.toHexString(active) + ")"));
        }
        int[][] regs = new int[32][];
        for (int l = 0; l < 32; l++) {
            regs[l] = threads[base + l].r;
        }
        MatrixMultiplyOps.execute(op, s, regs);
    }

    /** {@code RET.ABS}'s operands as printed: the register of the return-address pair and an offset. */
    private static final java.util.regex.Pattern RET_ABS = java.util.regex.Pattern.compile("R(\\d+) (0x[0-9a-fA-F]+|\\d+)");

    /** The instruction index of code address {@code address} (a jump target); outside the code is a fault. */
    private int codeIndex(long address, SassOp op, Thread t) {
        if (address < 0 || address % 16 != 0 || address / 16 >= code.length) {
            throw new Stop(new Fault.InvalidExecution(ref(t), op.where(),
                    "jump to 0x" + Long.toHexString(address) + ", outside the code"));
        }
        return (int) (address / 16);
    }

    private Stop unimplemented(SassOp op) {
        if (op.opcode().equals(SassListing.UNKNOWN)) {
            return new Stop(new Fault.Unimplemented("UNKNOWN (bits jptxas's SASS decoder does not know)", op.where()));
        }
        return new Stop(new Fault.Unimplemented(op.fullName(), op.where()));
    }

    // ------------------------------------------------------------------ convergence (Volta independent threads)

    private static int exitedMask(Warp w) {
        return w.exited;
    }

    private void advance(Warp w, int lanes) {
        for (int k = lanes; k != 0; k &= k - 1) {
            threads[w.base + Integer.numberOfTrailingZeros(k)].pc++;
        }
    }

    private static int barrierIndex(SassOperand o, SassOp op) {
        if (o instanceof SassOperand.Other b) {
            String text = b.text();
            int n = text.length() > 1 && text.length() <= 3 && text.charAt(0) == 'B' ? 0 : -1;
            for (int i = 1; n >= 0 && i < text.length(); i++) {
                char c = text.charAt(i);
                n = c >= '0' && c <= '9' ? n * 10 + (c - '0') : -1;
            }
            if (n >= 0 && n < 16) {
                return n;
            }
        }
        throw new Stop(new Fault.Unimplemented(op.fullName() + " (operand " + o + ")", op.where()));
    }

    /**
     * BSSY records the executing threads in a convergence barrier; BSYNC waits until every recorded thread that has
     * not exited arrives; BREAK drops threads from it; BMOV saves, restores or clears it; WARPSYNC waits for the
     * threads of its member mask (at any WARPSYNC). Released threads continue as one group.
     */
    private void convergence(SassOp op, int group, int active, Warp w) {
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
                    Thread t = threads[w.base + Integer.numberOfTrailingZeros(k)];
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
                        if (pred(o.get(0), threads[w.base + l], w)) {
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
                    throw unimplemented(op);
                }
                if (o.get(0) instanceof SassOperand.Other) { // BMOV.32 Bx, Ra: restore a saved barrier
                    int b = barrierIndex(o.get(0), op);
                    if (active != 0) {
                        w.convergence[b] = read(o.get(1), threads[w.base + Integer.numberOfTrailingZeros(active)], w);
                    }
                    advance(w, group);
                    releaseConvergence(w, b);
                } else { // BMOV.32{.CLEAR} Rd, Bx: save (and clear) a barrier
                    int b = barrierIndex(o.get(1), op);
                    int v = w.convergence[b];
                    for (int k = active; k != 0; k &= k - 1) {
                        writeR(threads[w.base + Integer.numberOfTrailingZeros(k)], o.get(0), v);
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
                    Thread t = threads[w.base + l];
                    int mask = op.has("ALL") || o.isEmpty() ? -1 : read(o.get(0), t, w);
                    t.syncMask = mask | 1 << l;
                    t.convWait = WAIT_WARPSYNC;
                    t.waitOp = op;
                }
                advance(w, group & ~active);
                releaseWarpSync(w);
            }
            default -> throw unimplemented(op);
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
            if (threads[w.base + l].convWait == b) {
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
            Thread t = threads[w.base + Integer.numberOfTrailingZeros(k)];
            t.convWait = -1;
            t.waitOp = null;
            t.syncMask = 0;
            t.tag = tag;
            t.pc++;
        }
    }

    /** Releases the threads waiting at WARPSYNC whose member masks (live threads) have all arrived. */
    private void releaseWarpSync(Warp w) {
        int waiting = 0;
        for (int l = 0; l < w.count; l++) {
            if (threads[w.base + l].convWait == WAIT_WARPSYNC) {
                waiting |= 1 << l;
            }
        }
        if (waiting == 0) {
            return;
        }
        int live = w.lanes() & ~exitedMask(w), release = 0;
        for (int k = waiting; k != 0; k &= k - 1) {
            int l = Integer.numberOfTrailingZeros(k);
            if ((threads[w.base + l].syncMask & live & ~waiting) == 0) {
                release |= 1 << l;
            }
        }
        int tag = w.nextTag++;
        for (int k = release; k != 0; k &= k - 1) {
            Thread t = threads[w.base + Integer.numberOfTrailingZeros(k)];
            t.convWait = -1;
            t.waitOp = null;
            t.tag = tag;
            t.pc++;
        }
    }

    /** Exited threads no longer hold back the convergence barriers and WARPSYNCs of their warp. */
    private void afterExit(Warp w) {
        boolean waiting = false;
        for (int l = 0; l < w.count && !waiting; l++) {
            waiting = threads[w.base + l].convWait >= 0;
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
    private void checkConverged(SassOp op, int group, int active, Warp w) {
        List<SassOperand> o = op.operands();
        if (active == 0 || op.opcode().equals("ELECT") // elects among the active threads: no member mask
                || op.opcode().startsWith("VOTE") && o.get(o.size() - 1) instanceof Pred p && p.index() == 7
                && !p.negated()) {
            return; // VOTE{U}.ANY d, PT, PT is activemask: defined in divergent code
        }
        Thread first = threads[w.base + Integer.numberOfTrailingZeros(active)];
        int mask = first.syncMask != 0 ? first.syncMask : strict ? -1 : 0;
        int missing = mask & w.lanes() & ~exitedMask(w) & ~group;
        if (missing != 0) {
            Thread absent = threads[w.base + Integer.numberOfTrailingZeros(missing)];
            throw new Stop(new Fault.InvalidExecution(ref(first), op.where(), String.format(
                    "%s with member mask 0x%08x names thread(s) 0x%08x not converged with this group 0x%08x "
                    + "(e.g. lane %d at 0x%04x)", op.opcode(), mask, missing, group, absent.lane, absent.pc * 16L)));
        }
    }

    // ------------------------------------------------------------------ operand access

    int read(SassOperand o, Thread t, Warp w) {
        if (o instanceof Reg r) {
            int v = r.index() == 255 ? 0 : t.r[r.index()];
            if (r.suffix().equals("H1")) {
                v >>>= 16;
            } else if (r.suffix().equals("H0")) {
                v &= 0xffff;
            }
            if (r.invert()) {
                v = ~v;
            }
            return r.negate() ? -v : v;
        }
        if (o instanceof UReg u) {
            int v = u.index() == 63 ? 0 : w.ur[u.index()];
            if (u.invert()) {
                v = ~v;
            }
            return u.negate() ? -v : v;
        }
        if (o instanceof Imm i) {
            return i.floating() ? Float.floatToRawIntBits((float) i.value()) : (int) i.bits();
        }
        if (o instanceof CBank c) {
            if (c.abs()) {
                throw new Stop(new Fault.Unimplemented("|c[..]| as an integer operand", ""));
            }
            int v = (int) cbank(c, t, 4);
            return c.negate() ? -v : v;
        }
        throw new Stop(new Fault.Unimplemented("operand " + o, ""));
    }

    /** A constant-bank word at a fixed address (no base register). */
    long constant(CBank c, int size) {
        return cbank(c, null, size);
    }

    Dim3Point cta() {
        return cta;
    }

    Region sharedRegion() {
        return shared;
    }

    /** Warp and thread instructions executed so far. */
    long[] counts() {
        return new long[] {warpInstructions, threadInstructions};
    }

    org.jptxas.simulator.memory.GlobalMemory globalMemory() {
        return launch.global();
    }

    private long cbank(CBank c, Thread t, int size) {
        Region bank = c.bank() == 0 ? cbank0 : c.bank() < banks.length ? banks[c.bank()] : null;
        if (bank == null) {
            throw new Stop(new Fault.Unimplemented("constant bank " + c.bank() + " (not in the cubin)", ""));
        }
        long addr = c.offset() + (c.baseReg() >= 0 && c.baseReg() != 255 ? Integer.toUnsignedLong(t.r[c.baseReg()]) : 0);
        if (bank == cbank0 && addr >= cbank0.size() && addr <= CBANK0_BYTES - size && (addr & (size - 1)) == 0) {
            return 0; // the unfilled part of bank 0's 64 KiB window (allocated only as far as the driver fills it)
        }
        return bank.load(addr, size);
    }

    /** A float source with |x| and -x applied on the value. */
    private float readF(SassOperand o, Thread t, Warp w) {
        if (o instanceof UReg u && u.negate()) {
            return -Float.intBitsToFloat(u.index() == 63 ? 0 : w.ur[u.index()]);
        }
        if (o instanceof CBank c && (c.negate() || c.abs())) {
            float f = Float.intBitsToFloat((int) cbank(c, t, 4));
            if (c.abs()) {
                f = Math.abs(f);
            }
            return c.negate() ? -f : f;
        }
        if (o instanceof Reg r && (r.abs() || r.negate())) {
            float f = Float.intBitsToFloat(r.index() == 255 ? 0 : t.r[r.index()]);
            if (r.abs()) {
                f = Math.abs(f);
            }
            return r.negate() ? -f : f;
        }
        if (o instanceof Imm i && i.floating()) {
            return (float) i.value();
        }
        if (o instanceof Imm i) {
            return Float.intBitsToFloat((int) i.bits());
        }
        return Float.intBitsToFloat(read(o, t, w));
    }

    private boolean pred(SassOperand o, Thread t, Warp w) {
        if (o instanceof Pred p) {
            return t.p[p.index()] != p.negated();
        }
        if (o instanceof UPred p) {
            return w.up[p.index()] != p.negated();
        }
        throw new Stop(new Fault.Unimplemented("predicate operand " + o, ""));
    }

    static void writeR(Thread t, SassOperand d, int v) {
        int i = ((Reg) d).index();
        if (i != 255) {
            t.r[i] = v;
        }
    }

    static void writeR64(Thread t, SassOperand d, long v) {
        int i = ((Reg) d).index();
        if (i != 255) {
            t.r[i] = (int) v;
            t.r[i + 1] = (int) (v >>> 32);
        }
    }

    private static void writeP(Thread t, SassOperand d, boolean v) {
        int i = ((Pred) d).index();
        if (i != 7) {
            t.p[i] = v;
        }
    }

    /** {@code wideDefault}: global accesses with {@code .E} take a 64-bit register pair even without {@code .64}. */
    long address(Mem m, Thread t, Warp w, boolean wideDefault) {
        long a = m.offset();
        if (m.reg() >= 0) {
            a += m.wide() || wideDefault && !m.zeroExtended() ? pair(t, m.reg())
                    : Integer.toUnsignedLong(t.r[m.reg()]) * m.scale();
        }
        if (m.ureg() >= 0) {
            a += m.wide() || m.reg() < 0 && wideDefault || m.zeroExtended() ? (Integer.toUnsignedLong(w.ur[m.ureg()]) | (long) w.ur[m.ureg() + 1] << 32)
                    : Integer.toUnsignedLong(w.ur[m.ureg()]);
        }
        return a;
    }

    private static boolean wideGlobal(SassOp op) {
        return (op.opcode().endsWith("G") || op.opcode().equals("RED")) && op.has("E");
    }

    private static int accessSize(SassOp op) {
        for (String m : op.modifiers()) {
            switch (m) {
                case "U8", "S8": return 1;
                case "U16", "S16": return 2;
                case "64": return 8;
                case "128": return 16;
                default: break;
            }
        }
        return 4;
    }

    private static boolean signedAccess(SassOp op) {
        return op.has("S8") || op.has("S16");
    }

    // ------------------------------------------------------------------ semantics

    /** {@link #step} for LEPC (kept out of step so that step stays small enough to be compiled). */
    private void lepc(SassOp op, List<SassOperand> o, Thread t) {
        // the code address of the label it names (sm_90+), else its own (ptxas adds the distance to the
        // return point: IADD3 R20, P0, P1, -R20(LEPC's address), R9(return point), R14(LEPC))
        long address = o.size() > 1 && o.get(1) instanceof SassOperand.Target target ? target.address()
                : 16L * t.pc;
        writeR64(t, o.get(0), address);
        t.pc++;
    }

    /** {@link #step} for CALL (kept out of step so that step stays small enough to be compiled). */
    private void call(SassOp op, List<SassOperand> o, Thread t) {
        // the caller already put the return address in a register
        t.callDepth++;
        if (op.has("ABS") && o.size() == 1 && o.get(0) instanceof SassOperand.Target target) {
            // CALL.ABS.NOINC `(f): the address the driver gave f (its relocation, in a linked module's image)
            t.pc = codeIndex(target.address(), op, t);
        } else if (op.has("ABS") && o.size() == 1 && o.get(0) instanceof Reg r) {
            // CALL.ABS.NOINC R2: to the 64-bit address in the pair, a system call's loaded from bank 4
            long address = pair(t, r.index());
            java.util.Optional<String> system = systemCallAt.apply(address);
            if (system.isPresent()) {
                throw new Stop(system.get().equals("__assertfail")
                        ? new Fault.Trap(ref(t), op.where() + ": device-side assert failed")
                        : new Fault.Unimplemented("system call " + system.get(), op.where()));
            }
            t.pc = codeIndex(address, op, t);
        } else if (op.has("REL") && o.size() == 1 && o.get(0) instanceof Reg r) {
            // CALL.REL.NOINC R6 `(f): through a function address (its offset in the section) in R6
            t.pc = (int) (Integer.toUnsignedLong(t.r[r.index()]) / 16);
        } else if (!op.has("REL") || !(o.get(o.size() - 1) instanceof SassOperand.Target target)) {
            throw unimplemented(op); // calls into other sections, absolute calls
        } else {
            t.pc = (int) (target.address() / 16);
        }
    }

    /** {@link #step} for RET (kept out of step so that step stays small enough to be compiled). */
    private void ret(SassOp op, List<SassOperand> o, Thread t) {
        if (op.has("ABS")) {
            // RET.ABS.NODEC R20 0x0: to the 64-bit address in the register pair plus the offset
            java.util.regex.Matcher m = RET_ABS.matcher(o.size() == 1 && o.get(0) instanceof SassOperand.Other x ? x.text() : "");
            if (!m.matches()) {
                throw unimplemented(op);
            }
            int r = Integer.parseInt(m.group(1));
            long address = pair(t, r) + Long.decode(m.group(2));
            t.callDepth--;
            t.pc = codeIndex(address, op, t);
            return;
        }
        if (!op.has("REL") || !(o.get(0) instanceof Reg r)) {
            throw unimplemented(op);
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
            case "NOP", "MEMBAR", "ERRBAR", "CGAERRBAR", "CCTL", "YIELD", "NANOSLEEP", "FENCE" -> t.pc++;
            case "LDGSTS", "LDGDEPBAR", "DEPBAR" -> asyncCopy(op, t, w);
            case "SYNCS" -> hopper().step(op, t, w, x -> read(x, t, w));
            case "EXIT" -> {
                if (!o.isEmpty() && !pred(o.get(0), t, w)) { // EXIT Pp: exits only where Pp holds
                    t.pc++;
                    break;
                }
                t.exited = true;
                w.exited |= 1 << t.lane;
                exitedCount++;
                releaseBarriers(-1);
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
                    throw unimplemented(op);
                }
                if (o.size() == 2 && !pred(o.get(0), t, w)) { // BRA Pp, target: also conditional on Pp
                    t.pc++;
                    break;
                }
                t.pc = (int) (((SassOperand.Target) o.get(o.size() - 1)).address() / 16);
            }
            case "BAR" -> {
                if (op.has("RED")) {
                    // BAR.RED.{POPC|AND|OR} id, {!}Pp; the result is read afterwards with B2R.RESULT
                    int id = read(o.get(0), t, w);
                    t.barrier = id;
                    t.barrierPredicate = pred(o.get(o.size() - 1), t, w);
                    t.barrierOp = op;
                    arrived[id]++;
                    releaseBarriers(id);
                    break;
                }
                if (op.has("ARV")) {
                    // BAR.ARV id, count (bar.arrive): counts as arrived at the barrier without waiting for it
                    int id = read(o.get(0), t, w);
                    arrived[id]++;
                    t.pc++;
                    releaseBarriers(id);
                    break;
                }
                if (!op.has("SYNC")) {
                    throw unimplemented(op);
                }
                int id = o.isEmpty() ? 0 : read(o.get(0), t, w);
                t.barrier = id;
                t.barrierOp = null;
                arrived[id]++;
                releaseBarriers(id);
            }
            case "B2R" -> {
                if (!op.has("RESULT")) {
                    throw unimplemented(op);
                }
                writeR(t, o.get(0), t.barrierResult);
                if (o.size() > 1) {
                    writeP(t, o.get(1), t.barrierResult != 0);
                }
                t.pc++;
            }
            case "MOV" -> {
                writeR(t, o.get(0), read(o.get(1), t, w));
                t.pc++;
            }
            case "LEPC" -> lepc(op, o, t);
            case "S2R" -> {
                writeR(t, o.get(0), special(((SassOperand.Special) o.get(1)).name(), t));
                t.pc++;
            }
            case "CS2R" -> {
                String sr = ((SassOperand.Special) o.get(1)).name();
                if (op.has("32")) {
                    writeR(t, o.get(0), special(sr, t));
                } else {
                    writeR64(t, o.get(0), sr.equals("SRZ") ? 0 : warpInstructions);
                }
                t.pc++;
            }
            case "LDC" -> {
                CBank c = (CBank) o.get(1);
                int size = accessSize(op);
                if (size == 8) {
                    writeR64(t, o.get(0), cbank(c, t, 8));
                } else {
                    long v = cbank(c, t, size);
                    writeR(t, o.get(0), signedAccess(op) ? (int) (size == 1 ? (byte) v : (short) v) : (int) v);
                }
                t.pc++;
            }
            case "IMAD" -> {
                imad(op, t, w);
                t.pc++;
            }
            case "IADD3" -> {
                iadd3(op, t, w);
                t.pc++;
            }
            case "LEA" -> {
                lea(op, t, w);
                t.pc++;
            }
            case "LOP3" -> {
                int k = o.size();
                if (o.get(0) instanceof Pred) { // LOP3.LUT P0, Rd, a, b, c, lut, !PT: the result and its zero test
                    int a = read(o.get(2), t, w), b = read(o.get(3), t, w), c = read(o.get(4), t, w);
                    int lut = read(o.get(5), t, w);
                    int r = 0;
                    for (int bit = 0; bit < 8; bit++) {
                        if ((lut >>> bit & 1) != 0) {
                            r |= ((bit & 4) != 0 ? a : ~a) & ((bit & 2) != 0 ? b : ~b) & ((bit & 1) != 0 ? c : ~c);
                        }
                    }
                    writeR(t, o.get(1), r);
                    writeP(t, o.get(0), r != 0);
                    t.pc++;
                    break;
                }
                boolean predOut = o.get(1) instanceof Pred;
                int i = predOut ? 2 : 1;
                int a = read(o.get(i), t, w), b = read(o.get(i + 1), t, w), c = read(o.get(i + 2), t, w);
                int lut = read(o.get(i + 3), t, w);
                int r = 0;
                for (int bit = 0; bit < 8; bit++) {
                    if ((lut >>> bit & 1) != 0) {
                        r |= ((bit & 4) != 0 ? a : ~a) & ((bit & 2) != 0 ? b : ~b) & ((bit & 1) != 0 ? c : ~c);
                    }
                }
                writeR(t, o.get(0), r);
                if (predOut) {
                    writeP(t, o.get(1), r != 0);
                }
                if (k > i + 4 && !(o.get(i + 4) instanceof Pred)) {
                    throw unimplemented(op);
                }
                t.pc++;
            }
            case "SHF" -> {
                shf(op, t, w);
                t.pc++;
            }
            case "CALL" -> call(op, o, t);
            case "RET" -> ret(op, o, t);
            case "FCHK" -> {
                // FCHK flags divisions the fast path cannot do exactly; flagging every one sends them all through
                // ptxas's slow path, which is exact for every input.
                writeP(t, o.get(0), true);
                t.pc++;
            }
            case "VIMNMX" -> {
                int a = read(o.get(1), t, w), b = read(o.get(2), t, w);
                boolean min = pred(o.get(3), t, w); // as IMNMX: the predicate selects the minimum
                if (op.modifiers().stream().anyMatch(m -> !m.equals("U32") && !m.equals("S32"))) {
                    throw unimplemented(op);
                }
                int c = op.has("U32") ? Integer.compareUnsigned(a, b) : Integer.compare(a, b);
                writeR(t, o.get(0), min ? (c <= 0 ? a : b) : (c >= 0 ? a : b));
                t.pc++;
            }
            case "VIADDMNMX" -> { // sm_90: min or max of (a + b) and c; as IMNMX, the predicate selects the minimum
                int a = read(o.get(1), t, w), b = read(o.get(2), t, w), c = read(o.get(3), t, w);
                boolean min = pred(o.get(4), t, w);
                if (op.modifiers().stream().anyMatch(m -> !m.equals("U32") && !m.equals("S32"))) {
                    throw unimplemented(op);
                }
                int sum = a + b;
                int cmp = op.has("U32") ? Integer.compareUnsigned(sum, c) : Integer.compare(sum, c);
                writeR(t, o.get(0), min ? (cmp <= 0 ? sum : c) : (cmp >= 0 ? sum : c));
                t.pc++;
            }
            case "VABSDIFF" -> {
                int a = read(o.get(1), t, w), b = read(o.get(2), t, w), c = read(o.get(3), t, w);
                boolean u = op.has("U32");
                boolean less = u ? Integer.compareUnsigned(a, b) < 0 : a < b;
                writeR(t, o.get(0), (less ? b - a : a - b) + c);
                t.pc++;
            }
            case "SGXT" -> {
                int a = read(o.get(1), t, w), n = read(o.get(2), t, w) & 0xff;
                n = Math.min(n, 32);
                int v = n == 0 ? 0 : n == 32 ? a : a & ((1 << n) - 1);
                if (!op.has("U32") && n > 0 && n < 32 && (v >>> (n - 1) & 1) != 0) {
                    v |= -(1 << n);
                }
                writeR(t, o.get(0), v);
                t.pc++;
            }
            case "BMSK" -> {
                int pos = read(o.get(1), t, w) & 0xff, len = read(o.get(2), t, w) & 0xff;
                long end = Math.min(32, (long) pos + len);
                writeR(t, o.get(0), pos >= 32 ? 0 : (int) (((1L << end) - 1) & ~((1L << pos) - 1)));
                t.pc++;
            }
            case "P2R" -> {
                int mask = read(o.get(3), t, w);
                int v = 0;
                for (int k = 0; k < 7; k++) {
                    v |= (t.p[k] ? 1 : 0) << k;
                }
                writeR(t, o.get(0), (read(o.get(2), t, w) & ~mask) | (v & mask));
                t.pc++;
            }
            case "IDP" -> {
                int a = read(o.get(1), t, w), b = read(o.get(2), t, w), acc = read(o.get(3), t, w);
                boolean aSigned = op.modifiers().contains("S8") || op.modifiers().contains("S16")
                        ? op.modifiers().get(op.modifiers().size() - 2).startsWith("S") : false;
                boolean bSigned = op.modifiers().get(op.modifiers().size() - 1).startsWith("S");
                if (op.has("4A")) {
                    for (int k = 0; k < 4; k++) {
                        int x = aSigned ? (byte) (a >> 8 * k) : a >>> 8 * k & 0xff;
                        int y = bSigned ? (byte) (b >> 8 * k) : b >>> 8 * k & 0xff;
                        acc += x * y;
                    }
                } else {
                    int hiOff = op.has("HI") ? 2 : 0;
                    for (int k = 0; k < 2; k++) {
                        int x = aSigned ? (short) (a >> 16 * k) : a >>> 16 * k & 0xffff;
                        int y = bSigned ? (byte) (b >> 8 * (k + hiOff)) : b >>> 8 * (k + hiOff) & 0xff;
                        acc += x * y;
                    }
                }
                writeR(t, o.get(0), acc);
                t.pc++;
            }
            case "I2FP" -> {
                if (!op.has("F32") || op.modifiers().size() != 2) {
                    throw unimplemented(op);
                }
                int v = read(o.get(1), t, w);
                float f = op.has("U32") ? (float) Integer.toUnsignedLong(v) : (float) v;
                writeR(t, o.get(0), Float.floatToRawIntBits(f));
                t.pc++;
            }
            case "F2F" -> {
                if (op.has("F64") && op.modifiers().indexOf("F64") == 0 && op.has("F32")) { // F2F.F64.F32
                    writeR64(t, o.get(0), Double.doubleToRawLongBits(readF(o.get(1), t, w)));
                } else if (op.has("F32") && op.modifiers().indexOf("F32") == 0 && op.has("F64")) { // F2F.F32.F64{.RZ}
                    double d = readD(o.get(1), t, w);
                    org.jptxas.simulator.numeric.Rounding rnd = op.has("RZ") ? org.jptxas.simulator.numeric.Rounding.RZ
                            : op.has("RM") ? org.jptxas.simulator.numeric.Rounding.RM
                            : op.has("RP") ? org.jptxas.simulator.numeric.Rounding.RP : org.jptxas.simulator.numeric.Rounding.RN;
                    float f = Double.isNaN(d) || Double.isInfinite(d) || d == 0 ? (float) d
                            : org.jptxas.simulator.numeric.Ieee.roundToFloat(new java.math.BigDecimal(d), rnd);
                    writeR(t, o.get(0), Float.isNaN(f) ? 0x7fffffff : Float.floatToRawIntBits(f));
                } else {
                    f2fHalf(op, t, w);
                }
                t.pc++;
            }
            case "RED", "REDG", "ATOMG", "ATOMS", "ATOM" -> {
                atomic(op, t, w);
                t.pc++;
            }
            case "MUFU" -> {
                if (op.has("RCP64H") || op.has("RSQ64H")) {
                    // Seeds for f64 Newton iterations: the high word of the f64 result from the high word of the input.
                    double d = Double.longBitsToDouble((long) read(o.get(1), t, w) << 32);
                    double r = op.has("RCP64H") ? 1.0 / d : 1.0 / Math.sqrt(d);
                    writeR(t, o.get(0), (int) (Double.doubleToRawLongBits(r) >>> 32));
                    t.pc++;
                    break;
                }
                float x = readF(o.get(1), t, w);
                double r = switch (op.modifiers().get(0)) {
                    case "RCP" -> 1.0 / x;
                    case "RSQ" -> 1.0 / Math.sqrt(x);
                    case "SQRT" -> Math.sqrt(x);
                    case "EX2" -> Math.pow(2.0, x);
                    case "LG2" -> Math.log(x) / Math.log(2.0);
                    case "SIN" -> Math.sin(2 * Math.PI * x); // the argument is in revolutions (pre-scaled by 1/2pi)
                    case "COS" -> Math.cos(2 * Math.PI * x);
                    case "TANH" -> Math.tanh(x);
                    default -> throw unimplemented(op);
                };
                float f = (float) r;
                writeR(t, o.get(0), Float.isNaN(f) ? 0x7fffffff : Float.floatToRawIntBits(f));
                t.pc++;
            }
            case "I2F" -> {
                i2f(op, t, w);
                t.pc++;
            }
            case "I2I" -> {
                int[] range = IntegerNarrowing.range(op);
                if (range == null) {
                    throw unimplemented(op);
                }
                writeR(t, o.get(0), IntegerNarrowing.saturate(range, read(o.get(1), t, w)));
                t.pc++;
            }
            case "F2I" -> {
                f2i(op, t, w);
                t.pc++;
            }
            case "DFMA", "DADD", "DMUL" -> {
                double a = readD(o.get(1), t, w), b = readD(o.get(2), t, w);
                org.jptxas.simulator.numeric.Rounding rnd = op.has("RZ") ? org.jptxas.simulator.numeric.Rounding.RZ
                        : op.has("RM") ? org.jptxas.simulator.numeric.Rounding.RM
                        : op.has("RP") ? org.jptxas.simulator.numeric.Rounding.RP : org.jptxas.simulator.numeric.Rounding.RN;
                double r = switch (op.opcode()) {
                    case "DADD" -> org.jptxas.simulator.numeric.Ieee.add(a, b, rnd);
                    case "DMUL" -> org.jptxas.simulator.numeric.Ieee.mul(a, b, rnd);
                    default -> org.jptxas.simulator.numeric.Ieee.fma(a, b, readD(o.get(3), t, w), rnd);
                };
                writeR64(t, o.get(0), Double.isNaN(r) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(r));
                t.pc++;
            }
            case "POPC" -> {
                writeR(t, o.get(0), Integer.bitCount(read(o.get(1), t, w)));
                t.pc++;
            }
            case "BREV" -> {
                writeR(t, o.get(0), Integer.reverse(read(o.get(1), t, w)));
                t.pc++;
            }
            case "FLO" -> {
                int x = read(o.get(1), t, w);
                boolean signed = !op.has("U32");
                if (signed && x < 0) {
                    x = ~x;
                }
                int msb = x == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(x);
                writeR(t, o.get(0), op.has("SH") ? (msb < 0 ? -1 : 31 - msb) : msb);
                t.pc++;
            }
            case "VIADD" -> {
                writeR(t, o.get(0), read(o.get(1), t, w) + read(o.get(2), t, w));
                t.pc++;
            }
            case "IABS" -> {
                writeR(t, o.get(0), Math.abs(read(o.get(1), t, w)));
                t.pc++;
            }
            case "IMNMX" -> {
                int a = read(o.get(1), t, w), b = read(o.get(2), t, w);
                boolean min = pred(o.get(3), t, w);
                int c = op.has("U32") ? Integer.compareUnsigned(a, b) : Integer.compare(a, b);
                writeR(t, o.get(0), min == (c <= 0) ? a : b);
                t.pc++;
            }
            case "FMNMX" -> {
                float a = readF(o.get(1), t, w), b = readF(o.get(2), t, w);
                if (op.has("FTZ")) {
                    a = org.jptxas.simulator.numeric.Ieee.ftz(a);
                    b = org.jptxas.simulator.numeric.Ieee.ftz(b);
                }
                boolean min = pred(o.get(3), t, w);
                float r = Float.isNaN(a) ? b : Float.isNaN(b) ? a : min ? Math.min(a, b) : Math.max(a, b);
                if (op.has("NAN") && (Float.isNaN(a) || Float.isNaN(b))) {
                    r = Float.NaN; // .NAN: a NaN operand gives the canonical NaN
                }
                writeR(t, o.get(0), Float.isNaN(r) ? 0x7fffffff : Float.floatToRawIntBits(r));
                t.pc++;
            }
            case "PLOP3" -> {
                int lut = read(o.get(5), t, w);
                boolean a = pred(o.get(2), t, w), b = pred(o.get(3), t, w), c = pred(o.get(4), t, w);
                int idx = (a ? 4 : 0) | (b ? 2 : 0) | (c ? 1 : 0);
                writeP(t, o.get(0), (lut >>> idx & 1) != 0);
                if (o.size() > 6) {
                    int lut2 = read(o.get(6), t, w);
                    writeP(t, o.get(1), (lut2 >>> idx & 1) != 0);
                }
                t.pc++;
            }
            case "PRMT" -> {
                int a = read(o.get(1), t, w), sel = read(o.get(2), t, w), b = read(o.get(3), t, w);
                List<String> mode = op.modifiers();
                if (mode.size() > 1 || !mode.isEmpty() && !PermuteOps.MODES.contains(mode.get(0))) {
                    throw unimplemented(op);
                }
                writeR(t, o.get(0), PermuteOps.permute(mode.isEmpty() ? "" : mode.get(0), a, sel, b));
                t.pc++;
            }
            case "HFMA2", "HADD2", "HMUL2" -> {
                half2(op, t, w);
                t.pc++;
            }
            case "SEL", "FSEL" -> {
                writeR(t, o.get(0), pred(o.get(3), t, w) ? read(o.get(1), t, w) : read(o.get(2), t, w));
                t.pc++;
            }
            case "ISETP" -> {
                isetp(op, t, w);
                t.pc++;
            }
            case "FSETP", "DSETP" -> {
                fsetp(op, t, w);
                t.pc++;
            }
            case "FADD", "FMUL", "FFMA" -> {
                ffma(op, t, w);
                t.pc++;
            }
            case "LDG", "LDS", "LDL", "LD" -> {
                load(op, t, w);
                t.pc++;
            }
            case "STG", "STS", "STL", "ST" -> {
                store(op, t, w);
                t.pc++;
            }
            default -> rare(op, t, w);
        }
    }

    /**
     * Generic addresses of shared and local memory: the windows' bases, which the driver puts in constant bank 0
     * ({@code c[0x0][0x18]} shared, {@code c[0x0][0x20]} local; {@code cvta} and generic loads use them). The values
     * are the PTX interpreter's windows, so both executors hand out the same generic addresses.
     */
    static final long SHARED_WINDOW = 0x0000_0100_0000_0000L;
    static final long LOCAL_WINDOW = 0x0000_0200_0000_0000L;
    static final long WINDOW_SIZE = 0x1_0000_0000L;

    /**
     * Generic addresses of constant bank 0 ({@code cvta.param}): the driver puts a 64-bit pointer into the bank at
     * {@link ConstantBank0Layout#genericPointer()}; generic loads in this window read the bank.
     */
    static final long CONST0_WINDOW = 0x0000_0400_0000_0000L;

    private byte[] withWindows(byte[] bank0) {
        if (bank0.length < 0x28) {
            return bank0;
        }
        byte[] b = bank0.clone();
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        bb.putLong(0x18, SHARED_WINDOW);
        bb.putLong(0x20, LOCAL_WINDOW);
        ConstantBank0Layout cb = ConstantBank0Layout.of(launch.target());
        cb.genericPointer().ifPresent(at -> {
            if (b.length >= at + 8) {
                bb.putLong(at, CONST0_WINDOW + cb.genericPointerTarget());
            }
        });
        return b;
    }

    private long windowBase(Region r) {
        return r.space() == AddressSpace.SHARED ? SHARED_WINDOW : r == cbank0 ? CONST0_WINDOW : LOCAL_WINDOW;
    }

    /** A generic address as an offset in its window's region (without the cluster rank of a shared one). */
    private long windowOffset(long a, Region r) {
        return seat != null && r.space() == AddressSpace.SHARED ? a - SHARED_WINDOW & 0xffffffL : a - windowBase(r);
    }

    /** A shared address with this block's own cluster rank in its top byte (ptxas's LEA of SR_CgaCtaId) as an offset. */
    long sharedOffset(long a) {
        return seat != null && (a >>> 24) == seat.rank() ? a & 0xffffffL : a;
    }

    /** The shared or local region a generic address falls in, or null for global memory. */
    private Region window(long a, Thread t) {
        if (a >= SHARED_WINDOW && a < SHARED_WINDOW + WINDOW_SIZE) { // a cluster's block by the top byte
            return seat == null ? shared : seat.run().shared((int) ((a - SHARED_WINDOW) >>> 24), a - SHARED_WINDOW);
        }
        if (a >= LOCAL_WINDOW && a < LOCAL_WINDOW + WINDOW_SIZE) {
            return localOf(t);
        }
        if (a >= CONST0_WINDOW && a < CONST0_WINDOW + ConstantBank0Layout.BANK_SIZE) {
            return cbank0;
        }
        return null;
    }

    private Region localOf(Thread t) {
        if (t.local == null) {
            t.local = new Region("local memory", AddressSpace.LOCAL, 0, STACK_BYTES);
        }
        return t.local;
    }

    private static boolean generic(SassOp op) {
        String c = op.opcode();
        return c.equals("LD") || c.equals("ST") || c.equals("ATOM") || c.equals("RED");
    }

    /** FRND{.F64}{.FTZ}{.TRUNC|.FLOOR|.CEIL}: round to an integral value (to nearest even by default). */
    private void frnd(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        org.jptxas.simulator.numeric.Rounding rnd = op.has("TRUNC") ? org.jptxas.simulator.numeric.Rounding.RZ
                : op.has("FLOOR") ? org.jptxas.simulator.numeric.Rounding.RM
                : op.has("CEIL") ? org.jptxas.simulator.numeric.Rounding.RP : org.jptxas.simulator.numeric.Rounding.RN;
        if (op.has("F16") || op.has("BF16")) {
            throw unimplemented(op);
        }
        if (op.has("F64")) {
            double x = readD(o.get(1), t, w);
            double r = org.jptxas.simulator.numeric.Ieee.roundIntegral(x, rnd);
            writeR64(t, o.get(0), Double.isNaN(r) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(r));
            return;
        }
        float x = readF(o.get(1), t, w);
        if (op.has("FTZ")) {
            x = org.jptxas.simulator.numeric.Ieee.ftz(x);
        }
        float r = (float) org.jptxas.simulator.numeric.Ieee.roundIntegral(x, rnd);
        writeR(t, o.get(0), Float.isNaN(r) ? 0x7fffffff : Float.floatToRawIntBits(r));
    }

    /** F2FP{.F16|.BF16}{.F32}.PACK_AB{.RELU} d, a, b: two f32 rounded to 16 bits (to nearest), a high, b low. */
    private void f2fp(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        for (String m : op.modifiers()) {
            if (!m.equals("PACK_AB") && !m.equals("F16") && !m.equals("BF16") && !m.equals("F32") && !m.equals("RELU")) {
                throw unimplemented(op);
            }
        }
        if (!op.has("PACK_AB")) {
            throw unimplemented(op);
        }
        boolean bf = op.has("BF16");
        int hi = half(readF(o.get(1), t, w), bf, op.has("RELU"));
        int lo = half(readF(o.get(2), t, w), bf, op.has("RELU"));
        writeR(t, o.get(0), hi << 16 | lo);
    }

    private static int half(float x, boolean bf16, boolean relu) {
        if (relu && !Float.isNaN(x) && x < 0) {
            x = 0;
        }
        return bf16 ? org.jptxas.simulator.numeric.SmallFloats.toBf16(x) : org.jptxas.simulator.numeric.SmallFloats.toHalf(x);
    }

    /** F2F.F16.F32{.RZ} (round an f32 to binary16) and F2F.F32.F16 (widen one). */
    private void f2fHalf(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        List<String> m = op.modifiers();
        if (m.size() >= 2 && m.get(0).equals("F16") && m.get(1).equals("F32") && !op.has("RM") && !op.has("RP")) {
            float x = readF(o.get(1), t, w);
            if (op.has("FTZ")) {
                x = org.jptxas.simulator.numeric.Ieee.ftz(x);
            }
            int h = org.jptxas.simulator.numeric.SmallFloats.toHalf(x);
            if (op.has("RZ") && !Float.isNaN(x) && (h & 0x7fff) != 0) {
                float back = org.jptxas.simulator.numeric.SmallFloats.halfToFloat(h);
                if (Math.abs(back) > Math.abs(x)) {
                    h--; // one step toward zero (the magnitude is the low 15 bits)
                }
            }
            writeR(t, o.get(0), h);
        } else if (m.size() >= 2 && m.get(0).equals("F32") && m.get(1).equals("F16")) {
            float f = org.jptxas.simulator.numeric.SmallFloats.halfToFloat(read(o.get(1), t, w) & 0xffff);
            if (op.has("FTZ")) {
                f = org.jptxas.simulator.numeric.Ieee.ftz(f);
            }
            writeR(t, o.get(0), Float.isNaN(f) ? 0x7fffffff : Float.floatToRawIntBits(f));
        } else {
            throw unimplemented(op);
        }
    }

    /**
     * MATCH.ALL Pd, Rd, Ra / MATCH.ANY Rd, Ra over the active lanes (.U64: Ra a register pair); the comparisons in
     * {@link WarpMatch}.
     */
    private void match(SassOp op, int base, int count, int active, Warp w) {
        List<SassOperand> o = op.operands();
        boolean all = op.has("ALL");
        if (!all && (!op.has("ANY") || !(o.get(0) instanceof Reg))) {
            throw unimplemented(op);
        }
        SassOperand src = o.get(o.size() - 1);
        long[] v = new long[32];
        for (int l = 0; l < count; l++) {
            if ((active >>> l & 1) != 0) {
                Thread t = threads[base + l];
                if (!op.has("U64")) {
                    v[l] = read(src, t, w);
                } else if (src instanceof Reg r && r.index() != 255) {
                    v[l] = pair(t, r.index());
                } else {
                    throw unimplemented(op);
                }
            }
        }
        boolean same = all && WarpMatch.allSame(v, active, count);
        for (int l = 0; l < count; l++) {
            if ((active >>> l & 1) == 0) {
                continue;
            }
            Thread t = threads[base + l];
            if (!all) {
                writeR(t, o.get(0), WarpMatch.lanesHolding(v, active, count, v[l]));
                continue;
            }
            for (SassOperand d : o.subList(0, o.size() - 1)) {
                if (d instanceof Pred) {
                    writeP(t, d, same);
                } else {
                    writeR(t, d, same ? active : 0);
                }
            }
        }
    }

    /** HMNMX2 d, a, b, Pp and I2IP.*.S32.SAT d, a, b, c: operands read here, the numerics in {@link PackedOps}. */
    private void packed(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (op.opcode().equals("HMNMX2") && o.size() == 4
                && op.modifiers().stream().allMatch(m -> m.equals("NAN") || m.equals("BF16_V2"))) {
            writeR(t, o.get(0), PackedOps.minMax2(halfPair(o.get(1), t, w, op), halfPair(o.get(2), t, w, op),
                    pred(o.get(3), t, w), op.has("NAN"), op.has("BF16_V2")));
        } else if (op.opcode().equals("I2IP") && o.size() == 4 && op.has("SAT") && op.has("S32")
                && op.modifiers().size() == 3) {
            int bits = op.has("U8") || op.has("S8") ? 8 : op.has("U16") || op.has("S16") ? 16 : 0;
            if (bits == 0) {
                throw unimplemented(op);
            }
            writeR(t, o.get(0), PackedOps.packSaturated(read(o.get(1), t, w), read(o.get(2), t, w),
                    read(o.get(3), t, w), bits, op.has("S8") || op.has("S16")));
        } else {
            throw unimplemented(op);
        }
    }

    /** Instructions too rare to sit in {@link #step}'s switch (it must stay under HotSpot's size limit). */
    private void rare(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        switch (op.opcode()) {
            case "QSPC" -> { // QSPC.E.{S,L,G} Pp, RZ, [Ra.64]: whether a generic address is in a space
                long a = address((Mem) o.get(2), t, w, true);
                Region r = window(a, t);
                boolean in = op.has("S") ? r == shared && r != null : op.has("L") ? r != null && r == t.local : r == null;
                writeP(t, o.get(0), in);
            }
            case "FRND" -> frnd(op, t, w);
            case "HSETP2", "HSET2" -> halfSet(op, t, w);
            case "F2FP" -> f2fp(op, t, w);
            case "HMNMX2", "I2IP" -> packed(op, t, w);
            default -> throw unimplemented(op);
        }
        t.pc++;
    }

    /** BAR.SYNC id for a group: the lanes {@code act} arrive and wait, the others move on. */
    private void barrierSync(int id, int base, int group, int act) {
        for (int k = group; k != 0; k &= k - 1) {
            int l = Integer.numberOfTrailingZeros(k);
            Thread t = threads[base + l];
            if ((act >>> l & 1) != 0) {
                t.barrier = id;
                t.barrierOp = null;
                arrived[id]++;
            } else {
                t.pc++;
            }
        }
        releaseBarriers(id);
    }

    /** EXIT for a group: the lanes {@code act} exit (releasing what waited for them), the others move on. */
    private void exit(Warp w, int group, int act) {
        for (int k = group; k != 0; k &= k - 1) {
            int l = Integer.numberOfTrailingZeros(k);
            Thread t = threads[w.base + l];
            if ((act >>> l & 1) != 0) {
                t.exited = true;
                exitedCount++;
            } else {
                t.pc++;
            }
        }
        w.exited |= act;
        if (act != 0 && (w.exited | (int) (-1L << w.count)) == -1) { // the warp's last lanes leave
            try {
                warpgroupOps.exit(w);
            } catch (WarpgroupOps.WarpgroupFault e) {
                throw new Stop(new Fault.InvalidExecution(ref(threads[w.base]), "EXIT", e.getMessage()));
            }
        }
        releaseBarriers(-1);
        afterExit(w);
    }

    /** Releases barrier {@code only} (every barrier for -1) once all threads that have not exited arrived. */
    private void releaseBarriers(int only) {
        for (int id = only < 0 ? 0 : only; id < (only < 0 ? arrived.length : only + 1); id++) {
            if (arrived[id] > 0 && arrived[id] >= threads.length - exitedCount) {
                int popc = 0;
                boolean all = true, any = false;
                for (Thread t : threads) {
                    if (t.barrier == id) {
                        popc += t.barrierPredicate ? 1 : 0;
                        all &= t.barrierPredicate;
                        any |= t.barrierPredicate;
                    }
                }
                int[] tags = new int[warpState.length]; // released threads of one warp continue as one group
                for (Thread t : threads) {
                    if (t.barrier == id) {
                        Warp w = warpState[t.linear / 32];
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
                arrived[id] = 0;
            }
        }
    }

    private int special(String sr, Thread t) {
        return SpecialRegisters.read(sr, t, cta, warpInstructions, seat == null ? 0 : seat.rank());
    }

    /** PRMT's default mode: each result byte is the byte of {b:a} its selector nibble names, or that byte's sign. */
    private static int permute(int a, int sel, int b) {
        return PermuteOps.permute("", a, sel, b);
    }

    private void uniform(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        switch (op.opcode()) {
            case "S2UR" -> writeU(w, o.get(0), special(((SassOperand.Special) o.get(1)).name(), t));
            case "ULDC" -> {
                CBank c = (CBank) o.get(1);
                if (op.has("64")) {
                    long v = cbank(c, t, 8);
                    writeU(w, o.get(0), (int) v);
                    int i = ((UReg) o.get(0)).index();
                    if (i != 63) {
                        w.ur[i + 1] = (int) (v >>> 32);
                    }
                } else {
                    writeU(w, o.get(0), (int) cbank(c, t, 4));
                }
            }
            case "UMOV" -> writeU(w, o.get(0), read(o.get(1), t, w));
            case "ULEA" -> {
                if (!op.modifiers().isEmpty() || o.size() != 4) {
                    throw unimplemented(op);
                }
                writeU(w, o.get(0), (read(o.get(1), t, w) << (read(o.get(3), t, w) & 31)) + read(o.get(2), t, w));
            }
            case "UIADD3" -> {
                if (op.has("64")) { // UIADD3.64 URd, URa, b, URc: 64-bit pairs (sm_90), a 32-bit immediate sign-extended
                    long sum = 0;
                    for (int k = 1; k < 4; k++) {
                        sum += o.get(k) instanceof UReg u ? (u.index() == 63 ? 0 : Integer.toUnsignedLong(w.ur[u.index()])
                                | (long) w.ur[u.index() + 1] << 32) : (long) read(o.get(k), t, w);
                    }
                    writeU(w, o.get(0), (int) sum);
                    if (((UReg) o.get(0)).index() != 63) {
                        w.ur[((UReg) o.get(0)).index() + 1] = (int) (sum >>> 32);
                    }
                    break;
                }
                int i = 1;
                SassOperand p0 = null, p1 = null;
                if (o.get(i) instanceof UPred) {
                    p0 = o.get(i++);
                    if (o.get(i) instanceof UPred) {
                        p1 = o.get(i++);
                    }
                }
                long sum = addend(o.get(i), t, w) + addend(o.get(i + 1), t, w) + addend(o.get(i + 2), t, w);
                if (op.has("X")) {
                    for (int k = i + 3; k < o.size(); k++) {
                        sum += pred(o.get(k), t, w) ? 1 : 0;
                    }
                }
                writeU(w, o.get(0), (int) sum);
                long carry = sum >>> 32; // two carry-outs each count one, as IADD3's
                if (p0 != null && ((UPred) p0).index() != 7) {
                    w.up[((UPred) p0).index()] = p1 != null ? carry >= 1 : (carry & 1) != 0;
                }
                if (p1 != null && ((UPred) p1).index() != 7) {
                    w.up[((UPred) p1).index()] = carry >= 2;
                }
            }
            case "UISETP" -> uisetp(op, t, w);
            case "USEL" -> {
                if (!op.modifiers().isEmpty()) {
                    throw unimplemented(op);
                }
                writeU(w, o.get(0), pred(o.get(3), t, w) ? read(o.get(1), t, w) : read(o.get(2), t, w));
            }
            case "UPRMT" -> {
                if (!op.modifiers().isEmpty()) {
                    throw unimplemented(op);
                }
                writeU(w, o.get(0), permute(read(o.get(1), t, w), read(o.get(2), t, w), read(o.get(3), t, w)));
            }
            case "USHF" -> writeU(w, o.get(0), FunnelShift.shift(FunnelShift.mode(op), read(o.get(1), t, w),
                    read(o.get(2), t, w), read(o.get(3), t, w)));
            case "ULOP3" -> {
                int a = read(o.get(1), t, w), b = read(o.get(2), t, w), c = read(o.get(3), t, w);
                int lut = read(o.get(4), t, w);
                int r = 0;
                for (int bit = 0; bit < 8; bit++) {
                    if ((lut >>> bit & 1) != 0) {
                        r |= ((bit & 4) != 0 ? a : ~a) & ((bit & 2) != 0 ? b : ~b) & ((bit & 1) != 0 ? c : ~c);
                    }
                }
                writeU(w, o.get(0), r);
            }
            case "UFLO" -> {
                int x = read(o.get(1), t, w);
                int msb = x == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(x);
                writeU(w, o.get(0), op.has("SH") ? (msb < 0 ? -1 : 31 - msb) : msb);
            }
            case "UIMAD" -> {
                if (op.has("WIDE")) {
                    HopperAsyncOps.uimadWide(op, w, x -> read(x, t, w));
                } else if (!op.modifiers().isEmpty()) {
                    throw unimplemented(op);
                } else {
                    writeU(w, o.get(0), read(o.get(1), t, w) * read(o.get(2), t, w) + read(o.get(3), t, w));
                }
            }
            case "R2UR" -> writeU(w, o.get(0), read(o.get(1), t, w));
            case "UBLKCP", "UBLKPF", "UTMACMDFLUSH", "UTMACCTL" -> hopper().uniform(op, w);
            default -> throw unimplemented(op);
        }
    }

    private static void writeU(Warp w, SassOperand d, int v) {
        int i = ((UReg) d).index();
        if (i != 63) {
            w.ur[i] = v;
        }
    }

    /** A packed-half source: register swizzles (.H0_H0, .H1_H1), negation and |abs| apply to both halves. */
    private int halfPair(SassOperand o, Thread t, Warp w, SassOp op) {
        if (o instanceof Reg r) {
            int v = r.index() == 255 ? 0 : t.r[r.index()];
            switch (r.suffix()) {
                case "" -> { }
                case "H0_H0" -> v = (v & 0xffff) | (v << 16);
                case "H1_H1" -> v = (v >>> 16) | (v & 0xffff0000);
                default -> throw unimplemented(op);
            }
            if (r.abs()) {
                v &= 0x7fff7fff;
            }
            if (r.negate()) {
                v ^= 0x80008000;
            }
            return v;
        }
        throw unimplemented(op);
    }

    /**
     * HADD2 / HMUL2 / HFMA2 on packed halves, round to nearest ({@code .FTZ}, {@code .SAT}: {@link HalfOps#result});
     * HFMA2's C may be two half immediates (hi, lo).
     */
    private void half2(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (op.opcode().equals("HADD2") && op.modifiers().equals(List.of("F32")) && o.size() == 3) {
            // HADD2.F32 Rd, a, b: the low halves (after swizzles) added into an f32 result
            int a = halfPair(o.get(1), t, w, op), b = halfPair(o.get(2), t, w, op);
            float r = org.jptxas.simulator.numeric.SmallFloats.halfToFloat(a & 0xffff)
                    + org.jptxas.simulator.numeric.SmallFloats.halfToFloat(b & 0xffff);
            writeR(t, o.get(0), Float.isNaN(r) ? 0x7fffffff : Float.floatToRawIntBits(r));
            return;
        }
        if (op.has("BF16_V2") && o.size() == (op.opcode().equals("HFMA2") ? 4 : 3) && op.modifiers().stream()
                .allMatch(m -> m.equals("BF16_V2") || m.equals("RELU") || m.equals("MMA"))) {
            // bf16 pairs as one fma each: HADD2 a + b = a * 1 + b, HMUL2 a * b = a * b + (-0)
            int a = halfPair(o.get(1), t, w, op), b = halfPair(o.get(2), t, w, op);
            int r = switch (op.opcode()) {
                case "HFMA2" -> PackedOps.fma2Bf16(a, b, halfPair(o.get(3), t, w, op), op.has("RELU"));
                case "HADD2" -> PackedOps.fma2Bf16(a, 0x3f80_3f80, b, op.has("RELU"));
                default -> PackedOps.fma2Bf16(a, b, 0x8000_8000, op.has("RELU"));
            };
            writeR(t, o.get(0), r);
            return;
        }
        for (String m : op.modifiers()) {
            if (!m.equals("MMA") && !m.equals("FTZ") && !m.equals("SAT")) {
                throw unimplemented(op);
            }
        }
        boolean ftz = op.has("FTZ"), sat = op.has("SAT");
        boolean fma = op.opcode().equals("HFMA2");
        boolean mul = op.opcode().equals("HMUL2");
        int a = halfPair(o.get(1), t, w, op);
        int b;
        int c;
        int next;
        // An immediate pair as the second operand: HADD2/HMUL2 R0, R2, 1, 1 and HFMA2(.MMA) R0, R2, 1, 1, R5.
        if (o.get(2) instanceof Imm i2 && o.size() > 3 && o.get(3) instanceof Imm i3 && (!fma || o.size() == 5)) {
            b = (org.jptxas.simulator.numeric.SmallFloats.toHalf(i2.value()) << 16) | org.jptxas.simulator.numeric.SmallFloats.toHalf(i3.value());
            next = 4;
        } else {
            b = halfPair(o.get(2), t, w, op);
            next = 3;
        }
        if (fma) {
            if (o.size() == next + 2 && o.get(next) instanceof Imm hi && o.get(next + 1) instanceof Imm lo) {
                c = (org.jptxas.simulator.numeric.SmallFloats.toHalf(hi.value()) << 16) | org.jptxas.simulator.numeric.SmallFloats.toHalf(lo.value());
            } else if (o.size() == next + 1) {
                c = halfPair(o.get(next), t, w, op);
            } else {
                throw unimplemented(op);
            }
        } else {
            if (o.size() != next) {
                throw unimplemented(op);
            }
            c = mul ? 0x80008000 : 0; // x*y + (-0) keeps a product's sign; x + y*1 below for add
        }
        int r = 0;
        for (int k = 0; k < 2; k++) {
            double x = HalfOps.value(a >>> (16 * k), ftz);
            double y = HalfOps.value(b >>> (16 * k), ftz);
            double z = HalfOps.value(c >>> (16 * k), ftz);
            double v = fma ? Math.fma(x, y, z) : mul ? x * y : x + y;
            r |= HalfOps.result(v, ftz, sat) << (16 * k);
        }
        writeR(t, o.get(0), r);
    }

    private double readD(SassOperand o, Thread t, Warp w) {
        if (o instanceof Imm i) {
            return i.floating() ? i.value() : Double.longBitsToDouble(i.bits() << 32);
        }
        double d = Double.longBitsToDouble(read64(o, t, w));
        boolean neg = o instanceof Reg r ? r.negate() : o instanceof UReg u ? u.negate() : o instanceof CBank c && c.negate();
        boolean abs = o instanceof Reg r ? r.abs() : o instanceof CBank c && c.abs();
        if (abs) {
            d = Math.abs(d);
        }
        return neg ? -d : d;
    }

    /** RED/ATOMG/ATOMS: add, min, max, and, or, xor, exch, cas, inc on global or shared memory, 32/64-bit, f32/f64 add. */
    private void atomic(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean red = op.opcode().startsWith("RED");
        boolean sharedSpace = op.opcode().equals("ATOMS");
        int i = 0;
        SassOperand dst = null;
        SassOperand done = null;
        if (!red) {
            if (o.get(0) instanceof Pred) {
                done = o.get(i++); // set when the atomic was performed (ptxas falls back to a CAS loop when not)
            }
            dst = o.get(i++);
        }
        Mem m = (Mem) o.get(i++);
        String kind = null;
        for (String mod : op.modifiers()) {
            switch (mod) {
                case "ADD", "MIN", "MAX", "AND", "OR", "XOR", "EXCH", "CAS", "INC", "DEC", "CAST" -> kind = mod;
                default -> { }
            }
        }
        if (kind != null && kind.equals("CAST")) {
            GenericAtomics.castSpin(this, op, t, w, dst, m, o.get(i), o.get(i + 1));
            return;
        }
        if (op.has("POPC") && op.has("INC")) {
            kind = "POPC_INC";
        }
        if (kind == null) {
            throw unimplemented(op);
        }
        boolean is64 = op.has("64") || op.has("F64") || op.has("U64") || op.has("S64");
        boolean f32 = op.has("F32") || op.has("FTZ") && op.has("RN") && !op.has("F64");
        boolean f64 = op.has("F64");
        boolean signed = op.has("S32") || op.has("S64");
        int size = is64 ? 8 : 4;
        long a = address(m, t, w, !sharedSpace && op.has("E"));
        Region r = sharedSpace ? shared : generic(op) ? window(a, t) : null;
        if (!sharedSpace && r != null) {
            a = windowOffset(a, r);
        } else if (sharedSpace) {
            a = sharedOffset(a);
        }
        if (done != null && r != null && GenericAtomics.notPerformedInWindow(kind, op)) {
            writeP(t, done, false); // the hardware leaves shared/local-window adds of these types to the code
            return;
        }
        long old = r == null ? launch.global().load(a, size) : r.load(a, size);
        long v = kind.equals("POPC_INC") ? 1 : size == 8 ? read64(o.get(i), t, w) : Integer.toUnsignedLong(read(o.get(i), t, w));
        long mask = size == 8 ? -1L : 0xffffffffL;
        long nv = switch (kind) {
            case "ADD" -> op.has("F16x2") || op.has("BF16x2") ? HalfOps.atomicAdd2(old, v, op.has("BF16x2"))
                    : f64 ? Double.doubleToRawLongBits(Double.longBitsToDouble(old) + Double.longBitsToDouble(v))
                    : f32 ? Integer.toUnsignedLong(Float.floatToRawIntBits(Float.intBitsToFloat((int) old) + Float.intBitsToFloat((int) v)))
                    : old + v;
            case "POPC_INC" -> old + 1;
            case "MIN" -> signed ? (size == 8 ? Math.min(old, v) : Math.min((int) old, (int) v))
                    : (Long.compareUnsigned(old & mask, v & mask) <= 0 ? old : v);
            case "MAX" -> signed ? (size == 8 ? Math.max(old, v) : Math.max((int) old, (int) v))
                    : (Long.compareUnsigned(old & mask, v & mask) >= 0 ? old : v);
            case "AND" -> old & v;
            case "OR" -> old | v;
            case "XOR" -> old ^ v;
            case "EXCH" -> v;
            case "CAS" -> {
                long swap = size == 8 ? read64(o.get(i + 1), t, w) : Integer.toUnsignedLong(read(o.get(i + 1), t, w));
                yield (old & mask) == (v & mask) ? swap : old;
            }
            case "INC" -> Long.compareUnsigned(old & mask, v & mask) >= 0 ? 0 : old + 1;
            case "DEC" -> (old & mask) == 0 || Long.compareUnsigned(old & mask, v & mask) > 0 ? v : old - 1;
            default -> throw unimplemented(op);
        };
        if (f32 && !kind.equals("ADD")) {
            throw unimplemented(op);
        }
        if (r == null) {
            launch.global().store(a, size, nv);
        } else {
            r.store(a, size, nv);
        }
        if (done != null) {
            writeP(t, done, true);
        }
        if (dst != null) {
            if (size == 8) {
                writeR64(t, dst, old);
            } else {
                writeR(t, dst, (int) old);
            }
        }
    }

    /** I2F{.F64}{.S32|.U32|.S64|.U64}{.RZ|.RM|.RP}: integer to float in a rounding direction. */
    private void i2f(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean wideSrc = op.has("S64") || op.has("U64");
        boolean unsigned = op.has("U32") || op.has("U64");
        boolean toF64 = op.has("F64");
        boolean toBf16 = op.has("BF16");
        boolean toF16 = op.has("F16") || toBf16;
        int narrow = op.has("S16") || op.has("U16") ? 16 : op.has("S8") || op.has("U8") ? 8 : 0;
        unsigned |= op.has("U16") || op.has("U8");
        long v = wideSrc ? read64(o.get(1), t, w) : unsigned ? Integer.toUnsignedLong(read(o.get(1), t, w)) : read(o.get(1), t, w);
        if (narrow > 0) {
            // a 16- or 8-bit source: the low bits, sign- or zero-extended
            int x = (int) v;
            v = unsigned ? x & ((1 << narrow) - 1) : (x << (32 - narrow)) >> (32 - narrow);
        }
        java.math.BigDecimal exact = unsigned && wideSrc && v < 0 ? new java.math.BigDecimal(Long.toUnsignedString(v))
                : java.math.BigDecimal.valueOf(v);
        org.jptxas.simulator.numeric.Rounding rnd = op.has("RZ") ? org.jptxas.simulator.numeric.Rounding.RZ
                : op.has("RM") ? org.jptxas.simulator.numeric.Rounding.RM
                : op.has("RP") ? org.jptxas.simulator.numeric.Rounding.RP : org.jptxas.simulator.numeric.Rounding.RN;
        if (toF16) {
            writeR(t, o.get(0), v == 0 ? 0 : HalfOps.fromInteger(exact, rnd, toBf16));
        } else if (toF64) {
            writeR64(t, o.get(0), Double.doubleToRawLongBits(v == 0 ? 0.0 : org.jptxas.simulator.numeric.Ieee.roundToDouble(exact, rnd)));
        } else {
            writeR(t, o.get(0), Float.floatToRawIntBits(v == 0 ? 0.0f : org.jptxas.simulator.numeric.Ieee.roundToFloat(exact, rnd)));
        }
    }

    /** F2I{.FTZ}{.U32|.S32|.U64|.S64}{.F64|.F16|.BF16}{.TRUNC|.FLOOR|.CEIL}{.NTZ}: saturating, NaN to 0. */
    private void f2i(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean fromF64 = op.has("F64");
        boolean fromBf16 = op.has("BF16");
        boolean fromF16 = op.has("F16") || fromBf16;
        int narrow = op.has("S16") || op.has("U16") ? 16 : op.has("S8") || op.has("U8") ? 8 : 0;
        double x;
        if (fromF16) {
            // the low half of the register, or the high one with .H1 (sm_90's .BF16: a bfloat16)
            int bits = read(o.get(1), t, w);
            bits = o.get(1) instanceof Reg r && r.suffix().equals("H1") ? bits >>> 16 : bits;
            x = fromBf16 ? HalfOps.bf16Value(bits, op.has("FTZ")) : HalfOps.value(bits, op.has("FTZ"));
        } else {
            x = fromF64 ? readD(o.get(1), t, w) : readF(o.get(1), t, w);
        }
        if (op.has("FTZ") && !fromF64 && !fromF16) {
            x = org.jptxas.simulator.numeric.Ieee.ftz((float) x);
        }
        double r = op.has("TRUNC") ? (x < 0 ? Math.ceil(x) : Math.floor(x)) : op.has("FLOOR") ? Math.floor(x)
                : op.has("CEIL") ? Math.ceil(x) : Math.rint(x);
        boolean unsigned = op.has("U32") || op.has("U64");
        boolean wide = op.has("S64") || op.has("U64");
        long v;
        if (Double.isNaN(r)) {
            v = 0;
        } else if (wide) {
            if (unsigned) {
                v = r <= 0 ? 0 : r >= 0x1p64 ? -1L : new java.math.BigDecimal(r).toBigInteger().longValue();
            } else {
                v = (long) r;
            }
        } else if (narrow > 0) {
            // saturated to the narrow type's range, sign- or zero-extended to 32 bits
            boolean u = op.has("U16") || op.has("U8");
            double lo = u ? 0 : -Math.pow(2, narrow - 1), hi = u ? Math.pow(2, narrow) - 1 : Math.pow(2, narrow - 1) - 1;
            v = (long) Math.max(lo, Math.min(hi, r));
        } else if (unsigned) {
            v = r <= 0 ? 0 : r >= 4294967295.0 ? 0xffffffffL : (long) r;
        } else {
            v = (int) r;
        }
        if (wide) {
            writeR64(t, o.get(0), v);
        } else {
            writeR(t, o.get(0), (int) v);
        }
    }

    private void imad(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean signed = !op.has("U32");
        if (op.has("WIDE")) {
            // IMAD.WIDE{.U32}{.X} Rd, {Pc,} a, b, c64 {, Pcin}: the optional carry out of the 64-bit sum chains wide adds
            int i = 1;
            SassOperand pOut = null;
            if (o.get(1) instanceof Pred) {
                pOut = o.get(1);
                i = 2;
            }
            long a = signed ? read(o.get(i), t, w) : Integer.toUnsignedLong(read(o.get(i), t, w));
            long b = signed ? read(o.get(i + 1), t, w) : Integer.toUnsignedLong(read(o.get(i + 1), t, w));
            long c = read64(o.get(i + 2), t, w);
            long cin = op.has("X") ? (pred(o.get(o.size() - 1), t, w) ? 1 : 0) : 0;
            long prod = a * b;
            long s1 = prod + c;
            boolean carry = Long.compareUnsigned(s1, prod) < 0;
            long s2 = s1 + cin;
            carry |= cin == 1 && s2 == 0;
            writeR64(t, o.get(0), s2);
            if (pOut != null) {
                writeP(t, pOut, carry);
            }
            return;
        }
        if (op.has("HI")) {
            // IMAD.HI{.U32}{.X} Rd, {Pc,} a, b, c64 {, Pcin}: high word of a*b plus a 64-bit C (a register pair; ptxas's
            // Newton steps put the estimate in its high half), with an optional carry out of bit 64.
            int i = 1;
            SassOperand pOut = null;
            if (o.get(1) instanceof Pred) {
                pOut = o.get(1);
                i = 2;
            }
            if (!(o.get(i + 2) instanceof Reg)) {
                throw unimplemented(op);
            }
            int x = read(o.get(i), t, w), y = read(o.get(i + 1), t, w);
            java.math.BigInteger p = signed ? java.math.BigInteger.valueOf((long) x * y)
                    : java.math.BigInteger.valueOf(Integer.toUnsignedLong(x) * Integer.toUnsignedLong(y))
                            .and(java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE));
            long c64 = read64(o.get(i + 2), t, w);
            java.math.BigInteger sum = p.add(java.math.BigInteger.valueOf(c64).and(java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE)));
            if (op.has("X")) {
                sum = sum.add(java.math.BigInteger.valueOf(pred(o.get(o.size() - 1), t, w) ? 1 : 0));
            }
            writeR(t, o.get(0), sum.shiftRight(32).intValue());
            if (pOut != null) {
                writeP(t, pOut, sum.testBit(64));
            }
            return;
        }
        int a = read(o.get(1), t, w), b = read(o.get(2), t, w), c = read(o.get(3), t, w);
        int r = a * b + c;
        if (op.has("X")) {
            r += pred(o.get(o.size() - 1), t, w) ? 1 : 0;
        }
        writeR(t, o.get(0), r);
    }

    /** The 64-bit value of register pair {@code r}, {@code r + 1} (low word first). */
    private static long pair(Thread t, int r) {
        return Integer.toUnsignedLong(t.r[r]) | (long) t.r[r + 1] << 32;
    }

    long read64(SassOperand o, Thread t, Warp w) {
        if (o instanceof Reg r) {
            return r.index() == 255 ? 0 : pair(t, r.index());
        }
        if (o instanceof UReg u) {
            return u.index() == 63 ? 0 : Integer.toUnsignedLong(w.ur[u.index()]) | (long) w.ur[u.index() + 1] << 32;
        }
        if (o instanceof CBank c) {
            return cbank(c, t, 8);
        }
        if (o instanceof Imm i) {
            return i.bits();
        }
        throw new Stop(new Fault.Unimplemented("64-bit operand " + o, ""));
    }

    /** Contribution of a source to a carry-propagating sum: {@code -x} adds {@code ~x + 1} as the hardware does. */
    private long addend(SassOperand o, Thread t, Warp w) {
        if (o instanceof Reg r && r.negate()) {
            int v = r.index() == 255 ? 0 : t.r[r.index()];
            return Integer.toUnsignedLong(~v) + 1;
        }
        if (o instanceof UReg u && u.negate()) {
            int v = u.index() == 63 ? 0 : w.ur[u.index()];
            return Integer.toUnsignedLong(~v) + 1;
        }
        return Integer.toUnsignedLong(read(o, t, w));
    }

    private void iadd3(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int i = 1;
        SassOperand p0 = null, p1 = null;
        if (o.get(i) instanceof Pred) {
            p0 = o.get(i++);
            if (o.get(i) instanceof Pred) {
                p1 = o.get(i++);
            }
        }
        long sum = addend(o.get(i), t, w) + addend(o.get(i + 1), t, w) + addend(o.get(i + 2), t, w);
        if (op.has("X")) {
            for (int k = i + 3; k < o.size(); k++) {
                sum += pred(o.get(k), t, w) ? 1 : 0;
            }
        }
        writeR(t, o.get(0), (int) sum);
        long carry = sum >>> 32;
        if (p1 != null) {
            // two carry-outs each count one: IADD3.X adds both, so a carry of 2 sets both, not the second alone
            writeP(t, p0, carry >= 1);
            writeP(t, p1, carry >= 2);
        } else if (p0 != null) {
            writeP(t, p0, (carry & 1) != 0);
        }
    }

    private void lea(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int i = 1;
        SassOperand pOut = null;
        if (o.get(i) instanceof Pred) {
            pOut = o.get(i++);
        }
        if (op.has("HI")) {
            // LEA.HI d, lo, base, hi, shift [, carry]; .SX32: hi is the sign of lo
            int lo = read(o.get(i), t, w);
            long base = Integer.toUnsignedLong(read(o.get(i + 1), t, w));
            int hi;
            int shiftIdx;
            if (op.has("SX32")) {
                hi = lo >> 31;
                shiftIdx = i + 2;
            } else {
                hi = read(o.get(i + 2), t, w);
                shiftIdx = i + 3;
            }
            int sh = read(o.get(shiftIdx), t, w) & 63;
            long wide = (Integer.toUnsignedLong(lo) | (long) hi << 32) << sh;
            long sum = base + ((wide >>> 32) & 0xffffffffL);
            if (op.has("X") && shiftIdx + 1 < o.size()) {
                sum += pred(o.get(shiftIdx + 1), t, w) ? 1 : 0;
            }
            writeR(t, o.get(0), (int) sum);
            if (pOut != null) {
                writeP(t, pOut, (sum >>> 32 & 1) != 0);
            }
            return;
        }
        long a = Integer.toUnsignedLong(read(o.get(i), t, w));
        long b = Integer.toUnsignedLong(read(o.get(i + 1), t, w));
        int sh = read(o.get(i + 2), t, w) & 31;
        long sum = ((a << sh) & 0xffffffffL) + b;
        if (op.has("X") && i + 3 < o.size()) {
            sum += pred(o.get(i + 3), t, w) ? 1 : 0;
        }
        writeR(t, o.get(0), (int) sum);
        if (pOut != null) {
            writeP(t, pOut, (sum >>> 32 & 1) != 0); // carry out of the low 32 bits, consumed by LEA.HI.X
        }
    }

    private void shf(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        writeR(t, o.get(0), FunnelShift.shift(FunnelShift.mode(op), read(o.get(1), t, w), read(o.get(2), t, w),
                read(o.get(3), t, w)));
    }

    private void isetp(SassOp op, Thread t, Warp w) {
        integerSetPredicate(op, t, w, (d, v) -> writeP(t, d, v));
    }

    /** UISETP: ISETP over uniform registers into uniform predicates, once per warp. */
    private void uisetp(SassOp op, Thread t, Warp w) {
        integerSetPredicate(op, t, w, (d, v) -> writeUP(w, d, v));
    }

    /** ISETP's two predicates (the comparison and its inverse, each combined with Pc), written by {@code out}. */
    private void integerSetPredicate(SassOp op, Thread t, Warp w,
            java.util.function.BiConsumer<SassOperand, Boolean> out) {
        List<SassOperand> o = op.operands();
        String bool = op.has("AND") ? "AND" : op.has("OR") ? "OR" : "XOR";
        boolean r = integerCompare(op, read(o.get(2), t, w), read(o.get(3), t, w),
                op.has("EX") && (o.size() < 6 || pred(o.get(5), t, w))); // sm_75 hides a PT .EX predicate
        boolean c = pred(o.get(4), t, w);
        out.accept(o.get(0), combine(bool, r, c));
        out.accept(o.get(1), combine(bool, !r, c));
    }

    private static void writeUP(Warp w, SassOperand d, boolean v) {
        int i = ((UPred) d).index();
        if (i != 7) {
            w.up[i] = v;
        }
    }

    /**
     * ISETP's comparison ({@code .U32}: unsigned); with {@code .EX} it compares the high words of a 64-bit pair and
     * {@code low} (the low words' result, by the same comparison) decides when they are equal.
     */
    private boolean integerCompare(SassOp op, int a, int b, boolean low) {
        String cmp = op.modifiers().get(0);
        int ca = op.has("U32") ? Integer.compareUnsigned(a, b) : Integer.compare(a, b);
        if (op.has("EX")) {
            return switch (cmp) {
                case "EQ" -> ca == 0 && low;
                case "NE" -> ca != 0 || low;
                case "LT", "LE" -> ca < 0 || (ca == 0 && low);
                case "GT", "GE" -> ca > 0 || (ca == 0 && low);
                default -> throw unimplemented(op);
            };
        }
        return switch (cmp) {
            case "EQ" -> ca == 0;
            case "NE" -> ca != 0;
            case "LT" -> ca < 0;
            case "LE" -> ca <= 0;
            case "GT" -> ca > 0;
            case "GE" -> ca >= 0;
            case "F" -> false;
            case "T" -> true;
            default -> throw unimplemented(op);
        };
    }

    private static boolean combine(String bool, boolean a, boolean b) {
        return switch (bool) {
            case "AND" -> a && b;
            case "OR" -> a || b;
            default -> a ^ b;
        };
    }

    /**
     * HSETP2 Pp, Pq, a, b, Pc: each half compared, Pp the low half's result and Pq the high half's (.H_AND: both
     * halves' conjunction and its complement), each combined with Pc. HSET2 Rd, a, b, Pc: each half of Rd all ones
     * where the combined result holds (.BF: 1.0), else 0. .BF16_V2 (sm_90): the pairs are bfloat16.
     */
    private void halfSet(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean setp = op.opcode().equals("HSETP2");
        int src = setp ? 2 : 1;
        boolean bf16 = op.has("BF16_V2");
        // the comparison follows the type (.BF16_V2) and result (.BF) tokens
        String cmp = op.modifiers().get((bf16 ? 1 : 0) + (op.has("BF") ? 1 : 0));
        String bool = op.has("AND") ? "AND" : op.has("OR") ? "OR" : "XOR";
        int r = HalfOps.compare2(cmp, halfPair(o.get(src), t, w, op), halfPair(o.get(src + 1), t, w, op), op.has("FTZ"),
                bf16);
        boolean c = pred(o.get(src + 2), t, w);
        if (setp) {
            boolean lo = (r & 1) != 0, hi = (r & 2) != 0;
            if (op.has("H_AND")) {
                lo = lo && hi;
                hi = !lo;
            }
            writeP(t, o.get(0), combine(bool, lo, c));
            writeP(t, o.get(1), combine(bool, hi, c));
        } else {
            int one = !op.has("BF") ? 0xffff : bf16 ? 0x3f80 : 0x3c00; // .BF: 1.0 of the pair's type
            writeR(t, o.get(0), (combine(bool, (r & 1) != 0, c) ? one : 0) | (combine(bool, (r & 2) != 0, c) ? one << 16 : 0));
        }
    }

    private void fsetp(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        String cmp = op.modifiers().get(0);
        String bool = op.has("AND") ? "AND" : op.has("OR") ? "OR" : "XOR";
        boolean dbl = op.opcode().equals("DSETP");
        double a = dbl ? readD(o.get(2), t, w) : readF(o.get(2), t, w), b = dbl ? readD(o.get(3), t, w) : readF(o.get(3), t, w);
        if (op.has("FTZ") && !dbl) {
            a = org.jptxas.simulator.numeric.Ieee.ftz((float) a);
            b = org.jptxas.simulator.numeric.Ieee.ftz((float) b);
        }
        if (cmp.equals("MIN") || cmp.equals("MAX")) {
            // DSETP.MIN/MAX Pselect, Pnan: select a (a is the minimum/maximum, or b is NaN); Pnan: both are NaN
            double m = cmp.equals("MIN") ? Math.min(a, b) : Math.max(a, b);
            boolean selectA = Double.isNaN(b) || !Double.isNaN(a)
                    && Double.doubleToRawLongBits(m) == Double.doubleToRawLongBits(a);
            boolean c0 = pred(o.get(4), t, w);
            writeP(t, o.get(0), combine(bool, selectA, c0));
            writeP(t, o.get(1), Double.isNaN(a) && Double.isNaN(b));
            return;
        }
        boolean r;
        try {
            r = HalfOps.compare(cmp, a, b);
        } catch (IllegalArgumentException e) {
            throw unimplemented(op);
        }
        boolean c = pred(o.get(4), t, w);
        writeP(t, o.get(0), combine(bool, r, c));
        writeP(t, o.get(1), combine(bool, !r, c));
    }

    private void ffma(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        org.jptxas.simulator.numeric.Rounding rnd = op.has("RZ") ? org.jptxas.simulator.numeric.Rounding.RZ
                : op.has("RM") ? org.jptxas.simulator.numeric.Rounding.RM
                : op.has("RP") ? org.jptxas.simulator.numeric.Rounding.RP : org.jptxas.simulator.numeric.Rounding.RN;
        boolean ftz = op.has("FTZ");
        float a = readF(o.get(1), t, w), b = readF(o.get(2), t, w);
        if (ftz) {
            a = org.jptxas.simulator.numeric.Ieee.ftz(a);
            b = org.jptxas.simulator.numeric.Ieee.ftz(b);
        }
        float r;
        switch (op.opcode()) {
            case "FADD" -> r = org.jptxas.simulator.numeric.Ieee.add(a, b, rnd);
            case "FMUL" -> r = org.jptxas.simulator.numeric.Ieee.mul(a, b, rnd);
            default -> {
                float c = readF(o.get(3), t, w);
                if (ftz) {
                    c = org.jptxas.simulator.numeric.Ieee.ftz(c);
                }
                r = org.jptxas.simulator.numeric.Ieee.fma(a, b, c, rnd);
            }
        }
        if (ftz) {
            r = org.jptxas.simulator.numeric.Ieee.ftz(r);
        }
        if (op.has("SAT")) {
            r = org.jptxas.simulator.numeric.Ieee.saturate(r);
        }
        writeR(t, o.get(0), Float.isNaN(r) ? 0x7fffffff : Float.floatToRawIntBits(r));
    }

    private Region spaceRegion(SassOp op, Thread t) {
        return switch (op.opcode()) {
            case "LDS", "STS" -> shared;
            case "LDL", "STL" -> {
                if (t.local == null) {
                    t.local = new Region("local memory", AddressSpace.LOCAL, 0, STACK_BYTES);
                }
                yield t.local;
            }
            default -> null;
        };
    }

    private void load(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean generic = generic(op);
        long a = address((Mem) o.get(1), t, w, wideGlobal(op) || generic && op.has("E"));
        int size = accessSize(op);
        Region r = generic ? window(a, t) : spaceRegion(op, t);
        if (generic && r != null) {
            a = windowOffset(a, r);
        } else if (r == shared) {
            a = sharedOffset(a);
        }
        int d = ((Reg) o.get(0)).index();
        if (size <= 4) {
            long v = r == null ? launch.global().load(a, size) : r.load(a, size);
            int x = (int) v;
            if (signedAccess(op)) {
                x = size == 1 ? (byte) v : (short) v;
            }
            if (d != 255) {
                t.r[d] = x;
            }
            return;
        }
        if ((a & (size - 1)) != 0) {
            throw new MemoryAccessException(r == null ? AddressSpace.GLOBAL : r.space(), a, size, "misaligned");
        }
        for (int k = 0; k < size / 4; k++) {
            long v = r == null ? launch.global().load(a + 4L * k, 4) : r.load(a + 4L * k, 4);
            if (d != 255) {
                t.r[d + k] = (int) v;
            }
        }
    }

    private void store(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean generic = generic(op);
        long a = address((Mem) o.get(0), t, w, wideGlobal(op) || generic && op.has("E"));
        int size = accessSize(op);
        Region r = generic ? window(a, t) : spaceRegion(op, t);
        if (generic && r != null) {
            a = windowOffset(a, r);
        } else if (r == shared) {
            a = sharedOffset(a);
        }
        int s = ((Reg) o.get(1)).index();
        if (size <= 4) {
            long v = s == 255 ? 0 : Integer.toUnsignedLong(t.r[s]);
            if (r == null) {
                launch.global().store(a, size, v);
            } else {
                r.store(a, size, v);
            }
            return;
        }
        if ((a & (size - 1)) != 0) {
            throw new MemoryAccessException(r == null ? AddressSpace.GLOBAL : r.space(), a, size, "misaligned");
        }
        for (int k = 0; k < size / 4; k++) {
            long v = s == 255 ? 0 : Integer.toUnsignedLong(t.r[s + k]);
            if (r == null) {
                launch.global().store(a + 4L * k, 4, v);
            } else {
                r.store(a + 4L * k, 4, v);
            }
        }
    }
}
