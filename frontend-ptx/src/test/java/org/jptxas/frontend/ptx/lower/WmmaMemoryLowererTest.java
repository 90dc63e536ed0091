package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.frontend.ptx.isa.WmmaFragment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The accesses of wmma.load/store, as ptxas 13 writes them (offsets read off its SASS for sm_80). */
class WmmaMemoryLowererTest {
    private static WmmaFragment fragment(String name) {
        List<String> w = List.of(name.split("\\."));
        return WmmaFragment.of(w.subList(1, w.size()));
    }

    @Test
    void rowMajorF32AccumulatorsAreFour64BitAccesses() {
        WmmaMemoryLowerer.Plan p = WmmaMemoryLowerer.plan(fragment("wmma.load.c.sync.aligned.row.m16n16k16.global.f32"));
        // ptxas: LDG.E.64 at +0, +0x200 (8 rows of 16 f32), +0x20 (8 columns), +0x220
        assertEquals(List.of(new WmmaMemoryLowerer.Access(0, true, 0, 0), new WmmaMemoryLowerer.Access(2, true, 8, 0),
                new WmmaMemoryLowerer.Access(4, true, 0, 8), new WmmaMemoryLowerer.Access(6, true, 8, 8)), p.accesses());
        assertEquals(List.of(1, 0, 0, 2), List.of(p.uStrides(), p.uElements(), p.vStrides(), p.vElements()));
        assertFalse(p.transposed());
    }

    @Test
    void columnMajorF16AIsReadTransposed() {
        WmmaMemoryLowerer.Plan p = WmmaMemoryLowerer.plan(fragment("wmma.load.a.sync.aligned.col.m16n16k16.f16"));
        assertTrue(p.transposed());
        // ptxas: LDG.E at +0, +0x10, +0x100, +0x110 into registers 0..3, each through MOVM.16.MT88
        assertEquals(List.of(new WmmaMemoryLowerer.Access(0, false, 0, 0), new WmmaMemoryLowerer.Access(1, false, 0, 8),
                new WmmaMemoryLowerer.Access(2, false, 8, 0), new WmmaMemoryLowerer.Access(3, false, 8, 8)), p.accesses());
    }

    @Test
    void tf32BRowMajorStepsFourRowsAndEightColumns() {
        WmmaMemoryLowerer.Plan p = WmmaMemoryLowerer.plan(fragment("wmma.load.b.sync.aligned.row.m16n16k8.tf32"));
        // ptxas: element (lane % 4) * 16 + lane / 4, then +0x40 (4 rows), +8, +0x48
        assertEquals(List.of(0, 1, 1, 0), List.of(p.uStrides(), p.uElements(), p.vStrides(), p.vElements()));
        assertEquals(List.of(new WmmaMemoryLowerer.Access(0, false, 0, 0), new WmmaMemoryLowerer.Access(1, false, 4, 0),
                new WmmaMemoryLowerer.Access(2, false, 0, 8), new WmmaMemoryLowerer.Access(3, false, 4, 8)), p.accesses());
        assertEquals(16, fragment("wmma.load.b.sync.aligned.row.m16n16k8.tf32").defaultStride());
        assertEquals(8, fragment("wmma.load.b.sync.aligned.col.m16n16k8.tf32").defaultStride());
    }

    @Test
    void m32n8k16TilesFollowPtxasOffsets() {
        // ptxas: A row LD.E at +0, +0x100, +0x10, +0x110, +0x200, +0x300, +0x210, +0x310 (16 f16 per row)
        WmmaMemoryLowerer.Plan a = WmmaMemoryLowerer.plan(fragment("wmma.load.a.sync.aligned.row.m32n8k16.f16"));
        assertEquals(List.of(0L, 8L, 0L, 8L, 16L, 24L, 16L, 24L),
                a.accesses().stream().map(WmmaMemoryLowerer.Access::strides).toList());
        // C f16 row: +0, +0x80, +0x100, +0x180 (8 f16 per row: rows 0, 8, 16, 24)
        WmmaMemoryLowerer.Plan c = WmmaMemoryLowerer.plan(fragment("wmma.load.c.sync.aligned.row.m32n8k16.f16"));
        assertEquals(List.of(0L, 8L, 16L, 24L), c.accesses().stream().map(WmmaMemoryLowerer.Access::strides).toList());
        WmmaFragment b = fragment("wmma.load.b.sync.aligned.col.m32n8k16.f16");
        assertEquals(8, b.registers());
        assertEquals(2, b.distinctRegisters());
        assertEquals(8, fragment("wmma.load.c.sync.aligned.row.m32n8k16.f32").defaultStride());
        assertEquals(4, fragment("wmma.load.a.sync.aligned.row.m16n16k16.bf16").registers());
    }

