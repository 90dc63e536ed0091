package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.TargetProfile;

/**
 * The mid-level optimization pipeline the driver runs on each lowered function before legalization and register
 * allocation. {@link #forLevel} gives ptxas's {@code -O} levels their pass lists; the sequence repeats until nothing
 * changes (at most {@link #MAX_ROUNDS} times) because folding feeds propagation and the other way round.
 * Immutable and thread-safe; one instance can optimize many functions in parallel.
 */
public final class OptPipeline {
    /** Rounds of the whole sequence before giving up on a fixed point. */
    public static final int MAX_ROUNDS = 4;

    /** Called after every pass that ran on a function (for {@code --dump-ir=PASS}, statistics). */
    @FunctionalInterface
    public interface Observer {
        void afterPass(Pass pass, OriFunction function, boolean changed);
    }

    private final List<Pass> passes;
    private final boolean verify;
    private final Observer observer;
    private final java.util.function.Predicate<org.jptxas.ori.ir.Instr> encodable;

    private OptPipeline(List<Pass> passes, boolean verify, Observer observer,
                        java.util.function.Predicate<org.jptxas.ori.ir.Instr> encodable) {
        this.passes = List.copyOf(passes);
        this.verify = verify;
        this.observer = observer;
        this.encodable = encodable;
    }

    /** The passes for {@code -O0} … {@code -O3} (ptxas's default is 3), contracting as {@code --fmad=true}. */
    public static OptPipeline forLevel(int optLevel) {
        return forLevel(optLevel, true);
    }

    /**
     * The passes for {@code -O0} … {@code -O3}. Level 0 runs nothing (ptxas contracts nothing at -O0 either);
     * {@code fmad} ({@code --fmad}) adds {@link FmaContraction} from level 1 on.
     */
    public static OptPipeline forLevel(int optLevel, boolean fmad) {
        return forLevel(optLevel, fmad, false);
    }

    /**
     * As {@link #forLevel(int, boolean)}, with {@link LoopUnrolling} first at -O3 when {@code unroll}. The driver asks
     * for it (ptxas 13 unrolls counted loops fully at -O3); the two-argument forms leave it out, so the passes' own
     * tests see the loops they build.
     */
    public static OptPipeline forLevel(int optLevel, boolean fmad, boolean unroll) {
        List<Pass> p = new ArrayList<>();
        // one instance where a pass appears twice: the driver knows it as the same function of the body
        DeadCodeElimination dce = new DeadCodeElimination();
        BranchCleanup branches = new BranchCleanup();
        if (optLevel >= 3 && unroll) {
            // first: web splitting then gives every unrolled copy its own registers, and the folders its constants
            p.add(new LoopUnrolling());
        }
        if (optLevel >= 1) {
            // early: the copies it leaves feed propagation and folding (ptxas 13 keeps small frames in registers
            // from -O1 on)
            p.add(new LocalArrayPromotion());
        }
        if (optLevel >= 2) {
            p.add(new WebSplitting());
            p.add(new UniformWaterfall());
        }
        if (optLevel >= 1 && fmad) {
            p.add(new FmaContraction());
        }
        if (optLevel >= 1) {
            p.add(new ConstantFolding());
            p.add(branches);
            p.add(new CopyPropagation());
        }
        if (optLevel >= 2) {
            p.add(new PredicatedZeroFill());
        }
        if (optLevel >= 2) {
            p.add(new CommonSubexpressionElimination());
            p.add(new InstructionCombining());
            // after combining (a multiply foldable into an add of the loop is an IMAD there by now) and before
            // compare chaining (an invariant compare out of the loop is not repeated into each and.pred)
            p.add(new LoopInvariantCodeMotion());
            // WideMultiplyNarrowing is not in the pipeline: with it, mcx_core (gpuocelot) on sm_80/86/89 gets four MOVs
            // that read a scoreboarded load's registers without waiting (jnvdisasm --check-hazards). The pass's output
            // is right in the Ori evaluator; the control-word generator misses the dependency on the code it leads to.
            p.add(new NegatedCompares());
            p.add(new MinMaxSelection());
            p.add(new ZeroTestsOfNegations());
            p.add(new CompareChaining());
            p.add(new AddressModeFolding());
            p.add(new RedundantLoadElimination());
            // after address folding (the [base+offset] forms are final) and load CSE (which matches 32-bit loads)
            p.add(new AlignedWordPairs());
            p.add(new ConstantMoveSinking());
        }
        if (optLevel >= 1) {
            p.add(dce);
            // after dead-code elimination: the channels whose copies it removed are the ones nothing reads
            p.add(new TextureWriteMasks());
        }
        if (optLevel >= 3) {
            p.add(new IfConversion());
            p.add(new BlockMerging());
            // after merging: a one-block target has moved up already; a longer run then moves as a whole
            p.add(new JumpTargetRuns());
            p.add(new JoinHoisting());
            p.add(new AtomicAggregation());
            p.add(new UnusedAtomicResults());
            p.add(new UniformArithmetic());
            p.add(new UniformDatapath());
            p.add(new ConstantPairLoads());
            p.add(dce);
        }
        if (optLevel >= 2) {
            p.add(new TupleCoalescing());
        }
        if (optLevel >= 1) {
            // after the passes that fold, merge or move constant reads: only the lines of the reads left change
            p.add(new ParameterReadLines());
        }
        if (optLevel >= 1) {
            // Passes late in the list (dead-code elimination, for one) can leave a branch to a block that now only
            // exits; cleaned up here, the round after confirms the whole list once, where a cleanup only at the
            // third place made that round change and a third round confirm the passes before it.
            p.add(branches);
        }
        return new OptPipeline(p, false, null, null);
    }

