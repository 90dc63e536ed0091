package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.function.LongBinaryOperator;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.junit.jupiter.api.Test;

/** Bit-field, counting, permute, dot-product, sad, 24-bit multiply, copysign and testp against PTX's definitions. */
class BitMiscTest {
    interface Op3 {
        long apply(int a, int b, int c);
    }

    static int[] values(Random rnd) {
        int[] v = new int[400];
        int[] edges = {0, 1, -1, 0x80000000, 0x7fffffff, 31, 32, 33, 255, 256, 0x100, 0xff00ff, 0x12345678};
        for (int i = 0; i < v.length; i++) {
            v[i] = i < edges.length ? edges[i] : rnd.nextInt() >> rnd.nextInt(32);
        }
        return v;
    }

    static void check3(String ptx, PtxType t, Op3 ref, boolean smallC) {
        Harness h = new Harness().reg("%a", t).reg("%b", t).reg("%c", t).reg("%e", t).reg("%d", t)
                .lower(ptx.startsWith("bf") || ptx.startsWith("prmt") || ptx.startsWith("dp") || ptx.startsWith("sad")
                        || ptx.startsWith("mul24") || ptx.startsWith("mad24")
                        ? (ptx.startsWith("bf") || ptx.startsWith("prmt") ? new BitLowerer() : new IntMiscLowerer())
                        : new BitLowerer(), ptx);
        Random rnd = new Random(ptx.hashCode());
        int[] vs = values(rnd);
        for (int k = 0; k < 1500; k++) {
            int a = vs[rnd.nextInt(vs.length)], b = vs[rnd.nextInt(vs.length)], c = vs[rnd.nextInt(vs.length)];
            int e = rnd.nextInt(40);
            if (smallC) {
                c = rnd.nextInt(4) == 0 ? rnd.nextInt() : rnd.nextInt(40);
            }
            OriEvaluator ev = h.eval();
            ev.set(h.r("%a"), a);
            ev.set(h.r("%b"), b);
            ev.set(h.r("%c"), c);
            ev.set(h.r("%e"), e);
            ev.run();
            long want = ptx.startsWith("bfi.") ? bfi(a, b, c, e) : ref.apply(a, b, c);
            assertEquals((int) want, ev.get(h.r("%d")), ptx + " " + a + ", " + b + ", " + c + ", " + e);
        }
    }

    static int bfe(int a, int pos, int len, boolean signed) {
        pos &= 0xff;
        len &= 0xff;
        int msb = pos + len - 1;
        boolean sbit = signed && (len != 0) && ((a >>> Math.min(msb, 31)) & 1) != 0 && len != 0;
        if (!signed) {
            sbit = false;
        }
        int d = 0;
        for (int i = 0; i <= 31; i++) {
            int bit = (i < len && pos + i <= 31) ? (a >>> (pos + i)) & 1 : (sbit ? 1 : 0);
            d |= bit << i;
        }
        return d;
    }

    static int bfi(int a, int b, int pos, int len) {
        pos &= 0xff;
        len &= 0xff;
        int d = b;
        for (int i = 0; i < len && pos + i <= 31; i++) {
            d = (d & ~(1 << (pos + i))) | (((a >>> i) & 1) << (pos + i));
        }
        return d;
    }

    @Test
    void bitField() {
        check3("bfe.u32 %d, %a, %b, %c", PtxType.U32, (a, b, c) -> bfe(a, b, c, false), true);
        check3("bfe.s32 %d, %a, %b, %c", PtxType.S32, (a, b, c) -> bfe(a, b, c, true), true);
        check3("bfi.b32 %d, %a, %b, %c, %e", PtxType.B32, null, true);
    }

