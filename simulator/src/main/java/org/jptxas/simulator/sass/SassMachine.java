package org.jptxas.simulator.sass;

import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.exec.ThreadRef;
import org.jptxas.simulator.launch.Dim3;
import org.jptxas.simulator.launch.Dim3Point;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.memory.Region;

/** One launch on the SASS emulator: blocks in order, warps round-robin, converged groups of threads per warp. */
final class SassMachine {
    private static final int QUANTUM = 256;
    /** Local memory per thread reported to the kernel as the stack top ({@code c[0x0][0x28]}). */
    static final int STACK_BYTES = 16 * 1024;
    /** The window of constant bank 0 the code may read. */
    static final int CBANK0_BYTES = 0x10000;

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
    final DecodedOp[] code;
    final Launch launch;
    private final ExecutionLimits limits;
    /** Constant bank 0 as filled (the rest of its 64 KiB reads as zeros, see {@link OperandAccess#cbank}). */
    final Region cbank0;
    private final int sharedBytes;
    private final int sharedBase;
    final Region[] banks = new Region[18];
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
    final WarpgroupOps warpgroupOps = new WarpgroupOps();
    Thread[] threads;
    /** Threads of an earlier launch with the same block shape and register count, to reset instead of allocating. */
    private Thread[] reusable;
    /** The warps of those threads (taken with them). */
    private Warp[] reusableWarps;
    int exitedCount;
    final int[] arrived = new int[16];
    /** The thread count each barrier waits for (from BAR's count operand), -1 for every live thread. */
    final int[] expected = new int[16];
    Warp[] warpState;
    /** Registers per thread (see {@link DecodedOp#zeroSlot}). */
    final int registers;
    /** Volta semantics without merging by address: groups reconverge only at BSYNC, WARPSYNC, BAR and EXIT. */
    final boolean strict;
    /** The system call (vprintf, malloc, __assertfail, ...) a code address stands for, if any. */
    final java.util.function.LongFunction<java.util.Optional<String>> systemCallAt;
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
    long warpInstructions;
    private long threadInstructions;

    /** The instruction families' semantics: made once per launch, so running an instruction allocates nothing. */
    final OperandAccess operands = new OperandAccess(this);
    final AddressWindows windows = new AddressWindows(this);
    final ThreadSemantics perThread = new ThreadSemantics(this);
    final WarpCollectives collectives = new WarpCollectives(this);
    final ConvergenceControl control = new ConvergenceControl(this);
    final UniformDatapath uniformPath = new UniformDatapath(this);
    final IntegerOps integer = new IntegerOps(this);
    final FloatOps floating = new FloatOps(this);
    final MemoryOps memory = new MemoryOps(this);
    final TextureOps textures = new TextureOps(this);

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
        this.cbank0 = new Region("constant bank 0", AddressSpace.CONST, 0, windows.withWindows(launch.naturalConstantBank0(STACK_BYTES)));
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
    HopperAsyncOps hopper() {
        if (hopper == null || !hopper.serves(shared)) {
            hopper = new HopperAsyncOps(shared, launch.global(), this);
        }
        return hopper;
    }

    HopperAsyncOps hopper;

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
        java.util.Arrays.fill(expected, -1);
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
                    case BAR_SYNC -> control.barrierSync(d.aux, base, group, guarded(d, base, group));
                    case EXIT -> control.exit(warp, group, guarded(d, base, group));
                    default -> perThread.execute(d, pc, base, count, group, warp);
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
        if (pc < 0 || pc >= code.length || code[pc] == null) {
            // a branch target is a code word's own field: a corrupted word can point before the code as well as past it
            throw new Stop(new Fault.InvalidExecution(ref(threads[base + Integer.numberOfTrailingZeros(group)]),
                    String.format("0x%04x", pc * 16L), pc < 0 ? "execution jumped before the start of the kernel's code"
                            : "execution ran off the end of the kernel's code"));
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

    /** What an exception raised while {@code op} ran for {@code first}'s group means for the launch. */
    Stop fault(RuntimeException e, SassOp op, Thread first) {
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

    Stop unimplemented(SassOp op) {
        if (op.opcode().equals(SassListing.UNKNOWN)) {
            return new Stop(new Fault.Unimplemented("UNKNOWN (bits jptxas's SASS decoder does not know)", op.where()));
        }
        return new Stop(new Fault.Unimplemented(op.fullName(), op.where()));
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

    int special(String sr, Thread t) {
        return SpecialRegisters.read(sr, t, cta, warpInstructions, seat == null ? 0 : seat.rank());
    }
}
