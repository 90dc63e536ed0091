package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.testing.kernels.DirectedRoundingKernel;
import org.junit.jupiter.api.Test;

/** {@code bmsk} and {@code szext} in both modes against the PTX ISA definitions, and {@code createpolicy}'s word. */
class BitMaskTest {
    private static int bmsk(int a, int b, boolean wrap) {
        return DirectedRoundingKernel.bmsk(a, b, wrap);
    }

    private static int szext(int a, int b, boolean wrap, boolean signed) {
        return DirectedRoundingKernel.szext(a, b, wrap, signed);
    }

    static void check(String ptx, java.util.function.IntBinaryOperator ref) {
        Harness h = new Harness().reg("%a", PtxType.B32).reg("%b", PtxType.U32).reg("%d", PtxType.B32)
                .lower(new BitMaskLowerer(), ptx);
        Random rnd = new Random(ptx.hashCode());
        int[] edges = {0, 1, 5, 31, 32, 33, 63, 64, -1, 0x80000000, 0x7fffffff, 0x12345678};
        for (int k = 0; k < 3000; k++) {
            int a = k < edges.length * edges.length ? edges[k % edges.length] : rnd.nextInt();
            int b = k < edges.length * edges.length ? edges[k / edges.length] : rnd.nextInt(70);
            OriEvaluator ev = h.eval();
            ev.set(h.r("%a"), a);
            ev.set(h.r("%b"), b);
            ev.run();
            assertEquals(ref.applyAsInt(a, b), ev.get(h.r("%d")), ptx + " " + a + ", " + b);
        }
    }

    @Test
    void bmskBothModes() {
        check("bmsk.clamp.b32 %d, %a, %b", (a, b) -> bmsk(a, b, false));
        check("bmsk.wrap.b32 %d, %a, %b", (a, b) -> bmsk(a, b, true));
    }

    @Test
    void szextBothModesAndTypes() {
        check("szext.clamp.s32 %d, %a, %b", (a, b) -> szext(a, b, false, true));
        check("szext.wrap.s32 %d, %a, %b", (a, b) -> szext(a, b, true, true));
        check("szext.clamp.u32 %d, %a, %b", (a, b) -> szext(a, b, false, false));
        check("szext.wrap.u32 %d, %a, %b", (a, b) -> szext(a, b, true, false));
    }

    @Test
    void createpolicyFractionalWordsAreThoseProbedFromPtxas() {
        // ptxas 13, sm_80: fractional.L2::evict_last 1.0 -> 0x14f00000_00000000; evict_unchanged 0.25 ->
        // 0x10300000_00000000; evict_normal.L2::evict_first 0.75 -> 0x17b00000_00000000
        String[][] cases = {{"createpolicy.fractional.L2::evict_last.b64 %p, 0f3F800000", "14f00000"},
            {"createpolicy.fractional.L2::evict_unchanged.b64 %p, 0f3E800000", "10300000"},
            {"createpolicy.fractional.L2::evict_normal.L2::evict_first.b64 %p, 0f3F400000", "17b00000"},
            {"createpolicy.fractional.L2::evict_first.b64 %p, 0f3DCCCCCD", "12100000"},
            {"createpolicy.fractional.L2::evict_normal.b64 %p", "16f00000"}};
        for (String[] c : cases) {
            Harness h = new Harness().reg("%p", PtxType.B64).lower(new CachePolicyLowerer(), c[0]);
            OriEvaluator ev = h.eval();
            ev.run();
            assertEquals(Long.parseLong(c[1], 16) << 32, ev.get64(h.r("%p")), c[0]);
        }
        Harness h = new Harness().reg("%p", PtxType.B64).reg("%f", PtxType.F32)
                .lower(new CachePolicyLowerer(), "createpolicy.fractional.L2::evict_last.b64 %p, %f");
        OriEvaluator ev = h.eval();
        ev.setF(h.r("%f"), 0.5f);
        ev.run();
        assertEquals(0x14700000L << 32, ev.get64(h.r("%p")));
    }
}
