package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.jptxas.frontend.ptx.isa.WmmaTiles;
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

    /** The other forms as mma.sync tiles, as ptxas 13 writes them (its SASS for sm_80 and sm_75 in the comments). */
    @Test
    void otherFormsAreMmaTiles() {
        // sm_80: IMMA.16816.S8.S8 per 16 x 8 half of D: all of A, B register h, C registers 4h..4h+3
        WmmaTiles s8 = WmmaTiles.of(words("wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32"), true);
        assertEquals(List.of(
                new WmmaTiles.Tile(words("x.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32"), false, List.of(0, 1),
                        List.of(0), List.of(0, 1, 2, 3)),
                new WmmaTiles.Tile(words("x.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32"), false, List.of(0, 1),
                        List.of(1), List.of(4, 5, 6, 7))), s8.tiles());
        // sm_75: IMMA.8816 quarters (A0, B0), (A1, B0), (A0, B1), (A1, B1); .satfinite kept
        WmmaTiles quarters = WmmaTiles.of(words("wmma.mma.sync.aligned.col.row.m16n16k16.satfinite.s32.u8.u8.s32"), false);
        assertEquals(List.of(List.of(0), List.of(1), List.of(0), List.of(1)),
                quarters.tiles().stream().map(WmmaTiles.Tile::a).toList());
        assertEquals(List.of(List.of(0, 1), List.of(2, 3), List.of(4, 5), List.of(6, 7)),
                quarters.tiles().stream().map(WmmaTiles.Tile::acc).toList());
        assertEquals(words("x.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.u8.s32"), quarters.tiles().get(0).mma());
        // m8n32k16 is m32n8k16 transposed: the multiply's A is B's 16-column tile, its B all of A
        WmmaTiles tall = WmmaTiles.of(words("wmma.mma.sync.aligned.row.col.m8n32k16.f32.bf16.bf16.f32"), true);
        assertEquals(List.of(true, true), tall.tiles().stream().map(WmmaTiles.Tile::swapped).toList());
        assertEquals(List.of(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7)),
                tall.tiles().stream().map(WmmaTiles.Tile::a).toList());
        assertEquals(List.of(2, 8), List.of(tall.aRegisters(), tall.bRegisters()));
        // sm_75 f16 m32n8k16: HMMA.1688 k-steps, both halves' first, then both second
        WmmaTiles f16 = WmmaTiles.of(words("wmma.mma.sync.aligned.row.row.m32n8k16.f16.f16"), false);
        assertEquals(List.of(List.of(0, 1), List.of(4, 5), List.of(2, 3), List.of(6, 7)),
                f16.tiles().stream().map(WmmaTiles.Tile::a).toList());
        WmmaTiles f64 = WmmaTiles.of(words("wmma.mma.sync.aligned.col.col.m8n8k4.f64.f64.f64.f64"), true);
        assertEquals(List.of(words("x.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64")),
                f64.tiles().stream().map(WmmaTiles.Tile::mma).toList());
        assertEquals(words("x.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc"), WmmaTiles.of(
                words("wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32.xor.popc"), true).tiles().get(0).mma());
        // the forms WmmaForm has and bf16 on Turing are not tiles
        assertNull(WmmaTiles.of(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"), true));
        WmmaTiles mixed = WmmaTiles.of(words("wmma.mma.sync.aligned.row.col.m32n8k16.f32.f16"), true);
        assertEquals(List.of(true, false, 8, 4, 8), List.of(mixed.widenC(), mixed.packD(), mixed.dRegisters(),
                mixed.cRegisters(), mixed.accumulatorRegisters()));
        assertNull(WmmaTiles.of(words("wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32"), false));
        assertNull(WmmaTiles.of(words("wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32.xor"), true));
    }
}
