package org.jptxas.simulator.sass;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.KernelExecutor;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;

import org.jptxas.spi.TargetDescription;
/**
 * The SASS emulator: runs a cubin's kernel with Volta+ per-thread program counters. Each function is decoded once
 * into {@link DecodedOp}s; the hot opcodes run lane-vectorised over a converged group ({@link FastPath}), the rest
 * through per-thread semantics. Convergence barriers (BSSY/BSYNC/BREAK/BMOV) and WARPSYNC are modelled; by default
 * threads at the same address also run together (lowest address first), while {@link #withStrictConvergence strict}
 * mode joins diverged threads only where the code asks for it. Instructions it does not implement stop the run with
 * their name; it never guesses a value. {@link #executeTimed} adds hazards per executed instruction and cycles.
 */
public final class SassEmulator implements KernelExecutor {
    private final TargetDescription target;
    private final SassListing listing;
    private final Map<String, Integer> staticShared;
    /** Every function decoded once for execution. */
    private final Map<String, DecodedOp[]> decoded = new java.util.HashMap<>();
    /** Constant banks other than 0 and module variables, relocated per launch. */
    private final ModuleData module;
    /** Per function, which instructions launches have executed (by pc), for coverage reports. */
    private final Map<String, boolean[]> executed = new java.util.HashMap<>();

    /** The cubin's bytes, for the hazard check of its control words. */
    private final byte[] cubin;
    private Map<String, org.jptxas.simulator.launch.Dim3> clusterShapes;
    private HazardReport hazards;
    private ExecutionTiming timingModel;
    private String timingUnavailable;
    /** Thread states of finished launches, reset and reused by the next launch of the same shape (launches may run in parallel). */
    private final java.util.concurrent.ConcurrentLinkedQueue<Idle> idleThreads =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** A finished launch's threads and their warps. */
    private record Idle(SassMachine.Thread[] threads, SassMachine.Warp[] warps) {}
    /** Strict Volta convergence (see {@link #withStrictConvergence}). */
    private final boolean strictConvergence;

    /**
     * The default convergence model: strict when the system property {@code jptxas.emu.convergence} is
     * {@code strict} (e.g. {@code mvn ... -Dsurefire.argLine=-Djptxas.emu.convergence=strict}), else by address.
     */
    public static boolean strictByDefault() {
        return "strict".equals(System.getProperty("jptxas.emu.convergence"));
    }

    /**
     * The scheduler's hazard checker on the cubin's own control words (stall counts, scoreboards, waits) with the
     * latency model of the target: one line per hazard ({@code function+0xaddr: KIND: detail (instruction)}).
     * {@code unavailable} says why no check was made (no latency model for the target, undecodable code).
     */
    /**
     * The timing of one launch: hazards on the executed paths ({@code function+0xaddr: KIND: detail (instruction)}),
     * the cycle estimate per warp (min, max, sum over warps), and why nothing was checked, if so.
     */
    public record Timing(List<String> hazards, long warps, long minCycles, long maxCycles, long totalCycles,
                         boolean partial, Optional<String> unavailable) {
        public static Timing unavailable(String why) {
            return new Timing(List.of(), 0, 0, 0, 0, false, Optional.of(why));
        }

        public String summary() {
            if (unavailable.isPresent()) {
                return "cycles: not estimated (" + unavailable.get() + ")";
            }
            return String.format("cycles per warp (latency model, encoded control words): min %d, max %d, mean %.0f over %d warp(s)%s",
                    minCycles, maxCycles, warps == 0 ? 0.0 : (double) totalCycles / warps, warps,
                    partial ? " (traces truncated: partial)" : "");
        }
    }

    /** A launch's result with its timing (hazards on the executed paths, cycles per warp). */
    public record TimedResult(LaunchResult result, Timing timing) {}

    public record HazardReport(List<String> hazards, java.util.Optional<String> unavailable) {}

    private SassEmulator(TargetDescription target, byte[] cubin, SassListing listing, Map<String, Integer> staticShared,
            ModuleData module) {
        this(target, cubin, listing, staticShared, module, strictByDefault(), null);
    }

    private SassEmulator(TargetDescription target, byte[] cubin, SassListing listing, Map<String, Integer> staticShared,
                         ModuleData module,
                         boolean strictConvergence, Map<String, DecodedOp[]> decoded) {
        this.strictConvergence = strictConvergence;
        this.target = target;
        this.cubin = cubin.clone();
        this.listing = listing;
        this.staticShared = Map.copyOf(staticShared);
        this.module = module;
        if (decoded != null) {
            this.decoded.putAll(decoded);
        } else {
            listing.programs().forEach((name, ops) -> this.decoded.put(name, DecodedOp.decodeAll(ops)));
        }
    }

