package org.jptxas.frontend.ptx.lower;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;

/** The conversion opcodes of {@link OriEvaluator}: I2F, F2I, F2F, FRND, F2FP, I2FP, F2IP, HADD2_F32. */
final class Conversions {
    private Conversions() {
    }

    private static boolean has(Instr i, String m) {
        return i.mods().contains(m);
    }

    private static OriEvaluator.Rnd rnd(Instr i) {
        return has(i, "RZ") ? OriEvaluator.Rnd.RZ : has(i, "RM") ? OriEvaluator.Rnd.RM
                : has(i, "RP") ? OriEvaluator.Rnd.RP : OriEvaluator.Rnd.RN;
    }

    /** The integer type word among the modifiers (after position {@code from}), or null. */
    private static String intType(Instr i, int from) {
        for (int k = from; k < i.mods().size(); k++) {
            String m = i.mods().get(k);
            if (m.matches("[SU](8|16|32|64)")) {
                return m;
            }
        }
        return null;
    }

    static void exec(OriEvaluator ev, Instr i) {
        Reg d = i.dsts().get(0);
        switch (i.op().name()) {
            case "I2F", "I2FP" -> {
                String it = intType(i, 0);
                if (it == null) {
                    it = "S32";
                }
                boolean unsigned = it.startsWith("U");
                int w = Integer.parseInt(it.substring(1));
                long v = w == 64 ? ev.src64(i, 0) : ev.src32(i, 0);
                if (w < 64) {
                    v = unsigned ? v & ((1L << w) - 1) : (v << (64 - w)) >> (64 - w);
                }
                BigDecimal exact = unsigned && w == 64 && v < 0 ? new BigDecimal(new BigInteger(Long.toUnsignedString(v)))
                        : BigDecimal.valueOf(v);
                OriEvaluator.Rnd m = rnd(i);
                if (has(i, "F64")) {
                    double rn = exact.doubleValue();
                    ev.setD(d, OriEvaluator.roundD(exact, rn, m));
                } else if (has(i, "F16")) {
                    float f = OriEvaluator.roundF(exact, exact.floatValue(), m);
                    ev.set(d, SmallFloat.toHalf(f, m));
                } else {
                    ev.setF(d, OriEvaluator.roundF(exact, exact.floatValue(), m));
                }
            }
            case "F2I" -> {
                boolean fromF64 = has(i, "F64") && i.mods().indexOf("F64") > 0;
                double x = fromF64 ? ev.srcD(i, 0) : ev.srcF(i, 0, has(i, "FTZ"));
                if (has(i, "F16")) {
                    x = SmallFloat.halfToFloat(ev.src32(i, 0));
                }
                double r = has(i, "TRUNC") ? (x < 0 ? Math.ceil(x) : Math.floor(x)) : has(i, "FLOOR") ? Math.floor(x)
                        : has(i, "CEIL") ? Math.ceil(x) : Math.rint(x);
                String it = intType(i, 0);
                if (it == null) {
                    it = "S32";
                }
                boolean unsigned = it.startsWith("U");
                int w = Integer.parseInt(it.substring(1));
                BigDecimal lo = unsigned ? BigDecimal.ZERO : BigDecimal.valueOf(-1L << (w - 1));
                BigDecimal hi = unsigned ? new BigDecimal(BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE))
                        : BigDecimal.valueOf((1L << (w - 1)) - 1);
                long v;
                if (Double.isNaN(r)) {
                    v = 0;
                } else if (Double.isInfinite(r)) {
                    v = (r > 0 ? hi : lo).toBigInteger().longValue();
                } else {
                    BigDecimal b = new BigDecimal(r);
                    if (b.compareTo(lo) < 0) {
                        b = lo;
                    } else if (b.compareTo(hi) > 0) {
                        b = hi;
                    }
                    v = b.toBigInteger().longValue();
                }
                if (w == 64) {
                    ev.set64(d, v);
                } else {
                    ev.set(d, (int) v);
                }
            }
            case "F2F" -> f2f(ev, i, d);
            case "FRND" -> {
                boolean f64 = has(i, "F64");
                double x = f64 ? ev.srcD(i, 0) : ev.srcF(i, 0, has(i, "FTZ"));
                double r = has(i, "TRUNC") ? (x < 0 ? Math.ceil(x) : Math.floor(x)) : has(i, "FLOOR") ? Math.floor(x)
                        : has(i, "CEIL") ? Math.ceil(x) : Math.rint(x);
                if (Double.isNaN(r)) {
                    if (f64) {
                        ev.set64(d, 0x7fffffffffffffffL);
                    } else {
                        ev.set(d, 0x7fffffff);
                    }
                } else if (f64) {
                    ev.setD(d, Math.copySign(r, x));
                } else {
                    ev.setF(d, (float) Math.copySign(r, x));
                }
            }
            case "F2FP" -> {
                // F2FP.{F16|BF16}.F32.PACK_AB d, a, b: a to the high half, b to the low half (RN, or RZ when given)
                boolean bf = has(i, "BF16");
                OriEvaluator.Rnd m = rnd(i);
                float a = ev.srcF(i, 0, false), b = ev.srcF(i, 1, false);
                int ha = bf ? SmallFloat.toBf16(a, m) : SmallFloat.toHalf(a, m);
                int hb = bf ? SmallFloat.toBf16(b, m) : SmallFloat.toHalf(b, m);
                if (has(i, "RELU")) {
                    ha = (ha & 0x8000) != 0 && (ha & 0x7fff) <= (bf ? 0x7f80 : 0x7c00) ? 0 : ha;
                    hb = (hb & 0x8000) != 0 && (hb & 0x7fff) <= (bf ? 0x7f80 : 0x7c00) ? 0 : hb;
                }
                ev.set(d, ha << 16 | hb);
            }
            case "HADD2_F32" -> {
                // HADD2.F32 d, -RZ, a.H0_H0: f16 (a's low half) to f32, a NaN to the canonical one
                float v = SmallFloat.halfToFloat(ev.src32(i, 1) & 0xffff);
                ev.setF(d, Float.isNaN(v) ? Float.intBitsToFloat(0x7fffffff) : v);
            }
            default -> throw new IllegalStateException("evaluator: unknown opcode " + i);
        }
    }

    private static void f2f(OriEvaluator ev, Instr i, Reg d) {
        // F2F.<dst>.<src>{.RZ/RM/RP}{.FTZ}{.SAT}
        java.util.List<String> types = i.mods().stream().filter(m -> m.matches("F16|BF16|F32|F64|TF32")).toList();
        String dt = types.get(0), st = types.size() > 1 ? types.get(1) : types.get(0);
        double x = switch (st) {
            case "F64" -> ev.srcD(i, 0);
            case "F32" -> ev.srcF(i, 0, has(i, "FTZ"));
            case "F16" -> SmallFloat.halfToFloat(ev.src32(i, 0));
            case "BF16" -> Float.intBitsToFloat(ev.src32(i, 0) << 16);
            default -> throw new IllegalStateException(st);
        };
        OriEvaluator.Rnd m = rnd(i);
        if (has(i, "SAT")) {
            x = Double.isNaN(x) ? 0 : Math.max(0, Math.min(1, x));
        }
        switch (dt) {
            case "F64" -> ev.set64(d, Double.isNaN(x) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(x));
            case "F32" -> {
                float f = Double.isNaN(x) ? Float.NaN : Double.isInfinite(x) || x == 0 ? (float) x
                        : OriEvaluator.roundF(new BigDecimal(x), (float) x, m);
                if (has(i, "FTZ")) {
                    f = OriEvaluator.ftz(f);
                }
                ev.set(d, Float.isNaN(f) ? 0x7fffffff : Float.floatToRawIntBits(f));
            }
            case "F16" -> ev.set(d, SmallFloat.toHalf(x, m));
            case "BF16" -> ev.set(d, SmallFloat.toBf16(x, m));
            default -> throw new IllegalStateException(dt);
        }
    }
}
