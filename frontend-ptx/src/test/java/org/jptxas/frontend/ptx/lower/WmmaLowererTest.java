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

    @Test
    void otherLayoutsShapesAndMixedAccumulatorsAreRefused() {
        assertNull(WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32"), true));
        assertNull(WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m32n8k16.f32.f32"), true));
        assertNull(WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16"), true));
        assertNull(WmmaLowerer.plan(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite"), true));
    }
}
