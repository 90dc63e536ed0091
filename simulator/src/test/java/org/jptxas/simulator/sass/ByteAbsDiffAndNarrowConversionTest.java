package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Instructions ptxas 13 writes for PTX forms the instruction-form suite runs: VABSDIFF4{.U8}{.ACC} (vabsdiff4, every
 * SM), F2IP.U8.F32{.TRUNC}.NTZ (cvt.rni/rzi.u8.f32, sm_86 on; as printed: {@code F2IP.U8.F32.NTZ R11, RZ, R6, RZ}),
 * F2F.F64.F16, F2F.F64.BF16.{RM,RP,RZ}, F2F.FTZ.F32.BF16{.RZ}, F2F.BF16.F32 and HMNMX2.FTZ (min/max.ftz.f16{x2}).
 * Each case runs at the edges: signed and unsigned byte extremes, NaN, ±0, subnormals, overflow, rounding ties.
 */
class ByteAbsDiffAndNarrowConversionTest {
    @Test
    void byteAbsoluteDifferences() throws Exception {
        // bytes (low first): a = 0x80 (-128 / 128), 0x7f, 0x00, 0xff (-1 / 255); b = 0x7f, 0x80, 0xff, 0x01
        int[] out = SassTextRun.ops("sm_80", List.of("MOV R4, 0xff007f80", "MOV R5, 0x01ff807f", "MOV R6, 0x10"), List.of(
                "VABSDIFF4 Rd, R4, R5, R6",
                "VABSDIFF4.U8 Rd, R4, R5, R6",
                "VABSDIFF4.ACC Rd, R4, R5, R6",
                "VABSDIFF4.U8.ACC Rd, R4, R5, R6"));
        // signed: |-128-127| = 255, |127+128| = 255, |0+1| = 1, |-1-1| = 2 (each byte of d, c not merged in)
        assertEquals(0x0201ffff, out[0]);
        // unsigned: |128-127| = 1, |127-128| = 1, |0-255| = 255, |255-1| = 254
        assertEquals(0xfeff0101, out[1]);
        assertEquals(255 + 255 + 1 + 2 + 0x10, out[2]); // the sum onto c, past a byte
        assertEquals(1 + 1 + 255 + 254 + 0x10, out[3]);
    }

    @Test
    void floatToPackedByte() throws Exception {
        int[] out = SassTextRun.ops("sm_86", List.of(
                "MOV R4, 0x40200000", // 2.5: a tie, to even 2
                "MOV R5, 0x40600000", // 3.5: to even 4
                "MOV R6, 0x43800000", // 256: past the byte
                "MOV R7, 0xbf800000", // -1
                "MOV R8, 0x7fc00000", // NaN
                "MOV R9, 0x437f8000"), // 255.5: to even 256, saturated
                List.of(
                "F2IP.U8.F32.NTZ Rd, RZ, R4, RZ",
                "F2IP.U8.F32.NTZ Rd, RZ, R5, RZ",
                "F2IP.U8.F32.NTZ Rd, RZ, R6, RZ",
                "F2IP.U8.F32.NTZ Rd, RZ, R7, RZ",
                "F2IP.U8.F32.NTZ Rd, RZ, R8, RZ",
                "F2IP.U8.F32.NTZ Rd, RZ, R9, RZ",
                "F2IP.U8.F32.TRUNC.NTZ Rd, RZ, R5, RZ",
                "F2IP.U8.F32.NTZ Rd, R5, R4, RZ")); // a in the byte above b
        assertEquals(List.of(2, 4, 255, 0, 0, 255, 3, 0x0402), List.of(out[0], out[1], out[2], out[3], out[4], out[5],
                out[6], out[7]));
    }

