package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.numeric.Rounding;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.Imm;
import org.jptxas.simulator.sass.SassOperand.Reg;

/**
 * Floating-point arithmetic, compares and conversions on the per-thread path: FFMA, DFMA, MUFU, FMNMX, FSETP, the
 * half-precision pairs, FRND, F2F, I2F, F2I.
 */
final class FloatOps {
    private final SassMachine machine;
    private final OperandAccess operands;

    FloatOps(SassMachine machine) {
        this.machine = machine;
        this.operands = machine.operands;
    }

    /** FRND{.F64}{.FTZ}{.TRUNC|.FLOOR|.CEIL}: round to an integral value (to nearest even by default). */
    void frnd(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        org.jptxas.simulator.numeric.Rounding rnd = op.has("TRUNC") ? org.jptxas.simulator.numeric.Rounding.RZ
                : op.has("FLOOR") ? org.jptxas.simulator.numeric.Rounding.RM
                : op.has("CEIL") ? org.jptxas.simulator.numeric.Rounding.RP : org.jptxas.simulator.numeric.Rounding.RN;
        if (op.has("F16") || op.has("BF16")) {
            // the low half rounded to an integral value; a NaN becomes the canonical 0x7fff
            boolean bf = op.has("BF16");
            int h = operands.read(o.get(1), t, w) & 0xffff;
            float x = bf ? SmallFloats.bf16ToFloat(h)
                    : SmallFloats.halfToFloat(h);
            float r = (float) org.jptxas.simulator.numeric.Ieee.roundIntegral(x, rnd);
            OperandAccess.writeR(t, o.get(0), Float.isNaN(r) ? 0x7fff
                    : bf ? SmallFloats.toBf16(r)
                    : SmallFloats.toHalf(r));
            return;
        }
        if (op.has("F64")) {
            double x = operands.readD(o.get(1), t, w);
            double r = org.jptxas.simulator.numeric.Ieee.roundIntegral(x, rnd);
            OperandAccess.writeR64(t, o.get(0), Double.isNaN(r) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(r));
            return;
        }
        float x = operands.readF(o.get(1), t, w);
        if (op.has("FTZ")) {
            x = org.jptxas.simulator.numeric.Ieee.ftz(x);
        }
        float r = (float) org.jptxas.simulator.numeric.Ieee.roundIntegral(x, rnd);
        OperandAccess.writeR(t, o.get(0), Float.isNaN(r) ? 0x7fffffff : Float.floatToRawIntBits(r));
    }

    /**
     * F2FP{.SATFINITE}{.RELU}{.F16|.BF16}{.F32}.PACK_AB{.RZ} d, a, b: two f32 rounded to 16 bits (to nearest, or toward
     * zero), a high, b low; MERGE_C d, b, c: b rounded into the low half, c's high half kept (ptxas's scalar
     * cvt.{f16,bf16}.f32). .SATFINITE turns an infinite result into the largest finite value of its sign.
     */
    void f2fp(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (op.has("PACK_AB_MERGE_C")) {
            f2fpFp8(op, t, w);
            return;
        }
        if (op.has("UNPACK_B_MERGE_C")) {
            // F2FP.SATFINITE{.RELU}.{E4M3|E5M2}.F16.UNPACK_B_MERGE_C d, b, c: b's f16 pair to an fp8 pair in the low
            // half (the high f16 into bits 8-15), c's high half kept
            boolean e4m3 = op.has("E4M3");
            if (o.size() != 3 || !op.has("SATFINITE") || !op.has("F16") || e4m3 == op.has("E5M2")
                    || op.modifiers().size() != (op.has("RELU") ? 5 : 4)) {
                throw machine.unimplemented(op);
            }
            int b = operands.read(o.get(1), t, w);
            boolean relu = op.has("RELU");
            int hi = fp8(SmallFloats.halfToFloat(b >>> 16), e4m3, relu);
            int lo = fp8(SmallFloats.halfToFloat(b & 0xffff), e4m3, relu);
            OperandAccess.writeR(t, o.get(0), operands.read(o.get(2), t, w) & 0xffff0000 | hi << 8 | lo);
            return;
        }
        if (op.has("TF32")) {
            // F2FP{.RELU}.TF32.F32.PACK_B{.RZ} d, b: b rounded to tf32 (to nearest even, or toward zero)
            if (o.size() != 2 || !op.has("PACK_B") || !op.has("F32")
                    || op.modifiers().size() != 3 + (op.has("RELU") ? 1 : 0) + (op.has("RZ") ? 1 : 0)) {
                throw machine.unimplemented(op);
            }
            OperandAccess.writeR(t, o.get(0), SmallFloats.toTf32(operands.read(o.get(1), t, w), op.has("RZ"),
                    op.has("RELU")));
            return;
        }
        if (op.has("UNPACK_B")) {
            // F2FP{.RELU}.F16.{E4M3|E5M2}.UNPACK_B d, b: b's two low bytes widened to an f16 pair
            boolean e4m3 = op.has("E4M3");
            if (o.size() != 2 || !op.has("F16") || e4m3 == op.has("E5M2")
                    || op.modifiers().size() != (op.has("RELU") ? 4 : 3)) {
                throw machine.unimplemented(op);
            }
            OperandAccess.writeR(t, o.get(0), SmallFloats.fp8ToHalfPair(
                    operands.read(o.get(1), t, w), e4m3, op.has("RELU")));
            return;
        }
        for (String m : op.modifiers()) {
            if (!m.equals("PACK_AB") && !m.equals("MERGE_C") && !m.equals("F16") && !m.equals("BF16")
                    && !m.equals("F32") && !m.equals("RELU") && !m.equals("RZ") && !m.equals("SATFINITE")) {
                throw machine.unimplemented(op);
            }
        }
        boolean bf = op.has("BF16");
        boolean satfinite = op.has("SATFINITE");
        if (op.has("MERGE_C")) {
            int lo = half(operands.readF(o.get(1), t, w), bf, op.has("RELU"), op.has("RZ"), satfinite);
            OperandAccess.writeR(t, o.get(0), operands.read(o.get(2), t, w) & 0xffff0000 | lo);
            return;
        }
        if (!op.has("PACK_AB")) {
            throw machine.unimplemented(op);
        }
        int hi = half(operands.readF(o.get(1), t, w), bf, op.has("RELU"), op.has("RZ"), satfinite);
        int lo = half(operands.readF(o.get(2), t, w), bf, op.has("RELU"), op.has("RZ"), satfinite);
        OperandAccess.writeR(t, o.get(0), hi << 16 | lo);
    }

