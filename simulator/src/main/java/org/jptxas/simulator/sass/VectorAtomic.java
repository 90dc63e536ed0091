package org.jptxas.simulator.sass;

import org.jptxas.simulator.numeric.AtomicLanes;
import org.jptxas.simulator.numeric.AtomicLanes.Lane;
import org.jptxas.simulator.numeric.AtomicLanes.Op;

/** The shape of a vector atomic's type modifier ({@code F32x4}, {@code BF16x8}, {@code F16x2} with MIN/MAX). */
record VectorAtomic(AtomicLanes.Op op, AtomicLanes.Lane lane, int words) {
    /** The vector shape of {@code op}, or null for the scalar atomics (F16x2/BF16x2 add is one of those). */
    static VectorAtomic of(SassOp op, String kind) {
        Op o = switch (kind) {
            case "ADD" -> Op.ADD;
            case "MIN" -> Op.MIN;
            case "MAX" -> Op.MAX;
            default -> null;
        };
        if (o == null) {
            return null;
        }
        for (String mod : op.modifiers()) {
            switch (mod) {
                case "F32x2" -> { return new VectorAtomic(o, Lane.F32, 2); }
                case "F32x4" -> { return new VectorAtomic(o, Lane.F32, 4); }
                case "F16x4" -> { return new VectorAtomic(o, Lane.F16, 2); }
                case "F16x8" -> { return new VectorAtomic(o, Lane.F16, 4); }
                case "BF16x4" -> { return new VectorAtomic(o, Lane.BF16, 2); }
                case "BF16x8" -> { return new VectorAtomic(o, Lane.BF16, 4); }
                case "F16x2" -> { return o == Op.ADD ? null : new VectorAtomic(o, Lane.F16, 1); }
                case "BF16x2" -> { return o == Op.ADD ? null : new VectorAtomic(o, Lane.BF16, 1); }
                default -> { }
            }
        }
        return null;
    }
}
