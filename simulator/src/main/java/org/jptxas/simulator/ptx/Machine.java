package org.jptxas.simulator.ptx;

import java.util.ArrayList;
import java.util.List;
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

/**
 * Runs one launch of a {@link PtxProgram}: blocks one after another, warps of a block round-robin, threads of a warp
 * in converged groups (threads at the same function and pc execute together; divergent groups run lowest pc first,
 * which reconverges structured control flow), with barriers, warp-synchronous instructions and calls.
 */
final class Machine {
    /** Generic-address windows of the state spaces that are not global (64-bit generic addressing). */
    static final long SHARED_WINDOW = 0x0000_0100_0000_0000L;
    static final long LOCAL_WINDOW = 0x0000_0200_0000_0000L;
    static final long CONST_WINDOW = 0x0000_0300_0000_0000L;
    /** Kernel parameters ({@code cvta.param}): the offsets of the current frame's parameter area. */
    static final long PARAM_WINDOW = 0x0000_0500_0000_0000L;
    static final long WINDOW_SIZE = 1L << 32;
    private static final int QUANTUM = 256;

    final PtxProgram program;
    final Launch launch;
    final ExecutionLimits limits;
    final CompiledFunction kernel;
    final long[] globalVarAddress;
    final Region constants;
    final byte[] kernelParams;
    final int sharedBytes;
    Dim3Point ctaIndex;
    long warpInstructions;
    long threadInstructions;

    Machine(PtxProgram program, Launch launch, ExecutionLimits limits, CompiledFunction kernel) throws LaunchException {
        this.program = program;
        this.launch = launch;
        this.limits = limits;
        this.kernel = kernel;
        this.kernelParams = launch.paramArea(org.jptxas.simulator.abi.ParamLayout.of(kernel.declaredParams));
        this.globalVarAddress = new long[program.globals.size()];
        Region[] placed = new Region[globalVarAddress.length];
        for (int i = 0; i < globalVarAddress.length; i++) {
            PtxProgram.ModuleVar v = program.globals.get(i);
            Region r = launch.global().allocate("global variable " + v.name(), v.size());
            placed[i] = r;
            System.arraycopy(v.init(), 0, r.bytes(), 0, Math.min(v.init().length, v.size()));
            globalVarAddress[i] = r.base();
        }
        this.constants = new Region("constant memory", AddressSpace.CONST, 0, program.constImage.clone());
        for (PtxProgram.AddressInit a : program.addressInits) {
            PtxProgram.Symbol target = program.moduleSymbols.get(a.symbol());
            if (target == null || target.kind() != PtxProgram.Symbol.Kind.GLOBAL_VAR) {
                throw new LaunchException("initializer holds the address of '" + a.symbol()
                        + "', which is not a global variable (the interpreter places only those)");
            }
            long address = globalVarAddress[target.index()] + a.addend();
            byte[] memory = a.holder() < 0 ? constants.bytes() : placed[a.holder()].bytes();
            for (int i = 0; i < a.width() && a.offset() + i < memory.length; i++) {
                memory[(int) a.offset() + i] = (byte) (address >>> (8 * i));
            }
        }
        int dynBase = (program.staticSharedBytes + 15) & ~15;
        this.sharedBytes = dynBase + launch.dynamicSharedBytes();
    }

    LaunchResult run() {
        Dim3 grid = launch.grid();
        try {
            if (launch.cluster().isPresent()) {
                PtxCluster.run(this);
            } else {
                for (long c = 0; c < grid.count(); c++) {
                    runCta(grid.point(c));
                }
            }
        } catch (FaultException e) {
            return LaunchResult.faulted(PtxInterpreter.NAME, e.fault, warpInstructions, threadInstructions);
        }
        return LaunchResult.completed(PtxInterpreter.NAME, warpInstructions, threadInstructions);
    }

    private void runCta(Dim3Point p) {
        CtaState cta = newCta(p);
        while (cta.exitedThreads < cta.threads.length) {
            if (!sweep(cta) && cta.exitedThreads < cta.threads.length) {
                throw new FaultException(new Fault.BarrierDeadlock(p, deadlockDetail(cta)));
            }
        }
    }