    @Test
    void counting() {
        check3("popc.b32 %d, %a", PtxType.B32, (a, b, c) -> Integer.bitCount(a), false);
        check3("brev.b32 %d, %a", PtxType.B32, (a, b, c) -> Integer.reverse(a), false);
        check3("clz.b32 %d, %a", PtxType.B32, (a, b, c) -> Integer.numberOfLeadingZeros(a), false);
        check3("bfind.u32 %d, %a", PtxType.U32, (a, b, c) -> a == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(a), false);
        check3("bfind.s32 %d, %a", PtxType.S32, (a, b, c) -> {
            int x = a < 0 ? ~a : a;
            return x == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(x);
        }, false);
        check3("bfind.shiftamt.u32 %d, %a", PtxType.U32, (a, b, c) -> a == 0 ? -1 : Integer.numberOfLeadingZeros(a), false);
    }

    @Test
    void wideCounting() {
        Random rnd = new Random(1);
        for (String ptx : new String[] {"popc.b64 %d, %a", "clz.b64 %d, %a", "bfind.u64 %d, %a", "bfind.s64 %d, %a",
            "bfind.shiftamt.s64 %d, %a", "brev.b64 %e, %a"}) {
            Harness h = new Harness().reg("%a", PtxType.B64).reg("%d", PtxType.U32).reg("%e", PtxType.B64)
                    .lower(new BitLowerer(), ptx);
            for (int k = 0; k < 2000; k++) {
                long a = k < 3 ? new long[] {0, -1, 1}[k] : rnd.nextLong() >> rnd.nextInt(64);
                OriEvaluator ev = h.eval();
                ev.set64(h.r("%a"), a);
                ev.run();
                long x = ptx.contains("s64") && a < 0 ? ~a : a;
                long want = switch (ptx.substring(0, ptx.indexOf(' '))) {
                    case "popc.b64" -> Long.bitCount(a);
                    case "clz.b64" -> Long.numberOfLeadingZeros(a);
                    case "bfind.u64", "bfind.s64" -> x == 0 ? -1 : 63 - Long.numberOfLeadingZeros(x);
                    case "bfind.shiftamt.s64" -> x == 0 ? -1 : Long.numberOfLeadingZeros(x);
                    default -> Long.reverse(a);
                };
                long got = ptx.startsWith("brev") ? ev.get64(h.r("%e")) : ev.get(h.r("%d"));
                assertEquals(ptx.startsWith("brev") ? want : (int) want, got, ptx + " " + a);
            }
        }
    }

    static int prmt(int a, int b, int c, String mode) {
        long pool = Integer.toUnsignedLong(b) << 32 | Integer.toUnsignedLong(a);
        int r = 0;
        for (int k = 0; k < 4; k++) {
            int s = c >>> (4 * k) & 0xf;
            int v = (int) (pool >>> (8 * (s & 7))) & 0xff;
            if ((s & 8) != 0) {
                v = (v & 0x80) != 0 ? 0xff : 0;
            }
            r |= v << (8 * k);
        }
        return r;
    }

