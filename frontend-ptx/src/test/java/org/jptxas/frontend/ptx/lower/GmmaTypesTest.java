package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The wgmma type table: rows by PTX name, N rules, accumulator sizes and SASS spelling. */
class GmmaTypesTest {
    private static GmmaTypes.Row row(String name) {
        return GmmaTypes.of(List.of(name.split("\\.")));
    }

    @Test
    void rowsGiveShapeTypesAndAccumulatorSize() {
        GmmaTypes.Row r = row("mma_async.sync.aligned.m64n64k16.f32.f16.f16");
        assertEquals(List.of("64x64x16", "F32"), r.sassModifiers());
        assertEquals(32, r.accumulatorRegisters());
        assertEquals(4, r.immediates(false));
        assertEquals(3, r.immediates(true));
        assertEquals(16, row("mma_async.sync.aligned.m64n64k16.f16.f16.f16").accumulatorRegisters());
        assertEquals(128, row("mma_async.sync.aligned.m64n256k8.f32.tf32.tf32").accumulatorRegisters());
        assertEquals(2, row("mma_async.sync.aligned.m64n256k8.f32.tf32.tf32").immediates(false));
        assertEquals(List.of("64x256x256", "AND", "POPC"),
                row("mma_async.sync.aligned.m64n256k256.s32.b1.b1.and.popc").sassModifiers());
    }

    @Test
    void nRulesAndUnknownCombinations() {
        assertNull(row("mma_async.sync.aligned.m64n64k8.f32.f16.f16"), "k must be the type's");
        assertNull(row("mma_async.sync.aligned.m64n60k16.f32.f16.f16"), "N is a multiple of 8");
        assertNull(row("mma_async.sync.aligned.m64n264k16.f32.f16.f16"), "N is at most 256");
        assertNull(row("mma_async.sync.aligned.m64n40k256.s32.b1.b1.and.popc"), "binary N past 24 is a multiple of 16");
        assertTrue(row("mma_async.sync.aligned.m64n48k256.s32.b1.b1.and.popc") != null);
        assertNull(row("mma_async.sync.aligned.m64n64k16.f32.f16.bf16"));
        assertTrue(GmmaTypes.encodable("HGMMA", List.of("64x64x16", "F32", "tnspB"), false));
        // A in registers: ptxas's P times V of Triton's attention kernels; the descriptor form of that shape has no tnspB
        assertTrue(GmmaTypes.encodable("HGMMA", List.of("64x128x16", "F32", "tnspB"), true));
        assertFalse(GmmaTypes.encodable("HGMMA", List.of("64x128x16", "F32", "tnspB"), false));
        assertNull(row("mma_async.sync.aligned.m64n64k16.f32.e5m2.e5m2"), "fp8's K is 32");
    }

    @Test
    void fp8RowsAreQgmmaWithScalesAndNoTranspose() {
        GmmaTypes.Row r = row("mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2");
        assertEquals("QGMMA", r.sassOpcode());
        assertEquals(List.of("64x64x32", "F32", "E5M2", "E5M2"), r.sassModifiers());
        assertEquals(32, r.accumulatorRegisters());
        assertEquals(2, r.immediates(false), "imm-scale-a, imm-scale-b; no imm-trans");
        assertEquals(List.of("64x128x32", "F16", "E4M3", "E5M2"),
                row("mma_async.sync.aligned.m64n128k32.f16.e4m3.e5m2").sassModifiers());
        assertEquals(32, row("mma_async.sync.aligned.m64n128k32.f16.e4m3.e5m2").accumulatorRegisters());
        // the sm_90a tables encode N 16..256 (powers of two) of every type, more N for E4M3.E5M2
        assertTrue(GmmaTypes.encodable("QGMMA", List.of("64x64x32", "F32", "E5M2", "E5M2"), false));
        assertTrue(GmmaTypes.encodable("QGMMA", List.of("64x256x32", "F16", "E4M3", "E5M2"), false));
        assertTrue(GmmaTypes.encodable("QGMMA", List.of("64x96x32", "F32", "E4M3", "E5M2", "negB"), false));
        assertFalse(GmmaTypes.encodable("QGMMA", List.of("64x96x32", "F32", "E4M3", "E4M3"), false));
    }
}