    /** A block's fresh state: its shared memory and threads at the kernel's entry. */
    CtaState newCta(Dim3Point p) {
        Dim3 block = launch.block();
        ctaIndex = p;
        CtaState cta = new CtaState(p, new Region("shared memory", AddressSpace.SHARED, 0, sharedBytes));
        int n = (int) block.count();
        cta.threads = new ThreadState[n];
        for (int i = 0; i < n; i++) {
            ThreadState t = new ThreadState(this, cta, i, block.point(i));
            Region params = new Region("parameters", AddressSpace.PARAM, 0, kernel.paramAreaSize);
            System.arraycopy(kernelParams, 0, params.bytes(), 0, kernelParams.length);
            int localBase = (program.staticLocalBytes + 15) & ~15;
            t.frame = new Frame(kernel, params, localBase, null, 0, null);
            t.localTop = localBase + kernel.localFrameSize;
            cta.threads[i] = t;
        }
        return cta;
    }

    /** One round over the block's warps: whether any moved. */
    boolean sweep(CtaState cta) {
        int n = cta.threads.length;
        int warps = (n + 31) / 32;
        ThreadState[] lanes = new ThreadState[32];
        boolean progress = false;
        for (int w = 0; w < warps; w++) {
            int count = Math.min(32, n - w * 32);
            for (int l = 0; l < 32; l++) {
                lanes[l] = l < count ? cta.threads[w * 32 + l] : null;
            }
            progress |= runWarp(cta, lanes, count);
        }
        return progress;
    }

    String deadlockDetail(CtaState cta) {
        List<String> parts = new ArrayList<>();
        for (int b = 0; b < CtaState.BARRIERS; b++) {
            if (cta.arrived[b] > 0) {
                int need = cta.expected[b] >= 0 ? cta.expected[b] : cta.liveThreads();
                ThreadState any = null;
                for (ThreadState t : cta.threads) {
                    if (t.barrier == b) {
                        any = t;
                        break;
                    }
                }
                String at = any == null ? "" : " at " + any.frame.function.code[any.pc].where() + " (e.g. " + any.ref() + ")";
                parts.add(cta.arrived[b] + " thread(s) wait at barrier " + b + " for " + need + at);
            }
        }
        parts.add(cta.exitedThreads + " of " + cta.threads.length + " threads exited");
        return String.join("; ", parts);
    }

    private boolean runWarp(CtaState cta, ThreadState[] lanes, int count) {
        int executed = 0;
        while (executed < QUANTUM) {
            long best = Long.MAX_VALUE;
            for (int l = 0; l < count; l++) {
                ThreadState t = lanes[l];
                if (!t.exited && t.barrier < 0 && !t.warpWait) {
                    best = Math.min(best, t.key());
                }
            }
            boolean forced = false;
            if (best == Long.MAX_VALUE) {
                for (int l = 0; l < count; l++) {
                    ThreadState t = lanes[l];
                    if (!t.exited && t.barrier < 0 && t.warpWait) {
                        best = Math.min(best, t.key());
                    }
                }
                if (best == Long.MAX_VALUE) {
                    break;
                }
                forced = true;
            }
            int group = 0;
            ThreadState first = null;
            for (int l = 0; l < count; l++) {
                ThreadState t = lanes[l];
                if (!t.exited && t.barrier < 0 && t.key() == best) {
                    group |= 1 << l;
                    if (first == null) {
                        first = t;
                    }
                }
            }
            execute(cta, lanes, count, group, first, forced);
            executed++;
        }
        return executed > 0;
    }