    /**
     * F2FP.SATFINITE{.E4M3|.E5M2}.F32.PACK_AB_MERGE_C{.RELU} d, a, b, c: two f32 to fp8 (to nearest, saturating to
     * the largest finite), a in bits 8-15, b in bits 0-7, the high half from c.
     */
    private void f2fpFp8(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean e4m3 = op.has("E4M3");
        if (!op.has("SATFINITE") || !op.has("F32") || e4m3 == op.has("E5M2") || o.size() != 4
                || op.modifiers().size() != (op.has("RELU") ? 5 : 4)) {
            throw machine.unimplemented(op);
        }
        boolean relu = op.has("RELU");
        int hi = fp8(operands.readF(o.get(1), t, w), e4m3, relu);
        int lo = fp8(operands.readF(o.get(2), t, w), e4m3, relu);
        OperandAccess.writeR(t, o.get(0), operands.read(o.get(3), t, w) & 0xffff0000 | hi << 8 | lo);
    }

    /** .RELU clamps a negative value to 0; -0 is not negative and stays (as the f16 packs and the interpreter do). */
    private static int fp8(float x, boolean e4m3, boolean relu) {
        if (relu && x < 0) {
            x = 0;
        }
        return SmallFloats.toFp8Satfinite(x, e4m3);
    }

    private static int half(float x, boolean bf16, boolean relu, boolean towardZero, boolean satfinite) {
        if (relu && !Float.isNaN(x) && x < 0) {
            x = 0;
        }
        int h = SmallFloats.toHalf(x, bf16, towardZero ? Rounding.RZ : Rounding.RN);
        if (satfinite) {
            if (Float.isNaN(x)) {
                return 0x7fff;
            }
            int inf = bf16 ? 0x7f80 : 0x7c00;
            if ((h & 0x7fff) == inf) {
                h--; // past the largest finite value (or infinite): that value, sign kept
            }
        }
        return h;
    }

    /** The rounding an F2F names: .RZ, .RM, .RP, or to nearest. */
    private static Rounding rounding(SassOp op) {
        return op.has("RZ") ? Rounding.RZ : op.has("RM") ? Rounding.RM : op.has("RP") ? Rounding.RP : Rounding.RN;
    }

    /** F2F.F16.F32{.RZ} and F2F.F16.F64 (round to binary16) and F2F.F32.F16 (widen one). */
    void f2fHalf(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        List<String> m = op.modifiers();
        if (m.size() >= 2 && (m.get(0).equals("F16") || m.get(0).equals("BF16")) && m.get(1).equals("F32")) {
            // F2F{.FTZ}.{F16,BF16}.F32{.RZ,.RM,.RP}: rounded once to the 16-bit type in d's low half
            float x = operands.readF(o.get(1), t, w);
            if (op.has("FTZ")) {
                x = org.jptxas.simulator.numeric.Ieee.ftz(x);
            }
            OperandAccess.writeR(t, o.get(0), SmallFloats.toHalf(x, m.get(0).equals("BF16"), rounding(op)));
        } else if (m.size() >= 2 && m.get(0).equals("F16") && m.get(1).equals("F64")) { // F2F.F16.F64{.RM,.RP,.RZ}
            OperandAccess.writeR(t, o.get(0), SmallFloats.toHalf(operands.readD(o.get(1), t, w), false, rounding(op)));
        } else if (m.size() >= 2 && (m.get(0).equals("F16") || m.get(0).equals("BF16"))
                && (m.get(1).equals("F16") || m.get(1).equals("BF16") || m.get(1).equals("F64"))) {
            // sm_90's F2F.{BF16.F16|F16.BF16|BF16.F64}{.RZ,.RM,.RP}: the source (a 16-bit one in the low half) rounded
            double x = m.get(1).equals("F64") ? operands.readD(o.get(1), t, w)
                    : m.get(1).equals("BF16") ? SmallFloats.bf16ToFloat(operands.read(o.get(1), t, w))
                    : SmallFloats.halfToFloat(operands.read(o.get(1), t, w) & 0xffff);
            OperandAccess.writeR(t, o.get(0), SmallFloats.toHalf(x, m.get(0).equals("BF16"), rounding(op)));
        } else if (m.size() >= 2 && m.get(0).equals("F64") && (m.get(1).equals("BF16") || m.get(1).equals("F16"))) {
            // F2F.F64.{F16,BF16}{.RM,.RP,.RZ}: exact whatever the rounding; a NaN is the canonical f64 NaN
            float f = widen(operands.read(o.get(1), t, w), m.get(1).equals("BF16"));
            OperandAccess.writeR64(t, o.get(0), Float.isNaN(f) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(f));
        } else if (m.size() >= 2 && widensToF32(m)) {
            // F2F{.FTZ}.F32.{F16,BF16}{.RM,.RP,.RZ}: exact; .FTZ makes a subnormal result (only a bf16 one can be) a
            // zero of its sign; a NaN is the canonical f32 NaN
            float f = widen(operands.read(o.get(1), t, w), op.has("BF16"));
            if (op.has("FTZ")) {
                f = org.jptxas.simulator.numeric.Ieee.ftz(f);
            }
            OperandAccess.writeR(t, o.get(0), Float.isNaN(f) ? 0x7fffffff : Float.floatToRawIntBits(f));
        } else {
            throw machine.unimplemented(op);
        }
    }