    @Test
    void widenHalvesToDouble() throws Exception {
        int[] out = SassTextRun.ops("sm_80", List.of(
                "MOV R4, 0x8001", // f16 -2^-24, the smallest subnormal
                "MOV R5, 0x7e00", // f16 NaN
                "MOV R6, 0xfc00"), // f16 -inf
                List.of(
                "F2F.F64.F16 R10, R4",
                "MOV Rd, R11",
                "F2F.F64.F16 R10, R5",
                "MOV Rd, R11",
                "MOV Rd, R10",
                "F2F.F64.F16 R10, R6",
                "MOV Rd, R11"));
        assertEquals(0xbe700000, out[1]); // -2^-24 exactly: the f64's high word
        assertEquals(0x7fffffff, out[3]); // a NaN: the canonical f64 NaN
        assertEquals(0xffffffff, out[4]);
        assertEquals(0xfff00000, out[6]); // -inf
    }

    @Test
    void bfloat16Conversions() throws Exception {
        int[] out = SassTextRun.ops("sm_90", List.of(
                "MOV R4, 0x0001", // bf16's smallest subnormal, 2^-133
                "MOV R5, 0x8040", // a negative subnormal
                "MOV R6, 0x3f81", // 1.0078125
                "MOV R7, 0x3f808000", // f32 1 + 2^-8: a tie between two bf16s, to even 1.0
                "MOV R8, 0x3f818000", // 1 + 3 * 2^-8: a tie, to even 1.015625
                "MOV R9, 0x7f7fffff", // the largest f32: past the bf16 range, to infinity
                "MOV R12, 0xffc1"), // a bf16 NaN
                List.of(
                "F2F.FTZ.F32.BF16 Rd, R4",
                "F2F.FTZ.F32.BF16 Rd, R5",
                "F2F.FTZ.F32.BF16.RZ Rd, R6",
                "F2F.FTZ.F32.BF16 Rd, R12",
                "F2F.BF16.F32 Rd, R7",
                "F2F.BF16.F32 Rd, R8",
                "F2F.BF16.F32 Rd, R9",
                "F2F.F64.BF16.RM R10, R6",
                "MOV Rd, R11",
                "F2F.F64.BF16.RP R10, R5",
                "MOV Rd, R11"));
        assertEquals(0, out[0]); // flushed to +0
        assertEquals(0x80000000, out[1]); // to -0
        assertEquals(0x3f810000, out[2]); // exact whatever the rounding
        assertEquals(0x7fffffff, out[3]); // canonical NaN
        assertEquals(0x3f80, out[4]);
        assertEquals(0x3f82, out[5]);
        assertEquals(0x7f80, out[6]);
        assertEquals(0x3ff02000, out[8]); // f64 1.0078125's high word, exact under .RM
        assertEquals(0xb8000000, out[10]); // -2^-127 exactly in f64: not flushed (no .FTZ)
    }

    @Test
    void halfMinMaxFlushesSubnormals() throws Exception {
        int[] out = SassTextRun.ops("sm_80", List.of(
                "MOV R4, 0x80010001", // lanes: +2^-24 (low), -2^-24 (high), both subnormal
                "MOV R5, 0x00008000", // lanes: -0 (low), +0 (high)
                "MOV R6, 0x7e003c00"), // lanes: 1.0 (low), NaN (high)
                List.of(
                "HMNMX2.FTZ Rd, R4, R5, PT",
                "HMNMX2.FTZ Rd, R4, R5, !PT",
                "HMNMX2 Rd, R4, R5, PT",
                "HMNMX2.FTZ Rd, R4, R6, PT",
                "HMNMX2.FTZ.NAN Rd, R4, R6, !PT"));
        // min: low min(+0, -0) = -0, high min(-0, +0) = -0: the flushed subnormals order as zeros of their sign
        assertEquals(0x80008000, out[0]);
        assertEquals(0x00000000, out[1]); // max: +0 in both lanes
        assertEquals(0x80018000, out[2]); // no .FTZ: low min(2^-24, -0) = -0, high min(-2^-24, +0) = -2^-24
        assertEquals(0x80000000, out[3]); // low min(+0, 1) = +0; high: NaN gives the other operand, flushed
        assertEquals(0x7fff3c00, out[4]); // .NAN: the high lane's NaN is canonical; low max(+0, 1) = 1
    }
}