    private void execute(CtaState cta, ThreadState[] lanes, int count, int group, ThreadState first, boolean forced) {
        Insn in = first.frame.function.code[first.pc];
        if (++warpInstructions > limits.maxWarpInstructions()) {
            throw new FaultException(new Fault.StepLimitExceeded(limits.maxWarpInstructions(), first.ref(), in.where()));
        }
        threadInstructions += Integer.bitCount(group);
        switch (in.kind) {
            case SIMPLE -> {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        ThreadState t = lanes[l];
                        if (in.guardPasses(t)) {
                            runGuarded(in, t);
                        }
                        t.pc++;
                    }
                }
            }
            case BRANCH -> {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        ThreadState t = lanes[l];
                        t.pc = !in.guardPasses(t) ? t.pc + 1 : in.table != null ? tableTarget(in, t) : in.target;
                    }
                }
            }
            case WARP -> executeWarp(in, lanes, count, group, first, forced);
            case CALL -> {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        ThreadState t = lanes[l];
                        if (in.guardPasses(t)) {
                            call(t, in);
                        } else {
                            t.pc++;
                        }
                    }
                }
            }
            case RET -> {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        ThreadState t = lanes[l];
                        if (in.guardPasses(t)) {
                            ret(t);
                        } else {
                            t.pc++;
                        }
                    }
                }
            }
            case EXIT -> {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        ThreadState t = lanes[l];
                        if (in.guardPasses(t)) {
                            exit(t);
                        } else {
                            t.pc++;
                        }
                    }
                }
            }
            case BARRIER -> {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        ThreadState t = lanes[l];
                        if (in.guardPasses(t)) {
                            arrive(t, in);
                        } else {
                            t.pc++;
                        }
                    }
                }
            }
            case TRAP -> {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0 && in.guardPasses(lanes[l])) {
                        throw new FaultException(new Fault.Trap(lanes[l].ref(), in.where()));
                    }
                }
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        lanes[l].pc++;
                    }
                }
            }
            case UNSUPPORTED -> {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0 && in.guardPasses(lanes[l])) {
                        throw new FaultException(new Fault.Unimplemented(in.unsupportedName, in.where()));
                    }
                }
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        lanes[l].pc++;
                    }
                }
            }
        }
    }

    private void runGuarded(Insn in, ThreadState t) {
        try {
            in.op.run(t);
        } catch (MemoryAccessException e) {
            throw new FaultException(new Fault.MemoryFault(t.ref(), in.where(), e));
        } catch (InterpreterError e) {
            throw new FaultException(new Fault.InvalidExecution(t.ref(), in.where(), e.getMessage()));
        }
    }

    private void executeWarp(Insn in, ThreadState[] lanes, int count, int group, ThreadState first, boolean forced) {
        int active = 0;
        for (int l = 0; l < count; l++) {
            if ((group >>> l & 1) != 0 && in.guardPasses(lanes[l])) {
                active |= 1 << l;
            }
        }
        if (in.memberMask != null && active != 0 && !forced) {
            int live = 0;
            for (int l = 0; l < count; l++) {
                if (!lanes[l].exited) {
                    live |= 1 << l;
                }
            }
            ThreadState any = lanes[Integer.numberOfTrailingZeros(active)];
            int required = (int) in.memberMask.get(any) & live;
            if ((required & ~group) != 0) {
                for (int l = 0; l < count; l++) {
                    if ((group >>> l & 1) != 0) {
                        lanes[l].warpWait = true;
                    }
                }
                return;
            }
        }
        try {
            if (active != 0) {
                in.warpOp.run(lanes, active);
            }
        } catch (MemoryAccessException e) {
            throw new FaultException(new Fault.MemoryFault(first.ref(), in.where(), e));
        } catch (InterpreterError e) {
            throw new FaultException(new Fault.InvalidExecution(first.ref(), in.where(), e.getMessage()));
        }
        for (int l = 0; l < count; l++) {
            if ((group >>> l & 1) != 0) {
                lanes[l].warpWait = false;
                lanes[l].pc++;
            }
        }
    }

    /** {@code brx.idx}: the table's entry at the thread's index; an index past the table is undefined (PTX ISA). */
    private static int tableTarget(Insn in, ThreadState t) {
        long k = in.tableIndex.get(t) & 0xffffffffL;
        if (k >= in.table.length) {
            throw new FaultException(new Fault.InvalidExecution(t.ref(), in.where(),
                    "brx.idx index " + k + " past its table of " + in.table.length + " targets"));
        }
        return in.table[(int) k];
    }

    private void call(ThreadState t, Insn in) {
        Insn.CallSite cs = in.call;
        CompiledFunction f = cs.target != null ? program.functionAt(cs.target.get(t)) : cs.callee;
        if (f == null && cs.target != null) {
            throw new FaultException(new Fault.InvalidExecution(t.ref(), in.where(),
                    "indirect call to 0x" + Long.toHexString(cs.target.get(t)) + ", which is no function's address"));
        }
        if (f == null) {
            if (cs.calleeName.equals("__assertfail")) {
                throw new FaultException(new Fault.Trap(t.ref(), in.where() + ": device-side assert failed"));
            }
            throw new FaultException(new Fault.Unimplemented("call to external function " + cs.calleeName, in.where()));
        }
        Frame caller = t.frame;
        Region params = new Region("parameters of " + f.name, AddressSpace.PARAM, 0, f.paramAreaSize);
        int base = (t.localTop + 15) & ~15;
        if (f.localFrameSize > 0 && (long) base + f.localFrameSize > limits.localBytesPerThread()) {
            throw new FaultException(new Fault.InvalidExecution(t.ref(), in.where(),
                    "call stack overflow: local memory exceeds " + limits.localBytesPerThread() + " bytes per thread"));
        }
        if (caller.depth >= 10_000) {
            throw new FaultException(new Fault.InvalidExecution(t.ref(), in.where(), "call depth exceeds 10000"));
        }
        Frame callee = new Frame(f, params, base, caller, t.pc + 1, cs);
        int n = Math.min(cs.argOffsets.length, f.paramSizes.length);
        for (int i = 0; i < n; i++) {
            int size = f.paramSizes[i];
            int reg = f.paramRegs[i];
            if (cs.argOffsets[i] >= 0 && reg < 0) {
                int len = Math.min(size, caller.params.size() - cs.argOffsets[i]);
                System.arraycopy(caller.params.bytes(), cs.argOffsets[i], params.bytes(), f.paramOffsets[i], len);
                continue;
            }
            long v = cs.argOffsets[i] >= 0 ? caller.params.load(cs.argOffsets[i], Math.min(size, 8))
                    : cs.argValues[i].get(t);
            if (reg >= 0) {
                callee.regs[reg] = v & f.registerMask[reg];
            } else {
                params.store(f.paramOffsets[i], Math.min(size, 8), v);
            }
        }
        t.localTop = base + f.localFrameSize;
        t.frame = callee;
        t.pc = 0;
    }

    private void ret(ThreadState t) {
        Frame f = t.frame;
        if (f.caller == null) {
            exit(t);
            return;
        }
        Insn.CallSite cs = f.site;
        CompiledFunction fn = f.function;
        Frame caller = f.caller;
        int n = Math.min(cs.retOffsets.length, fn.returnOffsets.length);
        for (int i = 0; i < n; i++) {
            int size = fn.returnSizes[i];
            int reg = fn.returnRegs[i];
            if (cs.retOffsets[i] >= 0 && reg < 0) {
                int len = Math.min(size, caller.params.size() - cs.retOffsets[i]);
                System.arraycopy(f.params.bytes(), fn.returnOffsets[i], caller.params.bytes(), cs.retOffsets[i], len);
                continue;
            }
            long v = reg >= 0 ? f.regs[reg] : f.params.load(fn.returnOffsets[i], Math.min(size, 8));
            if (cs.retRegs[i] >= 0) {
                caller.regs[cs.retRegs[i]] = v & caller.function.registerMask[cs.retRegs[i]];
            } else {
                caller.params.store(cs.retOffsets[i], Math.min(size, 8), v);
            }
        }
        t.localTop = f.localBase;
        t.frame = caller;
        t.pc = f.returnPc;
    }

    private void exit(ThreadState t) {
        t.exited = true;
        t.cta.exitedThreads++;
        for (int b = 0; b < CtaState.BARRIERS; b++) {
            if (t.cta.arrived[b] > 0) {
                checkBarrier(t.cta, b);
            }
        }
        PtxCluster.exited(t);
    }

    private void arrive(ThreadState t, Insn in) {
        Insn.BarrierSpec spec = in.barrier;
        int id = (int) spec.id().get(t);
        if (id < 0 || id >= CtaState.BARRIERS) {
            throw new FaultException(new Fault.InvalidExecution(t.ref(), in.where(), "barrier id " + id + " out of range 0..15"));
        }
        int expected = -1;
        if (spec.count() != null) {
            expected = (int) spec.count().get(t);
            if (expected <= 0 || expected % 32 != 0 && expected != t.cta.threads.length) {
                throw new FaultException(new Fault.InvalidExecution(t.ref(), in.where(),
                        "barrier thread count " + expected + " is not a positive multiple of the warp size"));
            }
        }
        CtaState cta = t.cta;
        cta.arrived[id]++;
        cta.expected[id] = expected;
        if (spec.waits()) {
            t.barrier = id;
            if (spec.predicate() != null) {
                t.barrierPredicate = (spec.predicate().get(t) != 0) != spec.predicateNegated();
            }
        } else {
            t.pc++;
        }
        checkBarrier(cta, id);
    }

    private void checkBarrier(CtaState cta, int id) {
        int need = cta.expected[id] >= 0 ? cta.expected[id] : cta.liveThreads();
        if (cta.arrived[id] < need) {
            return;
        }
        int popc = 0;
        boolean all = true, any = false;
        for (ThreadState t : cta.threads) {
            if (t.barrier == id) {
                popc += t.barrierPredicate ? 1 : 0;
                all &= t.barrierPredicate;
                any |= t.barrierPredicate;
            }
        }
        for (ThreadState t : cta.threads) {
            if (t.barrier == id) {
                Insn in = t.frame.function.code[t.pc];
                Insn.BarrierSpec spec = in.barrier;
                if (spec.reduction() != null && spec.dest() >= 0) {
                    long v = switch (spec.reduction()) {
                        case "popc" -> popc;
                        case "and" -> all ? 1 : 0;
                        default -> any ? 1 : 0;
                    };
                    t.frame.regs[spec.dest()] = v & t.frame.function.registerMask[spec.dest()];
                }
                t.barrier = -1;
                t.barrierPredicate = false;
                t.pc++;
            }
        }
        cta.arrived[id] = 0;
        cta.expected[id] = -1;
    }

    // ---- memory ----

    Region local(ThreadState t) {
        if (t.local == null) {
            t.local = new Region("local memory", AddressSpace.LOCAL, 0, limits.localBytesPerThread());
        }
        return t.local;
    }

    long load(ThreadState t, AddressSpace space, long a, int size) {
        return switch (space) {
            case GLOBAL -> launch.global().load(a, size);
            case SHARED -> PtxCluster.shared(t, a).load(PtxCluster.offset(t, a), size);
            case LOCAL -> local(t).load(a, size);
            case CONST -> constants.load(a, size);
            case PARAM -> t.frame.params.load(a, size);
            case GENERIC -> load(t, windowOf(a), a - windowBase(a), size);
        };
    }

    void store(ThreadState t, AddressSpace space, long a, int size, long v) {
        switch (space) {
            case GLOBAL -> launch.global().store(a, size, v);
            case SHARED -> PtxCluster.shared(t, a).store(PtxCluster.offset(t, a), size, v);
            case LOCAL -> local(t).store(a, size, v);
            case CONST -> throw new MemoryAccessException(AddressSpace.CONST, a, size, "store to constant memory");
            case PARAM -> t.frame.params.store(a, size, v);
            case GENERIC -> store(t, windowOf(a), a - windowBase(a), size, v);
        }
    }

    static AddressSpace windowOf(long a) {
        if (a >= SHARED_WINDOW && a < SHARED_WINDOW + WINDOW_SIZE) {
            return AddressSpace.SHARED;
        }
        if (a >= LOCAL_WINDOW && a < LOCAL_WINDOW + WINDOW_SIZE) {
            return AddressSpace.LOCAL;
        }
        if (a >= CONST_WINDOW && a < CONST_WINDOW + WINDOW_SIZE) {
            return AddressSpace.CONST;
        }
        if (a >= PARAM_WINDOW && a < PARAM_WINDOW + WINDOW_SIZE) {
            return AddressSpace.PARAM;
        }
        return AddressSpace.GLOBAL;
    }

    static long windowBase(long a) {
        return switch (windowOf(a)) {
            case SHARED -> SHARED_WINDOW;
            case LOCAL -> LOCAL_WINDOW;
            case CONST -> CONST_WINDOW;
            case PARAM -> PARAM_WINDOW;
            default -> 0;
        };
    }

    static long windowStart(AddressSpace s) {
        return switch (s) {
            case SHARED -> SHARED_WINDOW;
            case LOCAL -> LOCAL_WINDOW;
            case CONST -> CONST_WINDOW;
            case PARAM -> PARAM_WINDOW;
            default -> 0;
        };
    }

    ThreadRef ref(ThreadState t) {
        return t.ref();
    }
}
