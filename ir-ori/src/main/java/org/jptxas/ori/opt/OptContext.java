package org.jptxas.ori.opt;

import java.util.Objects;
import org.jptxas.ori.target.Target;

/**
 * What passes may know about the compilation: the target (the uniform datapath exists from sm_75) and the
 * function's name for messages.
 */
public record OptContext(Target target, String function) {
    public OptContext {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(function, "function");
    }

    /** Turing and later have the uniform datapath (UR/UP registers, S2UR, ULDC, U-ops). */
    public boolean hasUniformDatapath() {
        return target.sm() >= 75;
    }

    /**
     * ALU instructions read constant-bank operands directly ({@code IADD3 R0, R1, c[0x0][0x160], RZ}) before
     * Hopper; sm_90 code reads them through uniform registers (ULDC), which the uniform-datapath pass introduces.
     */
    public boolean aluReadsConstantBank() {
        return target.sm() < 90;
    }
}
