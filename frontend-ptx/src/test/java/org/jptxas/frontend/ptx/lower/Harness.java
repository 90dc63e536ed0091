package org.jptxas.frontend.ptx.lower;

import java.util.Random;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.target.Target;

/** Lowers PTX instructions into a {@link TestLoweringContext} and runs them with {@link OriEvaluator}. */
final class Harness {
    final TestLoweringContext cx;

    Harness(String target) {
        cx = new TestLoweringContext(Target.of(target));
    }

    Harness() {
        this("sm_80");
    }

    Harness reg(String name, PtxType t) {
        cx.declare(name, t);
        return this;
    }

    Reg r(String name) {
        return cx.regs.get(name);
    }

    Harness lower(InstructionLowerer l, String ptx) {
        cx.lower(l, TestLoweringContext.parse(ptx));
        cx.endInstruction();
        return this;
    }

    OriEvaluator eval() {
        return new OriEvaluator(cx);
    }

    int instructionCount() {
        return cx.body.instructionCount();
    }

    /** Random f32 bits biased toward interesting exponents (denormals, near the extremes, around 1). */
    static float randomFloat(Random rnd) {
        int sign = rnd.nextInt() & 0x80000000;
        int mant = rnd.nextInt() & 0x7fffff;
        int exp = switch (rnd.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 0xff - rnd.nextInt(4);
            case 2 -> 1 + rnd.nextInt(30);
            case 3 -> 0xfe - rnd.nextInt(30);
            case 4 -> 100 + rnd.nextInt(56);
            default -> rnd.nextInt(256);
        };
        if (rnd.nextInt(4) == 0) {
            mant &= rnd.nextBoolean() ? 0 : ~0xfff;
        }
        return Float.intBitsToFloat(sign | exp << 23 | mant);
    }

    static final float[] SPECIAL_F32 = {0f, -0f, 1f, -1f, 2f, 3f, 0.5f, Float.MIN_VALUE, -Float.MIN_VALUE,
        Float.MIN_NORMAL, Math.nextDown(Float.MIN_NORMAL), Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.NaN, Float.intBitsToFloat(0xffc00001), 0x1p126f, 0x1p127f, 0x1p-126f, 0x1p-127f,
        0x1.fffffep126f, 0x1p-149f, 3e-39f, 1e38f, 7f, 1e-38f, 0x1.000002p0f, 0x1.fffffep-1f, 1e-45f, 0x1p-24f};
}