    @Test
    void m8n32k16IsTheTransposeOfM32n8k16() {
        // ptxas: B row LD.E at +0, +0x10, +0x200, +0x210, +0x20, +0x30, +0x220, +0x230, each through MOVM.16.MT88
        WmmaMemoryLowerer.Plan b = WmmaMemoryLowerer.plan(fragment("wmma.load.b.sync.aligned.row.m8n32k16.f16"));
        assertTrue(b.transposed());
        assertEquals(List.of(0L, 8L, 0L, 8L, 16L, 24L, 16L, 24L),
                b.accesses().stream().map(a -> a.strides() * 32 + a.elements()).map(x -> x % 32).toList());
        // C f16 row: +0, +0x10, +0x20, +0x30 through MOVM; A row: +0, +0x10 (2 registers repeated)
        WmmaMemoryLowerer.Plan c = WmmaMemoryLowerer.plan(fragment("wmma.load.c.sync.aligned.row.m8n32k16.f16"));
        assertTrue(c.transposed());
        assertEquals(List.of(0L, 8L, 16L, 24L), c.accesses().stream().map(WmmaMemoryLowerer.Access::elements).toList());
        assertFalse(WmmaMemoryLowerer.plan(fragment("wmma.load.a.sync.aligned.row.m8n32k16.f16")).transposed());
        assertEquals(2, fragment("wmma.load.a.sync.aligned.row.m8n32k16.f16").distinctRegisters());
    }

    /** Every element of the matrix is held by exactly one (lane, register, half) of the distinct registers. */
    @ParameterizedTest
    @ValueSource(strings = {"wmma.load.a.sync.aligned.row.m16n16k16.f16", "wmma.load.b.sync.aligned.col.m16n16k16.f16",
        "wmma.load.c.sync.aligned.row.m16n16k16.f16", "wmma.store.d.sync.aligned.col.m16n16k16.shared.f32",
        "wmma.load.a.sync.aligned.row.m16n16k8.global.tf32", "wmma.load.b.sync.aligned.col.m16n16k8.tf32",
        "wmma.load.a.sync.aligned.col.m32n8k16.f16", "wmma.load.b.sync.aligned.row.m32n8k16.bf16",
        "wmma.load.c.sync.aligned.row.m32n8k16.f16", "wmma.store.d.sync.aligned.col.m32n8k16.f32",
        "wmma.load.a.sync.aligned.row.m16n16k16.bf16", "wmma.load.a.sync.aligned.row.m8n32k16.f16",
        "wmma.load.b.sync.aligned.row.m8n32k16.bf16", "wmma.load.c.sync.aligned.row.m8n32k16.f32",
        "wmma.load.a.sync.aligned.row.m16n16k16.s8", "wmma.load.b.sync.aligned.col.m32n8k16.u8",
        "wmma.load.a.sync.aligned.col.m32n8k16.s8", "wmma.load.b.sync.aligned.row.m8n32k16.u8",
        "wmma.load.c.sync.aligned.row.m8n32k16.s32", "wmma.load.a.sync.aligned.row.m8n8k32.s4",
        "wmma.load.b.sync.aligned.col.m8n8k32.u4", "wmma.load.a.sync.aligned.row.m8n8k128.b1",
        "wmma.load.b.sync.aligned.col.m8n8k128.b1", "wmma.store.d.sync.aligned.col.m8n8k128.s32",
        "wmma.load.a.sync.aligned.col.m8n8k4.f64", "wmma.load.b.sync.aligned.row.m8n8k4.f64",
        "wmma.store.d.sync.aligned.row.m8n8k4.global.f64"})
    void theFragmentCoversTheMatrixOnce(String name) {
        WmmaFragment f = fragment(name);
        assertNotNull(f);
        int[][] seen = new int[f.rows()][f.columns()];
        for (int lane = 0; lane < 32; lane++) {
            for (int r = 0; r < f.distinctRegisters(); r++) {
                for (int e = 0; e < f.elementsPerRegister(); e++) {
                    int[] p = f.position(lane, r, e);
                    seen[p[0]][p[1]]++;
                }
            }
        }
        for (int[] row : seen) {
            for (int n : row) {
                assertEquals(1, n, name);
            }
        }
    }

