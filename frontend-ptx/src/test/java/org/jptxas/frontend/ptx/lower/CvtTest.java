package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.junit.jupiter.api.Test;

/** cvt between integer types (with .sat) and the float conversions' rounding modes, against PTX's definitions. */
class CvtTest {
    static final PtxType[] INTS = {PtxType.U8, PtxType.S8, PtxType.U16, PtxType.S16, PtxType.U32, PtxType.S32,
        PtxType.U64, PtxType.S64};

    static Harness cvt(String ptx, PtxType dt, PtxType st) {
        return new Harness().reg("%s", st).reg("%d", dt).lower(new CvtLowerer(), ptx);
    }

    static List<Long> samples() {
        List<Long> v = new ArrayList<>(List.of(0L, 1L, -1L, 127L, 128L, -128L, -129L, 255L, 256L, 32767L, 32768L,
                -32768L, -32769L, 65535L, 65536L, 0x7fffffffL, 0x80000000L, -0x80000000L, -0x80000001L, 0xffffffffL,
                0x100000000L, Long.MAX_VALUE, Long.MIN_VALUE, 0x8000000000000000L + 5, 0x1234_5678_9abc_def0L));
        Random r = new Random(9);
        for (int i = 0; i < 120; i++) {
            v.add(r.nextLong() >> r.nextInt(64));
        }
        return v;
    }

    /** The value of the low bits of {@code raw} read as {@code t}, as a BigInteger. */
    static BigInteger value(long raw, PtxType t) {
        int w = MathTypes.bits(t);
        long bits = w == 64 ? raw : raw & ((1L << w) - 1);
        if (MathTypes.isSigned(t)) {
            return BigInteger.valueOf(w == 64 ? bits : (bits << (64 - w)) >> (64 - w));
        }
        return new BigInteger(Long.toUnsignedString(bits));
    }

    static long reference(long raw, PtxType dt, PtxType st, boolean sat) {
        BigInteger v = value(raw, st);
        int dw = MathTypes.bits(dt);
        if (sat) {
            BigInteger min = MathTypes.isSigned(dt) ? BigInteger.ONE.shiftLeft(dw - 1).negate() : BigInteger.ZERO;
            BigInteger max = MathTypes.isSigned(dt) ? BigInteger.ONE.shiftLeft(dw - 1).subtract(BigInteger.ONE)
                    : BigInteger.ONE.shiftLeft(dw).subtract(BigInteger.ONE);
            v = v.max(min).min(max);
        }
        long bits = v.longValue();
        // the destination register holds the value extended from its width
        return value(bits, dt).longValue();
    }

    @Test
    void integerPairs() {
        int pairs = 0;
        for (PtxType dt : INTS) {
            for (PtxType st : INTS) {
                for (boolean sat : new boolean[] {false, true}) {
                    if (dt == st && sat) {
                        continue;
                    }
                    String ptx = "cvt" + (sat ? ".sat" : "") + "." + dt.ptxName() + "." + st.ptxName() + " %d, %s";
                    Harness h = cvt(ptx, dt, st);
                    for (long raw : samples()) {
                        OriEvaluator ev = h.eval();
                        if (st.sizeBytes() == 8) {
                            ev.set64(h.r("%s"), raw);
                        } else {
                            ev.set(h.r("%s"), (int) raw);
                        }
                        ev.run();
                        long got = dt.sizeBytes() == 8 ? ev.get64(h.r("%d")) : ev.get(h.r("%d"));
                        long want = reference(raw, dt, st, sat);
                        if (dt.sizeBytes() < 8) {
                            want = (int) want;
                        }
                        assertEquals(want, got, ptx + " of 0x" + Long.toHexString(raw));
                    }
                    pairs++;
                }
            }
        }
        assertEquals(8 * 8 * 2 - 8, pairs);
    }

    static final String[] INT_ROUNDINGS = {"rni", "rzi", "rmi", "rpi"};