    /**
     * This emulator with Volta's convergence semantics enforced ({@code true}): threads that diverged run as separate
     * groups until a BSYNC, WARPSYNC or block barrier joins them (never merely because they reach the same address),
     * the group at the highest address first; warp-synchronous instructions (SHFL, VOTE, MATCH, REDUX) executed by a
     * group missing live threads of their member mask are faults. {@code false}: threads at the same address run
     * together (code without BSSY/BSYNC still computes what it would on a converging GPU).
     */
    public SassEmulator withStrictConvergence(boolean strict) {
        return new SassEmulator(target, cubin, listing, staticShared, module, strict, decoded);
    }

    public boolean strictConvergence() {
        return strictConvergence;
    }

    /**
     * Loads a cubin for a described target, decoding its kernels with jptxas's own SASS decoder (no NVIDIA tool) and
     * the target's encoding tables: code, static shared memory ({@code .nv.shared.<kernel>}), constant banks and
     * module variables. Hazards and timing use the target's latency model.
     *
     * @throws org.jptxas.cubin.CubinFormatException for bytes that are not a cubin
     */
    public static SassEmulator fromCubin(TargetDescription target, byte[] cubin) {
        org.jptxas.cubin.Cubin c = org.jptxas.cubin.Cubin.read(cubin);
        return new SassEmulator(target, cubin, SassListing.decode(target.isa(), c), ModuleData.staticShared(c),
                ModuleData.of(c));
    }

    /** The hazard check of the whole cubin (computed once). The latency model is not exact yet: information only. */
    public synchronized HazardReport hazards() {
        if (hazards == null) {
            try {
                hazards = new HazardReport(List.copyOf(
                        org.jptxas.scheduler.sass.ControlAgreement.checkHazards(cubin, target)), java.util.Optional.empty());
            } catch (RuntimeException e) {
                hazards = new HazardReport(List.of(), java.util.Optional.of(String.valueOf(e.getMessage())));
            }
        }
        return hazards;
    }

    @Override
    public String name() {
        return "SASS emulator (" + target.target().name() + ")";
    }

    @Override
    public List<String> entries() {
        return List.copyOf(listing.functions().keySet());
    }

    /**
     * Every instruction class in the program's functions, except the NOPs that pad a function's end to its alignment
     * (after its final instruction, unreachable).
     */
    public Set<String> classesSeen() {
        Set<String> s = new TreeSet<>();
        listing.functions().values().forEach(ops -> {
            int end = ops.size();
            while (end > 0 && ops.get(end - 1).opcode().equals("NOP") && ops.get(end - 1).modifiers().isEmpty()
                    && ops.get(end - 1).guard() == 7 && !ops.get(end - 1).guardNegated()) {
                end--;
            }
            ops.subList(0, end).forEach(o -> s.add(SassMachine.className(o)));
        });
        return s;
    }

    /** The instruction classes executed so far by this emulator's launches. */
    public synchronized Set<String> classesExecuted() {
        Set<String> s = new TreeSet<>();
        executed.forEach((function, ran) -> {
            DecodedOp[] code = decoded.get(function);
            for (int pc = 0; pc < ran.length; pc++) {
                if (ran[pc]) {
                    s.add(SassMachine.className(code[pc].op));
                }
            }
        });
        return s;
    }

    @Override
    public LaunchResult execute(Launch launch, ExecutionLimits limits) throws LaunchException {
        return run(launch, limits, false).result();
    }

    /**
     * Runs a launch recording every warp's issue order, then checks hazards along the executed paths and estimates
     * cycles per warp with the target's latency model and the cubin's control words.
     */
    public TimedResult executeTimed(Launch launch, ExecutionLimits limits) throws LaunchException {
        return run(launch, limits, true);
    }

    private synchronized ExecutionTiming timingModel() {
        if (timingModel == null && timingUnavailable == null) {
            try {
                timingModel = ExecutionTiming.of(cubin, target);
            } catch (RuntimeException e) {
                timingUnavailable = String.valueOf(e.getMessage());
            }
        }
        return timingModel;
    }

    /** Whether {@code entry}'s code has a cluster barrier instruction ({@code UCGABAR_*}). */
    private boolean usesClusterBarrier(String entry) {
        for (DecodedOp d : decoded.get(entry)) {
            if (d != null && d.op.opcode().startsWith("UCGABAR_")) {
                return true;
            }
        }
        return false;
    }

