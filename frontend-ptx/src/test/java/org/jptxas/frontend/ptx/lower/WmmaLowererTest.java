package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The HMMA chains of wmma.mma, as ptxas 13 writes them (sm_75: HMMA.1688 pairs; sm_80+: HMMA.16816 per half). */
class WmmaLowererTest {
    private static List<String> words(String name) {
        return List.of(name.split("\\.")).subList(1, name.split("\\.").length);
    }

    @Test
    void f16UsesOneHmma16816PerHalfOrTwoHmma1688() {
        WmmaLowerer.Plan p = WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"), true);
        assertEquals(4, p.accPerHalf());
        assertEquals(List.of(new WmmaLowerer.Step(List.of("16816", "F32"), 0, 4, 0, 2, 0),
                new WmmaLowerer.Step(List.of("16816", "F32"), 0, 4, 2, 2, 1)), p.steps());
        WmmaLowerer.Plan t = WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16"), false);
        assertEquals(2, t.accPerHalf());
        // ptxas's order: both halves' first k-step (A 0-1, B 0 / B 2), then both second steps (A 2-3, B 1 / B 3)
        assertEquals(List.of(new WmmaLowerer.Step(List.of("1688", "F16"), 0, 2, 0, 1, 0),
                new WmmaLowerer.Step(List.of("1688", "F16"), 0, 2, 2, 1, 1),
                new WmmaLowerer.Step(List.of("1688", "F16"), 2, 2, 1, 1, 0),
                new WmmaLowerer.Step(List.of("1688", "F16"), 2, 2, 3, 1, 1)), t.steps());
    }

    @Test
    void tf32IsAChainOfHmma1684() {
        WmmaLowerer.Plan p = WmmaLowerer.plan(words("wmma.mma.sync.aligned.m16n16k8.row.col.f32.tf32.tf32.f32"), true);
        assertEquals(List.of("1684", "F32", "TF32"), p.steps().get(0).mods());
        assertEquals(4, p.steps().size());
    }

    /** ptxas 13 writes the same SASS for every pair of layouts: the layouts are those the fragments were loaded in. */
    @Test
    void everyLayoutPairHasTheRowColPlan() {
        WmmaLowerer.Plan rowCol = WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"), true);
        for (String layouts : List.of("row.row", "col.row", "col.col")) {
            assertEquals(rowCol, WmmaLowerer.plan(words("wmma.mma.sync.aligned." + layouts + ".m16n16k16.f32.f32"),
                    true), layouts);
        }
        assertEquals(WmmaLowerer.plan(words("wmma.mma.sync.aligned.m16n16k8.row.col.f32.tf32.tf32.f32"), false),
                WmmaLowerer.plan(words("wmma.mma.sync.aligned.m16n16k8.col.row.f32.tf32.tf32.f32"), false));
    }

    /** Mixed accumulators multiply in f32: the f32 plan, C widened before it and D packed after it. */
    @Test
    void mixedAccumulatorsHaveTheF32Plan() {
        WmmaLowerer.Plan f32 = WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"), true);
        assertEquals(f32, WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f16.f32"), true));
        assertEquals(f32, WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16"), true));
        assertEquals(4, org.jptxas.frontend.ptx.isa.WmmaForm.of(
                words("wmma.mma.sync.aligned.row.col.m16n16k16.f16.f32")).dRegisters());
        assertEquals(8, org.jptxas.frontend.ptx.isa.WmmaForm.of(
                words("wmma.mma.sync.aligned.row.col.m16n16k16.f16.f32")).cRegisters());
    }

    @Test
    void otherShapesAndTypesAreRefused() {
        assertNull(WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.m16n16k16.f32.f32"), true));
        assertNull(WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m32n8k16.f32.f32"), true));
        assertNull(WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16"), true));
        assertNull(WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite"), true));
    }
}
