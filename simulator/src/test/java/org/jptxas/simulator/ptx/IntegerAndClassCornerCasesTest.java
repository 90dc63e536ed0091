package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * PTX ISA corner cases ptxas 13's code follows and the interpreter had not: testp.normal counts +-0 as normal ("as a
 * special case, positive and negative zero are considered normal numbers"); mad24.hi.sat.s32 clamps the sum to the
 * s32 range; set with an f16 destination writes 1.0 (0x3c00), not all ones; bmsk.wrap wraps modulo 32.
 */
class IntegerAndClassCornerCasesTest {
    @Test
    void zerosAreNormal() throws Exception {
        ByteBuffer b = PtxInterpreterSemanticsTest.body("""
                mov.f32 %f1, 0f80000000;
                testp.normal.f32 %p1, %f1; selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0], %r1;
                mov.f32 %f2, 0f00000001;
                testp.normal.f32 %p2, %f2; selp.u32 %r2, 1, 0, %p2; st.global.u32 [%rd0+4], %r2;
                testp.normal.f64 %p3, 0d0000000000000000; selp.u32 %r3, 1, 0, %p3; st.global.u32 [%rd0+8], %r3;
                """);
        assertEquals(1, b.getInt(0));
        assertEquals(0, b.getInt(4)); // a subnormal is not
        assertEquals(1, b.getInt(8));
    }

    @Test
    void mad24HiSatClampsTheSum() throws Exception {
        // (0x7fffff * 0x7fffff) >> 16 = 0x3fffff00 (bits 47..16 of the 48-bit product); + 0x7fffff00 overflows
        ByteBuffer b = PtxInterpreterSemanticsTest.body("""
                mov.u32 %r1, 0x7fffff; mov.u32 %r2, 0x7fffff00; mov.u32 %r3, 0x80000000;
                mad24.hi.sat.s32 %r4, %r1, %r1, %r2; st.global.u32 [%rd0], %r4;
                mad24.hi.s32 %r5, %r1, %r1, %r2; st.global.u32 [%rd0+4], %r5;
                mov.u32 %r6, 0xff800000;
                mad24.hi.sat.s32 %r7, %r6, %r1, %r3; st.global.u32 [%rd0+8], %r7;
                """);
        assertEquals(0x7fffffff, b.getInt(0));
        assertEquals(0x3fffff00 + 0x7fffff00, b.getInt(4)); // wraps without .sat
        assertEquals(0x80000000, b.getInt(8)); // -2^23 * (2^23 - 1) >> 16 is negative; + MIN clamps to MIN
    }

    @Test
    void halfSetWritesOneInItsOwnFormat() throws Exception {
        ByteBuffer b = PtxInterpreterSemanticsTest.body("""
                mov.b16 %h1, 0x3c00; mov.b16 %h2, 0x4000;
                set.lt.f16.f16 %h3, %h1, %h2; st.global.b16 [%rd0], %h3;
                set.gt.f16.f16 %h4, %h1, %h2; st.global.b16 [%rd0+2], %h4;
                set.lt.u16.f16 %h5, %h1, %h2; st.global.b16 [%rd0+4], %h5;
                """);
        assertEquals(0x3c00, b.getShort(0) & 0xffff);
        assertEquals(0x0000, b.getShort(2) & 0xffff);
        assertEquals(0xffff, b.getShort(4) & 0xffff);
    }

    @Test
    void bmskWrapTakesPositionAndWidthModulo32() throws Exception {
        ByteBuffer b = PtxInterpreterSemanticsTest.body("""
                mov.u32 %r1, 63; mov.u32 %r2, 1; mov.u32 %r3, 0x104;
                bmsk.wrap.b32 %r4, %r1, %r2; st.global.u32 [%rd0], %r4;
                bmsk.clamp.b32 %r5, %r1, %r2; st.global.u32 [%rd0+4], %r5;
                bmsk.wrap.b32 %r6, %r2, %r3; st.global.u32 [%rd0+8], %r6;
                """);
        assertEquals(0x80000000, b.getInt(0)); // position 63 & 31 = 31, width 1
        assertEquals(0, b.getInt(4)); // position 63 >= 32
        assertEquals(0x1e, b.getInt(8)); // width 0x104 & 31 = 4 from bit 1
    }
}