    @Test
    void eightBitFragmentsAcrossTheLayoutAreReadByteByByte() {
        // ptxas: A col s8 LDG.E.U8 at +0, +0x10, +0x20, +0x30 (one column of 16 bytes each) for register 0, +8 on
        WmmaFragment a = fragment("wmma.load.a.sync.aligned.col.m16n16k16.global.s8");
        WmmaMemoryLowerer.Plan p = WmmaMemoryLowerer.plan(a);
        assertTrue(p.bytewise(a));
        assertEquals(List.of(0L, 1L, 2L, 3L), java.util.stream.IntStream.range(0, 4)
                .mapToObj(e -> WmmaMemoryLowerer.units(a, 0, 0, e, 1) - WmmaMemoryLowerer.units(a, 0, 0, e, 0)).toList());
        assertEquals(8, WmmaMemoryLowerer.units(a, 0, 1, 0, 0));
        // A row: LDG.E at +0, +0x80 (8 rows of 16)
        WmmaMemoryLowerer.Plan row = WmmaMemoryLowerer.plan(fragment("wmma.load.a.sync.aligned.row.m16n16k16.s8"));
        assertFalse(row.transposed());
        assertEquals(List.of(0L, 8L), row.accesses().stream().map(WmmaMemoryLowerer.Access::strides).toList());
    }

    @Test
    void subByteRowsAreWholeWords() {
        // ptxas: b1 A row at word (lane / 4) * (stride >> 5) + lane % 4; s4 at (lane / 4) * (stride >> 3) + lane % 4
        WmmaFragment b1 = fragment("wmma.load.a.sync.aligned.row.m8n8k128.b1");
        WmmaMemoryLowerer.Plan p = WmmaMemoryLowerer.plan(b1);
        assertEquals(List.of(1, 0, 0, 1), List.of(p.uStrides(), p.uElements(), p.vStrides(), p.vElements()));
        assertEquals(0, b1.offset(4, 0, 0, 16));
        assertEquals(128, b1.offset(4, 0, 0, 130));
        assertEquals(16, fragment("wmma.load.b.sync.aligned.col.m8n8k32.u4").offset(4, 0, 0, 23));
        assertNull(fragment("wmma.load.a.sync.aligned.col.m8n8k32.s4"));
        assertNull(fragment("wmma.load.b.sync.aligned.row.m8n8k128.b1"));
    }

    @Test
    void f64AccumulatorRowsAreOne128BitAccess() {
        // ptxas: C row f64 LDG.E.128 at (lane / 4) * stride + 2 (lane % 4); col: LDG.E.64 at +0 and +1 column
        WmmaMemoryLowerer.Plan row = WmmaMemoryLowerer.plan(fragment("wmma.load.c.sync.aligned.row.m8n8k4.f64"));
        assertEquals(List.of(new WmmaMemoryLowerer.Access(0, true, 0, 0)), row.accesses());
        WmmaMemoryLowerer.Plan col = WmmaMemoryLowerer.plan(fragment("wmma.load.c.sync.aligned.col.m8n8k4.f64"));
        assertEquals(List.of(new WmmaMemoryLowerer.Access(0, false, 0, 0), new WmmaMemoryLowerer.Access(1, false, 1, 0)),
                col.accesses());
        assertEquals(List.of(0, 1, 2, 0), List.of(col.uStrides(), col.uElements(), col.vStrides(), col.vElements()));
    }

    @Test
    void otherShapesAndMismatchedOperandsAreNotFragments() {
        assertNull(fragment("wmma.load.a.sync.aligned.row.m8n8k32.s8"));
        assertNull(fragment("wmma.load.a.sync.aligned.row.m16n16k16.s4"));
        assertNull(fragment("wmma.load.c.sync.aligned.row.m8n8k4.f32"));
        assertNull(fragment("wmma.load.d.sync.aligned.row.m16n16k16.f32"));
        assertNull(fragment("wmma.store.c.sync.aligned.row.m16n16k16.f32"));
        assertNull(fragment("wmma.load.c.sync.aligned.row.m16n16k8.f16"));
    }
}