    /** Each kernel's compile-time cluster shape, read from the cubin on first need. */
    private synchronized Map<String, org.jptxas.simulator.launch.Dim3> clusterShapes() {
        if (clusterShapes == null) {
            clusterShapes = Map.copyOf(ModuleData.clusterShapes(org.jptxas.cubin.Cubin.read(cubin)));
        }
        return clusterShapes;
    }

    private TimedResult run(Launch given, ExecutionLimits limits, boolean timed) throws LaunchException {
        // a kernel with a compile-time cluster runs as a cluster launch even when the launch names none (the driver's way)
        org.jptxas.simulator.launch.Dim3 compiled = given.cluster().isEmpty() ? clusterShapes().get(given.entry()) : null;
        Launch launch = compiled == null ? given : given.withCluster(compiled);
        List<SassOp> code = listing.functions().get(launch.entry());
        if (code == null) {
            throw new LaunchException("no kernel '" + launch.entry() + "' in the cubin (kernels: "
                    + String.join(", ", entries()) + ")");
        }
        if (module.unsupported().isPresent()) {
            return new TimedResult(LaunchResult.faulted(name(), new org.jptxas.simulator.exec.Fault.Unimplemented(
                    module.unsupported().get(), "load of " + launch.entry()), 0, 0), Timing.unavailable("no launch"));
        }
        // Blackwell's LDCU (and its 8-bit uniform register fields, URZ = 255) are not emulated yet: such code would
        // run with wrong uniform values, so the launch stops on the first LDCU by name before anything runs
        for (SassOp op : code) {
            if (op.opcode().equals("LDCU")) {
                return new TimedResult(LaunchResult.faulted(name(), new org.jptxas.simulator.exec.Fault.Unimplemented(
                        "LDCU", op.text() + " (Blackwell code is not emulated yet)"), 0, 0),
                        Timing.unavailable("no launch"));
            }
        }
        Map<Integer, byte[]> banks = module.load(launch.entry(), launch.global());
        SassMachine m = new SassMachine(name(), decoded.get(launch.entry()), launch, limits,
                staticShared.getOrDefault(launch.entry(), 0), banks, module::systemCallAt, strictConvergence, timed);
        Idle idle = idleThreads.poll();
        m.reuse(idle == null ? null : idle.threads(), idle == null ? null : idle.warps());
        LaunchResult r;
        org.jptxas.simulator.launch.Dim3 one = new org.jptxas.simulator.launch.Dim3(1, 1, 1);
        if (launch.cluster().isEmpty() && usesClusterBarrier(launch.entry())) {
            // every sm_90 block is in a cluster: without a cluster launch, one of its own block (flag 0 in bank 0)
            r = ClusterRun.run(name(), launch, one, new SassMachine[] {m});
        } else if (launch.cluster().isEmpty()) {
            r = m.run();
        } else { // one machine per block of a cluster, run together (ClusterRun)
            SassMachine[] members = new SassMachine[(int) launch.cluster().get().count()];
            members[0] = m;
            for (int k = 1; k < members.length; k++) {
                members[k] = new SassMachine(name(), decoded.get(launch.entry()), launch, limits,
                        staticShared.getOrDefault(launch.entry(), 0), banks, module::systemCallAt, strictConvergence, timed);
            }
            r = ClusterRun.run(name(), launch, launch.cluster().get(), members);
        }
        if (m.threads() != null && m.warps() != null && idleThreads.size() < 4) {
            idleThreads.offer(new Idle(m.threads(), m.warps()));
        }
        synchronized (this) {
            boolean[] ran = m.ran();
            boolean[] all = executed.computeIfAbsent(launch.entry(), k -> new boolean[ran.length]);
            for (int pc = 0; pc < ran.length; pc++) {
                all[pc] |= ran[pc];
            }
        }
        Timing timing;
        if (!timed) {
            timing = Timing.unavailable("not recorded");
        } else if (listing.programs().get(launch.entry()) != code) {
            timing = Timing.unavailable("linked code calling into other sections: the latency model follows one function");
        } else if (timingModel() == null) {
            timing = Timing.unavailable(timingUnavailable);
        } else {
            try {
                timing = timingModel().analyze(launch.entry(), m.traces(), m.tracesTruncated());
            } catch (RuntimeException e) {
                timing = Timing.unavailable(String.valueOf(e.getMessage()));
            }
        }
        return new TimedResult(r, timing);
    }
}
