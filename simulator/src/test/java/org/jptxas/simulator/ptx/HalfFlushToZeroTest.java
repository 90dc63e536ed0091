package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * add/sub/mul{.rn}.ftz{.sat}.{f16,f16x2} and neg/abs.ftz.{f16,f16x2}: the PTX ISA flushes subnormal inputs and results to zeros of their sign
 * (the half-precision add, sub and mul sections, "Subnormal numbers"), as HADD2.FTZ/HMUL2.FTZ compute; without .ftz
 * they are kept.
 */
class HalfFlushToZeroTest {
    @Test
    void ftzFlushesSubnormalHalfInputs() throws Exception {
        ByteBuffer b = PtxInterpreterSemanticsTest.body("""
                mov.b16 %h1, 0x0001; mov.b16 %h2, 0x0000;
                add.ftz.f16 %h3, %h1, %h2; st.global.b16 [%rd0], %h3;
                add.f16 %h4, %h1, %h2; st.global.b16 [%rd0+2], %h4;
                mov.b16 %h5, 0x8003;
                sub.rn.ftz.f16 %h6, %h5, %h2; st.global.b16 [%rd0+4], %h6;
                """);
        assertEquals(0x0000, b.getShort(0) & 0xffff);
        assertEquals(0x0001, b.getShort(2) & 0xffff);
        assertEquals(0x8000, b.getShort(4) & 0xffff); // a zero of the input's sign
    }

    @Test
    void ftzFlushesSubnormalHalfResultsInBothLanes() throws Exception {
        // 2^-14 (the smallest normal) * 0.5 = 2^-15, subnormal: +0 and -0 with .ftz, 0x0200 / 0x8200 without
        ByteBuffer b = PtxInterpreterSemanticsTest.body("""
                mov.b32 %r1, 0x84000400; mov.b32 %r2, 0x38003800;
                mul.ftz.f16x2 %r3, %r1, %r2; st.global.b32 [%rd0], %r3;
                mul.f16x2 %r4, %r1, %r2; st.global.b32 [%rd0+4], %r4;
                mov.b16 %h1, 0x0400; mov.b16 %h2, 0x3800;
                mul.rn.ftz.sat.f16 %h3, %h1, %h2; st.global.b16 [%rd0+8], %h3;
                """);
        assertEquals(0x80000000, b.getInt(0));
        assertEquals(0x82000200, b.getInt(4));
        assertEquals(0x0000, b.getShort(8) & 0xffff);
    }

    @Test
    void negAndAbsFtzFlushSubnormalLanes() throws Exception {
        ByteBuffer b = PtxInterpreterSemanticsTest.body("""
                mov.b16 %h1, 0x8032;
                neg.ftz.f16 %h2, %h1; st.global.b16 [%rd0], %h2;
                neg.f16 %h3, %h1; st.global.b16 [%rd0+2], %h3;
                mov.b32 %r1, 0x83ffbc00;
                neg.ftz.f16x2 %r2, %r1; st.global.b32 [%rd0+4], %r2;
                abs.ftz.f16x2 %r3, %r1; st.global.b32 [%rd0+8], %r3;
                """);
        assertEquals(0x0000, b.getShort(0) & 0xffff); // -(-0)
        assertEquals(0x0032, b.getShort(2) & 0xffff);
        assertEquals(0x00003c00, b.getInt(4));
        assertEquals(0x00003c00, b.getInt(8));
    }
}