    /**
     * F2IP.U8.F32{.TRUNC,.FLOOR,.CEIL}.NTZ d, a, b, c (cvt.rni/rzi.u8.f32, sm_86+): a and b rounded to integers and
     * saturated to 0..255, b in the low byte and a above it, c's low bits above the pair (the layout of I2IP); .NTZ: a
     * NaN converts to 0. (ptxas writes s8 destinations as F2I.S8: a signed F2IP is not modelled.)
     */
    void f2ip(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (o.size() != 4 || !op.has("NTZ") || !op.has("F32") || !op.has("U8")
                || op.modifiers().stream().anyMatch(m -> !List.of("U8", "F32", "NTZ", "TRUNC", "FLOOR", "CEIL").contains(m))) {
            throw machine.unimplemented(op);
        }
        Rounding r = op.has("TRUNC") ? Rounding.RZ : op.has("FLOOR") ? Rounding.RM : op.has("CEIL") ? Rounding.RP : Rounding.RN;
        int hi = PackedOps.floatToUnsignedByte(operands.readF(o.get(1), t, w), r);
        int lo = PackedOps.floatToUnsignedByte(operands.readF(o.get(2), t, w), r);
        OperandAccess.writeR(t, o.get(0), PackedOps.packSaturated(hi, lo, operands.read(o.get(3), t, w), 8, false));
        t.pc++;
    }

    /** The F32 destination and a 16-bit source of a widening F2F, after an optional leading .FTZ. */
    private static boolean widensToF32(List<String> m) {
        int i = m.get(0).equals("FTZ") ? 1 : 0;
        return m.size() >= i + 2 && m.get(i).equals("F32") && (m.get(i + 1).equals("F16") || m.get(i + 1).equals("BF16"));
    }

    /** A 16-bit float source (the register's low half) as the f32 it widens to exactly. */
    private static float widen(int bits, boolean bf16) {
        return bf16 ? SmallFloats.bf16ToFloat(bits & 0xffff) : SmallFloats.halfToFloat(bits & 0xffff);
    }

    /** HMNMX2 d, a, b, Pp and I2IP.*.S32.SAT d, a, b, c: operands read here, the numerics in {@link PackedOps}. */
    void packed(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (op.opcode().equals("HMNMX2") && o.size() == 4 && op.modifiers().stream().allMatch(m -> m.equals("NAN")
                || m.equals("BF16_V2") || m.equals("XORSIGN") || m.equals("FTZ"))) {
            boolean bf16 = op.has("BF16_V2");
            int a = halfPair(o.get(1), t, w, op), b = halfPair(o.get(2), t, w, op);
            if (op.has("FTZ")) {
                a = PackedOps.flushSubnormals(a, bf16);
                b = PackedOps.flushSubnormals(b, bf16);
            }
            int r = PackedOps.minMax2(a, b, operands.pred(o.get(3), t, w), op.has("NAN"), bf16);
            if (op.has("XORSIGN")) {
                r = PackedOps.xorSigns(r, rawRegister(o.get(1), t, op) ^ rawRegister(o.get(2), t, op), bf16);
            }
            OperandAccess.writeR(t, o.get(0), r);
        } else if (op.opcode().equals("I2IP") && o.size() == 4 && op.has("SAT") && op.has("S32")
                && op.modifiers().size() == 3) {
            int bits = op.has("U2") || op.has("S2") ? 2 : op.has("U4") || op.has("S4") ? 4
                    : op.has("U8") || op.has("S8") ? 8 : op.has("U16") || op.has("S16") ? 16 : 0;
            if (bits == 0) {
                throw machine.unimplemented(op);
            }
            OperandAccess.writeR(t, o.get(0), PackedOps.packSaturated(operands.read(o.get(1), t, w), operands.read(o.get(2), t, w),
                    operands.read(o.get(3), t, w), bits, op.has("S2") || op.has("S4") || op.has("S8") || op.has("S16")));
        } else {
            throw machine.unimplemented(op);
        }
    }

