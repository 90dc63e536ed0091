package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.junit.jupiter.api.Test;

/** 16/32-bit integer division and remainder against Java's, including division by zero (all ones, as ptxas). */
class IntDivisionTest {
    static final int[] EDGES = {0, 1, 2, 3, 7, -1, -2, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x80000001, 0xfffffffe,
        65535, 65536, 0x7fff, 0x8000, 0xffff8000, 1 << 31 >>> 1, 0x12345678, 0xdeadbeef, 1000000007};

    interface Ref {
        long apply(int a, int b);
    }

    static void check(String ptx, PtxType t, Ref ref) {
        check(ptx, t, ref, 3_000);
    }

    static void check(String ptx, PtxType t, Ref ref, int count) {
        Harness h = new Harness().reg("%a", t).reg("%b", t).reg("%d", t).lower(new DivisionLowerer(), ptx);
        Random rnd = new Random(ptx.hashCode());
        int mask = t.sizeBytes() == 2 ? 0xffff : -1;
        for (int a : EDGES) {
            for (int b : EDGES) {
                run(h, ptx, ref, a, b, mask);
            }
        }
        for (int k = 0; k < count; k++) {
            int a = rnd.nextInt(), b = rnd.nextInt();
            switch (rnd.nextInt(4)) {
                case 0 -> b >>= rnd.nextInt(32);
                case 1 -> a >>= rnd.nextInt(32);
                case 2 -> b = rnd.nextInt(100) - 50;
                default -> { }
            }
            run(h, ptx, ref, a, b, mask);
        }
    }

    static void run(Harness h, String ptx, Ref ref, int a, int b, int mask) {
        OriEvaluator ev = h.eval();
        ev.set(h.r("%a"), a);
        ev.set(h.r("%b"), b);
        ev.run();
        int want = (int) ref.apply(a, b);
        assertEquals(want & mask, ev.get(h.r("%d")) & mask, ptx + " " + a + ", " + b);
    }

    @Test
    void u32() {
        check("div.u32 %d, %a, %b", PtxType.U32, (a, b) -> b == 0 ? -1 : Integer.divideUnsigned(a, b));
        check("rem.u32 %d, %a, %b", PtxType.U32, (a, b) -> b == 0 ? -1 : Integer.remainderUnsigned(a, b));
    }

    @Test
    void s32() {
        check("div.s32 %d, %a, %b", PtxType.S32, (a, b) -> b == 0 ? -1 : a / b);
        check("rem.s32 %d, %a, %b", PtxType.S32, (a, b) -> b == 0 ? -1 : a % b);
    }

    @Test
    void sixteenBit() {
        check("div.u16 %d, %a, %b", PtxType.U16, (a, b) -> (b & 0xffff) == 0 ? -1 : (a & 0xffff) / (b & 0xffff));
        check("rem.u16 %d, %a, %b", PtxType.U16, (a, b) -> (b & 0xffff) == 0 ? -1 : (a & 0xffff) % (b & 0xffff));
        check("div.s16 %d, %a, %b", PtxType.S16, (a, b) -> (short) b == 0 ? -1 : (short) a / (short) b);
        check("rem.s16 %d, %a, %b", PtxType.S16, (a, b) -> (short) b == 0 ? -1 : (short) a % (short) b);
    }

    @Test
    void guardedDivisionLeavesTheDestinationWhenFalse() {
        Harness h = new Harness().reg("%a", PtxType.U32).reg("%b", PtxType.U32).reg("%d", PtxType.U32)
                .reg("%p", PtxType.PRED).lower(new DivisionLowerer(), "@%p div.u32 %d, %a, %b");
        for (boolean p : new boolean[] {false, true}) {
            OriEvaluator ev = h.eval();
            ev.set(h.r("%a"), 100);
            ev.set(h.r("%b"), 7);
            ev.set(h.r("%d"), 12345);
            ev.setP(h.r("%p"), p);
            ev.run();
            assertEquals(p ? 14 : 12345, ev.get(h.r("%d")));
        }
    }

    interface Ref64 {
        long apply(long a, long b);
    }

    static void check64(String ptx, Ref64 ref) {
        check64(ptx, ref, 2_500);
    }

    static void check64(String ptx, Ref64 ref, int count) {
        PtxType t = ptx.contains("s64") ? PtxType.S64 : PtxType.U64;
        Harness h = new Harness().reg("%a", t).reg("%b", t).reg("%d", t).lower(new DivisionLowerer(), ptx);
        Random rnd = new Random(ptx.hashCode());
        long[] edges = {0, 1, 2, 3, -1, -2, Long.MIN_VALUE, Long.MAX_VALUE, 0xffffffffL, 0x100000000L, 7, 1L << 32 | 1,
            0x8000000000000001L, 1000000007L, 0xdeadbeefcafeL};
        for (long a : edges) {
            for (long b : edges) {
                run64(h, ptx, ref, a, b);
            }
        }
        for (int k = 0; k < count; k++) {
            long a = rnd.nextLong() >> rnd.nextInt(64), b = rnd.nextLong() >> rnd.nextInt(64);
            if (rnd.nextInt(4) == 0) {
                b = rnd.nextInt(1000) - 500;
            }
            run64(h, ptx, ref, a, b);
        }
    }

    static void run64(Harness h, String ptx, Ref64 ref, long a, long b) {
        OriEvaluator ev = h.eval();
        ev.set64(h.r("%a"), a);
        ev.set64(h.r("%b"), b);
        ev.run();
        assertEquals(ref.apply(a, b), ev.get64(h.r("%d")), ptx + " " + a + ", " + b);
    }

    @Test
    void sixtyFourBit() {
        check64("div.u64 %d, %a, %b", (a, b) -> b == 0 ? -1 : Long.divideUnsigned(a, b));
        check64("rem.u64 %d, %a, %b", (a, b) -> b == 0 ? -1 : Long.remainderUnsigned(a, b));
        check64("div.s64 %d, %a, %b", (a, b) -> b == 0 ? -1 : a / b);
        check64("rem.s64 %d, %a, %b", (a, b) -> b == 0 ? (a < 0 ? 1 : -1) : a % b);
    }

    @org.junit.jupiter.api.Tag("slow")
    @Test
    void manyInputs() {
        check("div.u32 %d, %a, %b", PtxType.U32, (a, b) -> b == 0 ? -1 : Integer.divideUnsigned(a, b), 300_000);
        check("rem.u32 %d, %a, %b", PtxType.U32, (a, b) -> b == 0 ? -1 : Integer.remainderUnsigned(a, b), 200_000);
        check("div.s32 %d, %a, %b", PtxType.S32, (a, b) -> b == 0 ? -1 : a / b, 300_000);
        check("rem.s32 %d, %a, %b", PtxType.S32, (a, b) -> b == 0 ? -1 : a % b, 200_000);
        check64("div.u64 %d, %a, %b", (a, b) -> b == 0 ? -1 : Long.divideUnsigned(a, b), 150_000);
        check64("div.s64 %d, %a, %b", (a, b) -> b == 0 ? -1 : a / b, 100_000);
        check64("rem.u64 %d, %a, %b", (a, b) -> b == 0 ? -1 : Long.remainderUnsigned(a, b), 100_000);
    }
}