    @Test
    void permuteDotSadMul24() {
        check3("prmt.b32 %d, %a, %b, %c", PtxType.B32, (a, b, c) -> prmt(a, b, c, ""), false);
        check3("dp4a.s32.u32 %d, %a, %b, %c", PtxType.S32, (a, b, c) -> {
            int acc = c;
            for (int k = 0; k < 4; k++) {
                acc += (byte) (a >> 8 * k) * (b >>> 8 * k & 0xff);
            }
            return acc;
        }, false);
        check3("dp2a.hi.u32.s32 %d, %a, %b, %c", PtxType.S32, (a, b, c) -> {
            int acc = c;
            for (int k = 0; k < 2; k++) {
                acc += (a >>> 16 * k & 0xffff) * (byte) (b >> 8 * (k + 2));
            }
            return acc;
        }, false);
        check3("sad.s32 %d, %a, %b, %c", PtxType.S32, (a, b, c) -> Math.abs((long) a - b) + c, false);
        check3("sad.u32 %d, %a, %b, %c", PtxType.U32,
                (a, b, c) -> Math.abs(Integer.toUnsignedLong(a) - Integer.toUnsignedLong(b)) + c, false);
        check3("mul24.lo.s32 %d, %a, %b", PtxType.S32, (a, b, c) -> (long) (a << 8 >> 8) * (b << 8 >> 8), false);
        check3("mul24.hi.s32 %d, %a, %b", PtxType.S32, (a, b, c) -> ((long) (a << 8 >> 8) * (b << 8 >> 8)) >> 16, false);
        check3("mul24.hi.u32 %d, %a, %b", PtxType.U32, (a, b, c) -> ((long) (a & 0xffffff) * (b & 0xffffff)) >>> 16, false);
        check3("mad24.lo.u32 %d, %a, %b, %c", PtxType.U32, (a, b, c) -> (long) (a & 0xffffff) * (b & 0xffffff) + c, false);
        check3("mad24.hi.s32 %d, %a, %b, %c", PtxType.S32,
                (a, b, c) -> (((long) (a << 8 >> 8) * (b << 8 >> 8)) >> 16) + c, false);
        check3("mad24.hi.sat.s32 %d, %a, %b, %c", PtxType.S32, (a, b, c) -> Math.max(Integer.MIN_VALUE,
                Math.min(Integer.MAX_VALUE, (((long) (a << 8 >> 8) * (b << 8 >> 8)) >> 16) + c)), false);
    }

    @Test
    void copysignAndTestp() {
        Harness h = new Harness().reg("%a", PtxType.F32).reg("%b", PtxType.F32).reg("%d", PtxType.F32)
                .lower(new IntMiscLowerer(), "copysign.f32 %d, %a, %b");
        for (float a : Harness.SPECIAL_F32) {
            for (float b : Harness.SPECIAL_F32) {
                OriEvaluator ev = h.eval();
                ev.setF(h.r("%a"), a);
                ev.setF(h.r("%b"), b);
                ev.run();
                assertEquals(Float.floatToRawIntBits(b) & 0x7fffffff | Float.floatToRawIntBits(a) & 0x80000000,
                        ev.get(h.r("%d")));
            }
        }
        String[] classes = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
        for (String cls : classes) {
            for (String ty : new String[] {"f32", "f64"}) {
                PtxType t = ty.equals("f32") ? PtxType.F32 : PtxType.F64;
                Harness th = new Harness().reg("%a", t).reg("%p", PtxType.PRED)
                        .lower(new IntMiscLowerer(), "testp." + cls + "." + ty + " %p, %a");
                for (float f : Harness.SPECIAL_F32) {
                    double x = ty.equals("f32") ? f : (f == Float.MIN_VALUE ? Double.MIN_VALUE : f);
                    OriEvaluator ev = th.eval();
                    if (t == PtxType.F32) {
                        ev.setF(th.r("%a"), f);
                    } else {
                        ev.setD(th.r("%a"), x);
                    }
                    ev.run();
                    double ax = Math.abs(x);
                    double minNormal = t == PtxType.F32 ? Float.MIN_NORMAL : Double.MIN_NORMAL;
                    boolean want = switch (cls) {
                        case "finite" -> Double.isFinite(x);
                        case "infinite" -> Double.isInfinite(x);
                        case "number" -> !Double.isNaN(x);
                        case "notanumber" -> Double.isNaN(x);
                        // the PTX ISA: "as a special case, positive and negative zero are considered normal"
                        case "normal" -> Double.isFinite(x) && (ax >= minNormal || x == 0);
                        default -> ax < minNormal && x != 0;
                    };
                    assertEquals(want, ev.getP(th.r("%p")), "testp." + cls + "." + ty + " " + x);
                }
            }
        }
    }

    static long bfe64(long a, int pos, int len, boolean signed) {
        pos &= 0xff;
        len &= 0xff;
        boolean sbit = signed && len != 0 && ((a >>> Math.min(pos + len - 1, 63)) & 1) != 0;
        long d = 0;
        for (int i = 0; i <= 63; i++) {
            long bit = (i < len && pos + i <= 63) ? (a >>> (pos + i)) & 1 : (sbit ? 1 : 0);
            d |= bit << i;
        }
        return d;
    }

