package org.jptxas.ori.ir;

/**
 * A convergence barrier register {@code B0}..{@code B15} of Volta-family SIMT: {@code BSSY Bn, label} records the
 * active threads in it, {@code BSYNC Bn} waits until all of them arrive. Not allocatable: the reconvergence pass
 * assigns them by nesting depth after register allocation.
 */
public record BarrierReg(int index) implements Operand {
    /** How many convergence barrier registers the machine has. */
    public static final int COUNT = 16;

    public BarrierReg {
        if (index < 0 || index >= COUNT) {
            throw new IllegalArgumentException("convergence barrier B" + index + " out of range B0..B15");
        }
    }

    @Override
    public String toString() {
        return "B" + index;
    }
}
