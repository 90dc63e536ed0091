package org.jptxas.ori.opt;

import java.util.Objects;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.target.TargetFeature;
import org.jptxas.ori.target.TargetProfile;

/**
 * What passes may know about the compilation: the target's profile (its features), the function's name for
 * messages, and whether it is a kernel. A device function's parameters and results are virtual registers
 * read before any write and written without a later read (live across its entry and its RET), so passes keep
 * writes nothing in the body reads.
 */
public record OptContext(TargetProfile target, String function, boolean entry,
                         java.util.function.Predicate<org.jptxas.ori.ir.Instr> encodable, Analyses analyses) {
    public OptContext {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(analyses, "analyses");
    }

    /** A context whose analyses are rebuilt at every request (passes run on their own). */
    public OptContext(TargetProfile target, String function, boolean entry,
                      java.util.function.Predicate<org.jptxas.ori.ir.Instr> encodable) {
        this(target, function, entry, encodable, new Analyses());
    }

    /**
     * The {@link SingleDefs} of {@code body} as a pass starts: the one built by an earlier pass when the pipeline
     * running the passes vouches that no pass has changed the body since ({@link Analyses#trust}), else a new one.
     * A pass that rewrites the body and then needs def-use facts again builds its own.
     */
    public SingleDefs singleDefs(FunctionBody body) {
        return analyses.singleDefs(body);
    }

    /**
     * Analyses shared by consecutive passes over an unchanged body. Passes rebuilt SingleDefs (CFG, dominators,
     * numbering, positions, def and use lists) six times per round although the last round changes nothing.
     */
    public static final class Analyses {
        private boolean trusted;
        private FunctionBody body;
        private SingleDefs singleDefs;

        /** Called by the pipeline: from now on, {@link #changed} is called after every pass that changes the body. */
        void trust() {
            trusted = true;
        }

        /** The body changed: what was built for it is stale. */
        void changed() {
            body = null;
            singleDefs = null;
        }

        SingleDefs singleDefs(FunctionBody b) {
            if (trusted && singleDefs != null && body == b) {
                return singleDefs;
            }
            SingleDefs sd = new SingleDefs(b);
            body = b;
            singleDefs = sd;
            return sd;
        }
    }

    /** A context for a device function (the conservative choice) without an encodability check. */
    public OptContext(TargetProfile target, String function) {
        this(target, function, false, null);
    }

    /**
     * Whether the backend can encode {@code in} (virtual registers, after its legalization) on the target, when
     * the backend said how to ask; empty when it did not, and passes keep to forms ptxas itself writes.
     */
    public java.util.Optional<Boolean> canEncode(org.jptxas.ori.ir.Instr in) {
        return encodable == null ? java.util.Optional.empty() : java.util.Optional.of(encodable.test(in));
    }

    /** The uniform datapath (UR/UP registers, S2UR, ULDC, U-ops; Turing and later). */
    public boolean hasUniformDatapath() {
        return target.has(TargetFeature.UNIFORM_DATAPATH);
    }

    /** REDUX, a warp-wide integer reduction (sm_80 and later). */
    public boolean hasWarpRedux() {
        return target.has(TargetFeature.WARP_REDUX);
    }

    /**
     * ALU instructions read constant-bank operands directly ({@code IADD3 R0, R1, c[0x0][0x160], RZ}) before
     * Hopper; sm_90 code reads them through uniform registers (ULDC), which the uniform-datapath pass introduces.
     */
    public boolean aluReadsConstantBank() {
        return target.has(TargetFeature.ALU_READS_CONSTANT_BANK);
    }
}