    static double roundInt(double x, String r) {
        return switch (r) {
            case "rni" -> Math.rint(x);
            case "rzi" -> x < 0 ? Math.ceil(x) : Math.floor(x);
            case "rmi" -> Math.floor(x);
            default -> Math.ceil(x);
        };
    }

    @Test
    void floatToIntegerAllRoundings() {
        float[] xs = {0f, -0f, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 1e10f, -1e10f, 3e9f, 70000.7f, -40000.2f,
            200.5f, -200.5f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1e-40f, 0x1p63f, -0x1p63f,
            0x1p64f, 127.5f, -128.5f};
        for (PtxType dt : INTS) {
            for (String r : INT_ROUNDINGS) {
                String ptx = "cvt." + r + "." + dt.ptxName() + ".f32 %d, %s";
                Harness h = cvt(ptx, dt, PtxType.F32);
                for (float x : xs) {
                    OriEvaluator ev = h.eval();
                    ev.setF(h.r("%s"), x);
                    ev.run();
                    long got = dt.sizeBytes() == 8 ? ev.get64(h.r("%d")) : ev.get(h.r("%d"));
                    long want;
                    if (Float.isNaN(x)) {
                        want = 0;
                    } else {
                        double v = roundInt(x, r);
                        int w = MathTypes.bits(dt);
                        double min = MathTypes.isSigned(dt) ? -Math.scalb(1.0, w - 1) : 0;
                        double max = MathTypes.isSigned(dt) ? Math.scalb(1.0, w - 1) - 1 : Math.scalb(1.0, w) - 1;
                        v = Math.max(min, Math.min(max, v));
                        want = new java.math.BigDecimal(v).toBigInteger().longValue();
                        if (v >= 0x1p64) {
                            want = -1L;
                        } else if (v >= 0x1p63 && MathTypes.isSigned(dt)) {
                            want = Long.MAX_VALUE;
                        }
                        want = value(want, dt).longValue();
                        if (dt.sizeBytes() < 8) {
                            want = (int) want;
                        }
                    }
                    assertEquals(want, got, ptx + " of " + x);
                }
            }
        }
    }

    @Test
    void floatRoundingsAndSaturation() {
        Random rnd = new Random(3);
        for (String r : INT_ROUNDINGS) {
            for (String mods : new String[] {"", ".sat", ".ftz.sat"}) {
                String ptx = "cvt." + r + mods + ".f32.f32 %d, %s";
                Harness h = cvt(ptx, PtxType.F32, PtxType.F32);
                for (int k = 0; k < 2000; k++) {
                    float x = k < Harness.SPECIAL_F32.length ? Harness.SPECIAL_F32[k] : (rnd.nextFloat() - 0.5f) * 8;
                    OriEvaluator ev = h.eval();
                    ev.setF(h.r("%s"), x);
                    ev.run();
                    float in = mods.contains("ftz") ? OriEvaluator.ftz(x) : x;
                    float want = Float.isNaN(in) ? Float.NaN : (float) Math.copySign(roundInt(in, r), in);
                    if (mods.contains("sat")) {
                        want = Float.isNaN(want) ? 0f : Math.max(0f, Math.min(1f, want));
                        if (want == 0f) {
                            want = 0f;
                        }
                    }
                    F32DivisionTest.assertSameFloat(ptx + " " + x, want, Float.intBitsToFloat(ev.get(h.r("%d"))));
                }
            }
        }
    }