    static long bfi64(long a, long b, int pos, int len) {
        pos &= 0xff;
        len &= 0xff;
        long d = b;
        for (int i = 0; i < len && pos + i <= 63; i++) {
            d = (d & ~(1L << (pos + i))) | (((a >>> i) & 1) << (pos + i));
        }
        return d;
    }

    @Test
    void sixtyFourBitFieldsAndSad() {
        Random rnd = new Random(11);
        for (String ptx : new String[] {"bfe.u64 %d, %a, %p, %l", "bfe.s64 %d, %a, %p, %l", "bfi.b64 %d, %a, %b, %p, %l",
            "sad.s64 %d, %a, %b, %c", "sad.u64 %d, %a, %b, %c"}) {
            PtxType t = ptx.contains("s64") ? PtxType.S64 : ptx.contains("u64") ? PtxType.U64 : PtxType.B64;
            Harness h = new Harness().reg("%a", t).reg("%b", t).reg("%c", t).reg("%d", t).reg("%p", PtxType.U32)
                    .reg("%l", PtxType.U32).lower(ptx.startsWith("sad") ? new IntMiscLowerer() : new BitLowerer(), ptx);
            for (int k = 0; k < 1500; k++) {
                long a = rnd.nextLong() >> rnd.nextInt(64), b = rnd.nextLong() >> rnd.nextInt(64), c = rnd.nextLong();
                int p = rnd.nextInt(5) == 0 ? rnd.nextInt() : rnd.nextInt(72), l = rnd.nextInt(5) == 0 ? rnd.nextInt() : rnd.nextInt(72);
                OriEvaluator ev = h.eval();
                ev.set64(h.r("%a"), a);
                ev.set64(h.r("%b"), b);
                ev.set64(h.r("%c"), c);
                ev.set(h.r("%p"), p);
                ev.set(h.r("%l"), l);
                ev.run();
                long want = switch (ptx.substring(0, 7)) {
                    case "bfe.u64" -> bfe64(a, p, l, false);
                    case "bfe.s64" -> bfe64(a, p, l, true);
                    case "bfi.b64" -> bfi64(a, b, p, l);
                    case "sad.s64" -> (a >= b ? a - b : b - a) + c;
                    default -> (Long.compareUnsigned(a, b) >= 0 ? a - b : b - a) + c;
                };
                assertEquals(want, ev.get64(h.r("%d")), ptx + " a=" + a + " b=" + b + " p=" + p + " l=" + l);
            }
        }
    }

    @Test
    void sixtyFourBitInsertAtConstantPositionAndLength() {
        // constant fields are copies or one LOP3 per half; the destination may be the field's own register
        Random rnd = new Random(12);
        int[][] fields = {{32, 32}, {0, 32}, {0, 64}, {8, 16}, {24, 16}, {40, 8}, {36, 40}, {70, 3}, {5, 0}, {0, 0}};
        for (int[] pl : fields) {
            for (String ptx : new String[] {"bfi.b64 %d, %a, %b, " + pl[0] + ", " + pl[1],
                "bfi.b64 %a, %a, %b, " + pl[0] + ", " + pl[1]}) {
                Harness h = new Harness().reg("%a", PtxType.B64).reg("%b", PtxType.B64).reg("%d", PtxType.B64)
                        .lower(new BitLowerer(), ptx);
                String out = ptx.substring(8, 10);
                for (int k = 0; k < 50; k++) {
                    long a = rnd.nextLong(), b = rnd.nextLong();
                    OriEvaluator ev = h.eval();
                    ev.set64(h.r("%a"), a);
                    ev.set64(h.r("%b"), b);
                    ev.run();
                    assertEquals(bfi64(a, b, pl[0], pl[1]), ev.get64(h.r(out)), ptx + " a=" + a + " b=" + b);
                }
            }
        }
    }
}