    /** A pipeline of exactly these passes (tests, experiments). */
    public static OptPipeline of(List<Pass> passes) {
        return new OptPipeline(passes, false, null, null);
    }

    /** The same pipeline, checking the IR with {@link IrVerifier} after every pass ({@code --verify-ir}). */
    public OptPipeline verifying(boolean on) {
        return new OptPipeline(passes, on, observer, encodable);
    }

    public OptPipeline observedBy(Observer o) {
        return new OptPipeline(passes, verify, Objects.requireNonNull(o, "observer"), encodable);
    }

    /**
     * The same pipeline asking the backend whether a rewritten instruction encodes (for example, an instruction
     * if-conversion would guard): {@code check} gets Ori with virtual registers, as the backend's legalizer sees it.
     */
    public OptPipeline encodableWhen(java.util.function.Predicate<org.jptxas.ori.ir.Instr> check) {
        return new OptPipeline(passes, verify, observer, Objects.requireNonNull(check, "check"));
    }

    public List<Pass> passes() {
        return passes;
    }

    /** Optimizes every lowered function of the module in place, for the target {@code profile} describes. */
    public void run(OriModule module, TargetProfile profile) {
        for (OriFunction f : module.functions()) {
            run(f, profile);
        }
    }

    /**
     * Optimizes one function in place.
     *
     * @throws IllegalStateException when verifying and a pass leaves the IR malformed (names the pass and problems)
     */
    public void run(OriFunction function, TargetProfile target) {
        if (function.body().blocks().isEmpty()) {
            return;
        }
        OptContext cx = new OptContext(target, function.name(), function.entry(), encodable);
        cx.analyses().trust();
        // Problems the input already has (a device function's parameters are read before any write) are the
        // producer's; a pass is blamed only for new ones.
        List<String> before = verify ? IrVerifier.verify(function.name(), function.body()) : List.of();
        // A pass is a function of the body: one that left the body unchanged, run again on that same body (no
        // pass changed it since), changes nothing again, so it is not run. The confirming rounds of the fixed
        // point then run only the passes that come after a change, and a pass listed twice (the same instance)
        // is not rerun on the body it has just confirmed. quietAt[slot]: the step at which the pass of that slot
        // last ran without a change (-1: never, or it changed the body); lastChange: the step of the body's last
        // change.
        int[] slotOf = slots(passes);
        int[] quietAt = new int[passes.size()];
        java.util.Arrays.fill(quietAt, -1);
        int lastChange = -1;
        int step = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            boolean any = false;
            for (int i = 0; i < passes.size(); i++, step++) {
                Pass pass = passes.get(i);
                int slot = slotOf[i];
                boolean unchangedInput = quietAt[slot] > lastChange;
                boolean changed = !unchangedInput && pass.run(function.body(), cx);
                if (changed) {
                    lastChange = step;
                    quietAt[slot] = -1;
                } else if (!unchangedInput) {
                    quietAt[slot] = step;
                }
                any |= changed;
                if (changed) {
                    cx.analyses().changed();
                }
                if (verify && changed) {
                    List<String> problems = new ArrayList<>(IrVerifier.verify(function.name(), function.body()));
                    problems.removeAll(before);
                    if (!problems.isEmpty()) {
                        throw new IllegalStateException("IR malformed after pass " + pass.name() + ":\n  "
                                + String.join("\n  ", problems));
                    }
                }
                if (observer != null) {
                    observer.afterPass(pass, function, changed);
                }
            }
            if (!any) {
                break;
            }
        }
    }

    /** Per list position, the position of the pass instance's first appearance in the list. */
    private static int[] slots(List<Pass> passes) {
        int[] slot = new int[passes.size()];
        for (int i = 0; i < passes.size(); i++) {
            slot[i] = i;
            for (int j = 0; j < i; j++) {
                if (passes.get(j) == passes.get(i)) {
                    slot[i] = j;
                    break;
                }
            }
        }
        return slot;
    }
}