    /**
     * A register operand's halves after its swizzle but before its |abs| or negation (.XORSIGN takes the sources' own
     * signs, of the halves the operation reads).
     */
    private int rawRegister(SassOperand o, Thread t, SassOp op) {
        if (o instanceof Reg r) {
            int v = r.index() == 255 ? 0 : t.r[r.index()];
            return switch (r.suffix()) {
                case "" -> v;
                case "H0_H0" -> (v & 0xffff) | (v << 16);
                case "H1_H1" -> (v >>> 16) | (v & 0xffff0000);
                default -> throw machine.unimplemented(op);
            };
        }
        throw machine.unimplemented(op);
    }

    /** A packed-half source: register swizzles (.H0_H0, .H1_H1), negation and |abs| apply to both halves. */
    private int halfPair(SassOperand o, Thread t, Warp w, SassOp op) {
        int v = rawRegister(o, t, op); // a register with its swizzle, or unimplemented
        Reg r = (Reg) o;
        if (r.abs()) {
            v &= 0x7fff7fff;
        }
        if (r.negate()) {
            v ^= 0x80008000;
        }
        return v;
    }

    /**
     * HADD2 / HMUL2 / HFMA2 on packed halves, round to nearest ({@code .FTZ}, {@code .SAT}: {@link HalfOps#result});
     * HFMA2's C may be two half immediates (hi, lo).
     */
    void half2(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (op.opcode().equals("HADD2") && (op.modifiers().equals(List.of("F32"))
                || op.modifiers().equals(List.of("F32", "SAT"))) && o.size() == 3) {
            // HADD2.F32 Rd, a, b: the low halves (after swizzles) added into an f32 result (.SAT: clamped to [0, 1],
            // NaN to 0, as FADD.SAT)
            int a = halfPair(o.get(1), t, w, op), b = halfPair(o.get(2), t, w, op);
            float r = SmallFloats.halfToFloat(a & 0xffff)
                    + SmallFloats.halfToFloat(b & 0xffff);
            if (op.has("SAT")) {
                r = org.jptxas.simulator.numeric.Ieee.saturate(r);
            }
            OperandAccess.writeR(t, o.get(0), Float.isNaN(r) ? 0x7fffffff : Float.floatToRawIntBits(r));
            return;
        }
        boolean f32First = o.size() == 3 && o.get(1) instanceof Reg f && f.suffix().equals("F32") && !f.negate()
                && !f.abs();
        if (op.opcode().equals("HADD2") && (f32First || o.size() == 3 && o.get(2) instanceof SassOperand.F32Constant)
                && op.modifiers().stream().allMatch(m -> m.equals("SAT"))) {
            // HADD2 Rd, Ra.F32, b (or a, c[..].F32): an f32 source plus each half of the other, narrowed toward zero
            // into each half. sm_75's ptxas 13 writes it (b = -0) for cvt.rz.f16.f32 alone, and F2F for the other
            // roundings: the narrowing of an f32 source truncates (the word has no rounding field; .SAT clamps to
            // [0, 1] first). With a constant it loads a 16-bit immediate: -RZ.H0_H0 + c[0x2] [off].F32
            Reg f = f32First ? (Reg) o.get(1) : null;
            float x = Float.intBitsToFloat(f32First ? f.index() == 255 ? 0 : t.r[f.index()]
                    : (int) operands.cbank(((SassOperand.F32Constant) o.get(2)).source(), t, 4));
            int b = halfPair(o.get(f32First ? 2 : 1), t, w, op);
            int r = 0;
            for (int k = 0; k < 2; k++) {
                double v = (double) x + HalfOps.value(b >>> (16 * k), false);
                if (op.has("SAT")) {
                    v = org.jptxas.simulator.numeric.Ieee.saturate(v);
                }
                r |= (SmallFloats.toHalf(v, false, org.jptxas.simulator.numeric.Rounding.RZ) & 0xffff) << (16 * k);
            }
            OperandAccess.writeR(t, o.get(0), r);
            return;
        }
        boolean oob = op.has("OOB") && op.opcode().equals("HFMA2");
        // HFMA2.MMA.BF16_V2 d, a, hi, lo, c: b as two bf16 immediates (sm_90's bf16 add a * (1, 1) + c)
        boolean bf16Pair = op.opcode().equals("HFMA2") && o.size() == 5 && o.get(2) instanceof Imm
                && o.get(3) instanceof Imm;
        if (op.has("BF16_V2") && (o.size() == (op.opcode().equals("HFMA2") ? 4 : 3) || bf16Pair) && op.modifiers()
                .stream().allMatch(m -> m.equals("BF16_V2") || m.equals("RELU") || m.equals("MMA")
                        || oob && m.equals("OOB"))) {
            // bf16 pairs as one fma each: HADD2 a + b = a * 1 + b, HMUL2 a * b = a * b + (-0)
            int a = halfPair(o.get(1), t, w, op);
            int b = bf16Pair ? SmallFloats.toBf16(((Imm) o.get(2)).value()) << 16
                    | SmallFloats.toBf16(((Imm) o.get(3)).value()) : halfPair(o.get(2), t, w, op);
            int r = switch (op.opcode()) {
                case "HFMA2" -> {
                    int c = halfPair(o.get(bf16Pair ? 4 : 3), t, w, op);
                    int v = PackedOps.fma2Bf16(a, b, c, op.has("RELU"));
                    yield oob ? PackedOps.oobClamp(v, a, b, c) : v;
                }
                case "HADD2" -> PackedOps.fma2Bf16(a, 0x3f80_3f80, b, op.has("RELU"));
                default -> PackedOps.fma2Bf16(a, b, 0x8000_8000, op.has("RELU"));
            };
            OperandAccess.writeR(t, o.get(0), r);
            return;
        }
        for (String m : op.modifiers()) {
            if (!m.equals("MMA") && !m.equals("FTZ") && !m.equals("SAT") && !(m.equals("RELU") && op.opcode().equals("HFMA2"))
                    && !(oob && m.equals("OOB"))) {
                throw machine.unimplemented(op);
            }
        }
        boolean ftz = op.has("FTZ"), sat = op.has("SAT"), relu = op.has("RELU");
        boolean fma = op.opcode().equals("HFMA2");
        boolean mul = op.opcode().equals("HMUL2");
        int a = halfPair(o.get(1), t, w, op);
        int b;
        int c;
        int next;
        // An immediate pair as the second operand: HADD2/HMUL2 R0, R2, 1, 1 and HFMA2(.MMA) R0, R2, 1, 1, R5.
        if (o.get(2) instanceof Imm i2 && o.size() > 3 && o.get(3) instanceof Imm i3 && (!fma || o.size() == 5)) {
            b = (SmallFloats.toHalf(i2.value()) << 16) | SmallFloats.toHalf(i3.value());
            next = 4;
        } else {
            b = halfPair(o.get(2), t, w, op);
            next = 3;
        }
        if (fma) {
            if (o.size() == next + 2 && o.get(next) instanceof Imm hi && o.get(next + 1) instanceof Imm lo) {
                c = (SmallFloats.toHalf(hi.value()) << 16) | SmallFloats.toHalf(lo.value());
            } else if (o.size() == next + 1) {
                c = halfPair(o.get(next), t, w, op);
            } else {
                throw machine.unimplemented(op);
            }
        } else {
            if (o.size() != next) {
                throw machine.unimplemented(op);
            }
            c = mul ? 0x80008000 : 0; // x*y + (-0) keeps a product's sign; x + y*1 below for add
        }
        int r = 0;
        for (int k = 0; k < 2; k++) {
            double x = HalfOps.value(a >>> (16 * k), ftz);
            double y = HalfOps.value(b >>> (16 * k), ftz);
            double z = HalfOps.value(c >>> (16 * k), ftz);
            double v = fma ? Math.fma(x, y, z) : mul ? x * y : x + y;
            if (relu && v < 0) {
                v = 0; // .RELU: a negative result is 0 (-0 and NaN stay, as the bf16 form's)
            }
            r |= HalfOps.result(v, ftz, sat) << (16 * k);
        }
        OperandAccess.writeR(t, o.get(0), oob ? PackedOps.oobClamp(r, a, b, c) : r);
    }