    @Test
    void doubleToFloatRoundingsAndFtz() {
        Random rnd = new Random(4);
        String[] rs = {"rn", "rz", "rm", "rp"};
        for (String r : rs) {
            for (String ftz : new String[] {"", ".ftz"}) {
                String ptx = "cvt." + r + ftz + ".f32.f64 %d, %s";
                Harness h = cvt(ptx, PtxType.F32, PtxType.F64);
                for (int k = 0; k < 1500; k++) {
                    double x = Double.longBitsToDouble(rnd.nextLong());
                    if (k % 3 == 0) {
                        x = Math.scalb(rnd.nextDouble(), rnd.nextInt(300) - 150) * (rnd.nextBoolean() ? 1 : -1);
                    }
                    OriEvaluator ev = h.eval();
                    ev.setD(h.r("%s"), x);
                    ev.run();
                    OriEvaluator.Rnd m = OriEvaluator.Rnd.valueOf(r.toUpperCase());
                    float want = Double.isNaN(x) ? Float.NaN : Double.isInfinite(x) || x == 0 ? (float) x
                            : OriEvaluator.roundF(new java.math.BigDecimal(x), (float) x, m);
                    if (!ftz.isEmpty() && Math.abs(x) < Float.MIN_NORMAL) {
                        want = Math.copySign(0f, (float) x);
                    }
                    F32DivisionTest.assertSameFloat(ptx + " " + x, want, Float.intBitsToFloat(ev.get(h.r("%d"))));
                }
            }
        }
    }

    @Test
    void halfAndBf16() {
        Random rnd = new Random(5);
        for (String ptx : new String[] {"cvt.rn.f16.f32 %d, %s", "cvt.rz.f16.f32 %d, %s", "cvt.rn.bf16.f32 %d, %s",
            "cvt.rz.bf16.f32 %d, %s", "cvt.rn.sat.f16.f32 %d, %s"}) {
            boolean bf = ptx.contains("bf16");
            Harness h = cvt(ptx, bf ? PtxType.BF16 : PtxType.F16, PtxType.F32);
            OriEvaluator.Rnd m = ptx.contains(".rz") ? OriEvaluator.Rnd.RZ : OriEvaluator.Rnd.RN;
            for (int k = 0; k < 4000; k++) {
                float x = k < Harness.SPECIAL_F32.length ? Harness.SPECIAL_F32[k] : Harness.randomFloat(rnd);
                if (k % 2 == 0) {
                    x = Math.scalb(rnd.nextFloat(), rnd.nextInt(50) - 30) * (rnd.nextBoolean() ? 1 : -1);
                }
                OriEvaluator ev = h.eval();
                ev.setF(h.r("%s"), x);
                ev.run();
                float in = ptx.contains("sat") ? (Float.isNaN(x) ? 0f : Math.max(0f, Math.min(1f, x))) : x;
                int want = bf ? SmallFloat.toBf16(in, m) : SmallFloat.toHalf(in, m);
                assertEquals(want, ev.get(h.r("%d")) & 0xffff, ptx + " " + x);
            }
        }
        Harness back = cvt("cvt.f32.bf16 %d, %s", PtxType.F32, PtxType.BF16);
        OriEvaluator ev = back.eval();
        ev.set(back.r("%s"), 0x3fc0);
        ev.run();
        assertEquals(1.5f, Float.intBitsToFloat(ev.get(back.r("%d"))));
    }

    @Test
    void tf32RoundsHalfAway() {
        Harness h = new Harness().reg("%s", PtxType.F32).reg("%d", PtxType.B32).lower(new CvtLowerer(),
                "cvt.rna.tf32.f32 %d, %s");
        Random rnd = new Random(8);
        for (int k = 0; k < 3000; k++) {
            float x = k < Harness.SPECIAL_F32.length ? Harness.SPECIAL_F32[k] : Harness.randomFloat(rnd);
            OriEvaluator ev = h.eval();
            ev.setF(h.r("%s"), x);
            ev.run();
            int bits = Float.floatToRawIntBits(x);
            // the value rounded at 10 fraction bits, ties away from zero (a carry may reach the exponent, even to inf)
            int want = (Float.isFinite(x) ? bits + 0x1000 : bits) & 0xffffe000;
            assertEquals(want, ev.get(h.r("%d")), "tf32 " + x);
        }
    }
}