    /** I2F{.F64}{.S32|.U32|.S64|.U64}{.RZ|.RM|.RP}: integer to float in a rounding direction. */
    void i2f(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean wideSrc = op.has("S64") || op.has("U64");
        boolean unsigned = op.has("U32") || op.has("U64");
        boolean toF64 = op.has("F64");
        boolean toBf16 = op.has("BF16");
        boolean toF16 = op.has("F16") || toBf16;
        int narrow = op.has("S16") || op.has("U16") ? 16 : op.has("S8") || op.has("U8") ? 8 : 0;
        unsigned |= op.has("U16") || op.has("U8");
        long v = wideSrc ? wideSource(o.get(1), t, w) : unsigned ? Integer.toUnsignedLong(operands.read(o.get(1), t, w)) : operands.read(o.get(1), t, w);
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
            OperandAccess.writeR(t, o.get(0), v == 0 ? 0 : HalfOps.fromInteger(exact, rnd, toBf16));
        } else if (toF64) {
            OperandAccess.writeR64(t, o.get(0), Double.doubleToRawLongBits(v == 0 ? 0.0 : org.jptxas.simulator.numeric.Ieee.roundToDouble(exact, rnd)));
        } else {
            OperandAccess.writeR(t, o.get(0), Float.floatToRawIntBits(v == 0 ? 0.0f : org.jptxas.simulator.numeric.Ieee.roundToFloat(exact, rnd)));
        }
    }

    /**
     * I2F.{S64,U64}'s source. An immediate is the high word, the low word zero (as an f64 immediate is a double's
     * high word): ptxas writes {@code I2F.S64 R5, -0x80000000} for cvt.rn.f32.s64 of INT64_MIN only, and loads -1 or
     * 16777217, which a sign-extended 32-bit immediate would hold, from c[0x2].
     */
    private long wideSource(SassOperand o, Thread t, Warp w) {
        return o instanceof Imm i && !i.floating() ? i.bits() << 32 : operands.read64(o, t, w);
    }

    /** F2I{.FTZ}{.U32|.S32|.U64|.S64}{.F64|.F16|.BF16}{.TRUNC|.FLOOR|.CEIL}{.NTZ}: saturating, NaN to 0. */
    void f2i(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean fromF64 = op.has("F64");
        boolean fromBf16 = op.has("BF16");
        boolean fromF16 = op.has("F16") || fromBf16;
        int narrow = op.has("S16") || op.has("U16") ? 16 : op.has("S8") || op.has("U8") ? 8 : 0;
        double x;
        if (fromF16) {
            // the low half of the register, or the high one with .H1 (sm_90's .BF16: a bfloat16)
            int bits = operands.read(o.get(1), t, w);
            bits = o.get(1) instanceof Reg r && r.suffix().equals("H1") ? bits >>> 16 : bits;
            x = fromBf16 ? HalfOps.bf16Value(bits, op.has("FTZ")) : HalfOps.value(bits, op.has("FTZ"));
        } else {
            x = fromF64 ? operands.readD(o.get(1), t, w) : operands.readF(o.get(1), t, w);
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
            OperandAccess.writeR64(t, o.get(0), v);
        } else {
            OperandAccess.writeR(t, o.get(0), (int) v);
        }
    }

    /**
     * HSETP2 Pp, Pq, a, b, Pc: each half compared, Pp the low half's result and Pq the high half's (.H_AND: both
     * halves' conjunction and its complement), each combined with Pc. HSET2 Rd, a, b, Pc: each half of Rd all ones
     * where the combined result holds (.BF: 1.0), else 0. .BF16_V2 (sm_90): the pairs are bfloat16.
     */
    void halfSet(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean setp = op.opcode().equals("HSETP2");
        int src = setp ? 2 : 1;
        boolean bf16 = op.has("BF16_V2");
        // the comparison follows the type (.BF16_V2) and result (.BF) tokens
        String cmp = op.modifiers().get((bf16 ? 1 : 0) + (op.has("BF") ? 1 : 0));
        String bool = op.has("AND") ? "AND" : op.has("OR") ? "OR" : "XOR";
        int r = HalfOps.compare2(cmp, halfPair(o.get(src), t, w, op), halfPair(o.get(src + 1), t, w, op), op.has("FTZ"),
                bf16);
        boolean c = operands.pred(o.get(src + 2), t, w);
        if (setp) {
            boolean lo = (r & 1) != 0, hi = (r & 2) != 0;
            if (op.has("H_AND")) {
                lo = lo && hi;
                hi = !lo;
            }
            OperandAccess.writeP(t, o.get(0), IntegerOps.combine(bool, lo, c));
            OperandAccess.writeP(t, o.get(1), IntegerOps.combine(bool, hi, c));
        } else {
            int one = !op.has("BF") ? 0xffff : bf16 ? 0x3f80 : 0x3c00; // .BF: 1.0 of the pair's type
            OperandAccess.writeR(t, o.get(0), (IntegerOps.combine(bool, (r & 1) != 0, c) ? one : 0) | (IntegerOps.combine(bool, (r & 2) != 0, c) ? one << 16 : 0));
        }
    }

    /**
     * FSET.{cmp}.{bool} Rd, a, b, Pc: the f32 comparison combined with Pc; all ones where it holds, else 0 (.BF: 1.0f
     * where it holds). The comparison follows the .BF token; .FTZ flushes subnormal sources first.
     */
    void fset(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        String cmp = op.modifiers().get(op.modifiers().get(0).equals("BF") ? 1 : 0);
        String bool = op.has("AND") ? "AND" : op.has("OR") ? "OR" : "XOR";
        float a = operands.readF(o.get(1), t, w), b = operands.readF(o.get(2), t, w);
        if (op.has("FTZ")) {
            a = org.jptxas.simulator.numeric.Ieee.ftz(a);
            b = org.jptxas.simulator.numeric.Ieee.ftz(b);
        }
        boolean r;
        try {
            r = HalfOps.compare(cmp, a, b);
        } catch (IllegalArgumentException e) {
            throw machine.unimplemented(op);
        }
        boolean holds = IntegerOps.combine(bool, r, operands.pred(o.get(3), t, w));
        OperandAccess.writeR(t, o.get(0), !holds ? 0 : op.has("BF") ? Float.floatToRawIntBits(1.0f) : -1);
    }

    void fsetp(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        String cmp = op.modifiers().get(0);
        String bool = op.has("AND") ? "AND" : op.has("OR") ? "OR" : "XOR";
        boolean dbl = op.opcode().equals("DSETP");
        double a = dbl ? operands.readD(o.get(2), t, w) : operands.readF(o.get(2), t, w), b = dbl ? operands.readD(o.get(3), t, w) : operands.readF(o.get(3), t, w);
        if (op.has("FTZ") && !dbl) {
            a = org.jptxas.simulator.numeric.Ieee.ftz((float) a);
            b = org.jptxas.simulator.numeric.Ieee.ftz((float) b);
        }
        if (cmp.equals("MIN") || cmp.equals("MAX")) {
            // DSETP.MIN/MAX Pselect, Pnan: select a (a is the minimum/maximum, or b is NaN); Pnan: both are NaN
            double m = cmp.equals("MIN") ? Math.min(a, b) : Math.max(a, b);
            boolean selectA = Double.isNaN(b) || !Double.isNaN(a)
                    && Double.doubleToRawLongBits(m) == Double.doubleToRawLongBits(a);
            boolean c0 = operands.pred(o.get(4), t, w);
            OperandAccess.writeP(t, o.get(0), IntegerOps.combine(bool, selectA, c0));
            OperandAccess.writeP(t, o.get(1), Double.isNaN(a) && Double.isNaN(b));
            return;
        }
        boolean r;
        try {
            r = HalfOps.compare(cmp, a, b);
        } catch (IllegalArgumentException e) {
            throw machine.unimplemented(op);
        }
        boolean c = operands.pred(o.get(4), t, w);
        OperandAccess.writeP(t, o.get(0), IntegerOps.combine(bool, r, c));
        OperandAccess.writeP(t, o.get(1), IntegerOps.combine(bool, !r, c));
    }

    void ffma(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        org.jptxas.simulator.numeric.Rounding rnd = op.has("RZ") ? org.jptxas.simulator.numeric.Rounding.RZ
                : op.has("RM") ? org.jptxas.simulator.numeric.Rounding.RM
                : op.has("RP") ? org.jptxas.simulator.numeric.Rounding.RP : org.jptxas.simulator.numeric.Rounding.RN;
        boolean ftz = op.has("FTZ") || op.has("FMZ");
        float a = operands.readF(o.get(1), t, w), b = operands.readF(o.get(2), t, w);
        if (ftz) {
            a = org.jptxas.simulator.numeric.Ieee.ftz(a);
            b = org.jptxas.simulator.numeric.Ieee.ftz(b);
        }
        if (op.has("FMZ") && (a == 0f || b == 0f)) {
            // .FMZ (nvdisasm names bit 76 of FFMA so): a zero factor makes the product +0 whatever the other one
            // holds (infinity and NaN too); the factors are flushed as with .FTZ
            a = 0f;
            b = 0f;
        }
        float r;
        switch (op.opcode()) {
            case "FADD" -> r = org.jptxas.simulator.numeric.Ieee.add(a, b, rnd);
            case "FMUL" -> r = org.jptxas.simulator.numeric.Ieee.mul(a, b, rnd);
            default -> {
                float c = operands.readF(o.get(3), t, w);
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
        OperandAccess.writeR(t, o.get(0), Float.isNaN(r) ? 0x7fffffff : Float.floatToRawIntBits(r));
    }

    /** F2F between f64 and f32 (the half-precision forms in {@link #f2fHalf}). */
    void f2f(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (op.has("F64") && op.modifiers().indexOf("F64") == 0 && op.has("F32")) { // F2F.F64.F32
            // exact; a NaN becomes the canonical f64 NaN, as every other conversion's NaN result here
            float f = operands.readF(o.get(1), t, w);
            OperandAccess.writeR64(t, o.get(0), Float.isNaN(f) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(f));
        } else if (op.has("F32") && op.modifiers().indexOf("F32") == 0 && op.has("F64")) { // F2F.F32.F64{.RZ}
            double d = operands.readD(o.get(1), t, w);
            org.jptxas.simulator.numeric.Rounding rnd = op.has("RZ") ? org.jptxas.simulator.numeric.Rounding.RZ
                    : op.has("RM") ? org.jptxas.simulator.numeric.Rounding.RM
                    : op.has("RP") ? org.jptxas.simulator.numeric.Rounding.RP : org.jptxas.simulator.numeric.Rounding.RN;
            float f = Double.isNaN(d) || Double.isInfinite(d) || d == 0 ? (float) d
                    : org.jptxas.simulator.numeric.Ieee.roundToFloat(new java.math.BigDecimal(d), rnd);
            OperandAccess.writeR(t, o.get(0), Float.isNaN(f) ? 0x7fffffff : Float.floatToRawIntBits(f));
        } else {
            f2fHalf(op, t, w);
        }
        t.pc++;
    }

    /**
     * MUFU: the multi-function unit (reciprocal, square roots, exp2, log2, sine, cosine, tanh). The unit flushes
     * subnormal inputs and results to zeros of their sign (f64 subnormals for .RCP64H/.RSQ64H): PTX's .ftz forms
     * (rcp/sqrt/rsqrt/lg2.approx.ftz.f32, rcp/rsqrt.approx.ftz.f64) are one MUFU, the others scale subnormals first.
     */
    void mufu(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        if (op.has("RCP64H") || op.has("RSQ64H")) {
            // Seeds for f64 Newton iterations: the high word of the f64 result from the high word of the input.
            // (an immediate is the f64 value nvdisasm prints, "3" being 3.0, not a high word)
            double d = flushed(o.get(1) instanceof SassOperand.Imm i && i.floating() ? i.value()
                    : Double.longBitsToDouble((long) upperWord(o.get(1), t, w) << 32));
            double r = flushed(op.has("RCP64H") ? 1.0 / d : 1.0 / Math.sqrt(d));
            OperandAccess.writeR(t, o.get(0), (int) (Double.doubleToRawLongBits(r) >>> 32));
            t.pc++;
            return;
        }
        if (op.has("F16") || op.has("BF16")) {
            mufuHalf(op, t, w);
            return;
        }
        float x = flushed(operands.readF(o.get(1), t, w));
        double r = switch (op.modifiers().get(0)) {
            case "RCP" -> 1.0 / x;
            case "RSQ" -> 1.0 / Math.sqrt(x);
            case "SQRT" -> Math.sqrt(x);
            case "EX2" -> Math.pow(2.0, x);
            case "LG2" -> Math.log(x) / Math.log(2.0);
            case "SIN" -> Math.sin(2 * Math.PI * x); // the argument is in revolutions (pre-scaled by 1/2pi)
            case "COS" -> Math.cos(2 * Math.PI * x);
            case "TANH" -> Math.tanh(x);
            default -> throw machine.unimplemented(op);
        };
        float f = flushed((float) r);
        OperandAccess.writeR(t, o.get(0), Float.isNaN(f) ? 0x7fffffff : Float.floatToRawIntBits(f));
        t.pc++;
    }

    /** An f64's upper word as a source: -R and |R| act on its sign bit (ptxas's MUFU.RCP64H R7, -RZ is -0.0). */
    private int upperWord(SassOperand o, Thread t, Warp w) {
        if (o instanceof SassOperand.Reg r && (r.negate() || r.abs())) {
            int v = r.index() == 255 ? 0 : t.r[r.index()];
            v = r.abs() ? v & 0x7fffffff : v;
            return r.negate() ? v ^ 0x80000000 : v;
        }
        return operands.read(o, t, w);
    }

    /** A subnormal f32 as a zero of its sign. */
    private static float flushed(float x) {
        return Math.abs(x) < Float.MIN_NORMAL ? Math.copySign(0.0f, x) : x;
    }

    /** A subnormal f64 as a zero of its sign. */
    private static double flushed(double x) {
        return Math.abs(x) < Double.MIN_NORMAL ? Math.copySign(0.0, x) : x;
    }

    /**
     * MUFU.{EX2,TANH}.{F16,BF16} d, a{.H1}: one 16-bit lane (the low half, or the high with .H1) through the unit, the
     * result rounded to the lane's type in d's low half; a NaN result is the canonical 0x7fff.
     */
    private void mufuHalf(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean bf = op.has("BF16");
        int h = operands.read(o.get(1), t, w) & 0xffff; // the read applies .H1
        float x = bf ? SmallFloats.bf16ToFloat(h)
                : SmallFloats.halfToFloat(h);
        double r = switch (op.modifiers().get(0)) {
            case "EX2" -> Math.pow(2.0, x);
            case "TANH" -> Math.tanh(x);
            default -> throw machine.unimplemented(op);
        };
        OperandAccess.writeR(t, o.get(0), Double.isNaN(r) ? 0x7fff
                : bf ? SmallFloats.toBf16(r) : SmallFloats.toHalf(r));
        t.pc++;
    }

    /** DFMA, DADD and DMUL with their rounding modes. */
    void doubleArith(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        double a = operands.readD(o.get(1), t, w), b = operands.readD(o.get(2), t, w);
        org.jptxas.simulator.numeric.Rounding rnd = op.has("RZ") ? org.jptxas.simulator.numeric.Rounding.RZ
                : op.has("RM") ? org.jptxas.simulator.numeric.Rounding.RM
                : op.has("RP") ? org.jptxas.simulator.numeric.Rounding.RP : org.jptxas.simulator.numeric.Rounding.RN;
        double r = switch (op.opcode()) {
            case "DADD" -> org.jptxas.simulator.numeric.Ieee.add(a, b, rnd);
            case "DMUL" -> org.jptxas.simulator.numeric.Ieee.mul(a, b, rnd);
            default -> org.jptxas.simulator.numeric.Ieee.fma(a, b, operands.readD(o.get(3), t, w), rnd);
        };
        OperandAccess.writeR64(t, o.get(0), Double.isNaN(r) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(r));
        t.pc++;
    }

    /** FMNMX: float minimum or maximum (NaN operands as IEEE minNum and maxNum unless .NAN). */
    void fmnmx(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        float a = operands.readF(o.get(1), t, w), b = operands.readF(o.get(2), t, w);
        if (op.has("FTZ")) {
            a = org.jptxas.simulator.numeric.Ieee.ftz(a);
            b = org.jptxas.simulator.numeric.Ieee.ftz(b);
        }
        boolean min = operands.pred(o.get(3), t, w);
        float r = Float.isNaN(a) ? b : Float.isNaN(b) ? a : min ? Math.min(a, b) : Math.max(a, b);
        if (op.has("NAN") && (Float.isNaN(a) || Float.isNaN(b))) {
            r = Float.NaN; // .NAN: a NaN operand gives the canonical NaN
        }
        int bits = Float.isNaN(r) ? 0x7fffffff : Float.floatToRawIntBits(r);
        if (op.has("XORSIGN") && !Float.isNaN(r)) {
            // .XORSIGN (on |a|, |b|): the result's sign is the sources' own signs xored
            bits = bits & 0x7fffffff | (rawRegister(o.get(1), t, op) ^ rawRegister(o.get(2), t, op)) & 0x80000000;
        }
        OperandAccess.writeR(t, o.get(0), bits);
        t.pc++;
    }

    /** I2FP.F32.{S32,U32}. */
    void i2fp(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean rz = op.has("RZ");
        if (!op.has("F32") || op.modifiers().size() != (rz ? 3 : 2)) {
            throw machine.unimplemented(op);
        }
        int v = operands.read(o.get(1), t, w);
        long x = op.has("U32") ? Integer.toUnsignedLong(v) : v;
        // .RZ (cvt.rz.f32.{u32,s32}): toward zero where the value needs more than 24 bits, else exact
        float f = rz ? org.jptxas.simulator.numeric.Ieee.roundToFloat(java.math.BigDecimal.valueOf(x),
                org.jptxas.simulator.numeric.Rounding.RZ) : (float) x;
        OperandAccess.writeR(t, o.get(0), Float.floatToRawIntBits(f));
        t.pc++;
    }
}
