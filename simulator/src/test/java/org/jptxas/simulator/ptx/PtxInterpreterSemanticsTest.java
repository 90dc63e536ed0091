package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.junit.jupiter.api.Test;

/** PTX ISA corner cases, one single-thread kernel each, results stored to an output buffer. */
class PtxInterpreterSemanticsTest {
    static final String HEADER = ".version 8.0\n.target sm_80\n.address_size 64\n";
    static final String SPEC = "{\"entry\":\"k\",\"grid\":[1],\"block\":[1],\"params\":[{\"type\":\"ptr\",\"bytes\":64}]}";

    record Out(LaunchResult result, ByteBuffer bytes) {}

    static Out run(String module) throws Exception {
        PtxInterpreter interp = PtxInterpreter.load("t.ptx", HEADER + module);
        Launch l = Launch.prepare(Target.of("sm_80"), LaunchSpecReader.parse("t.json", SPEC, Path.of(".")));
        LaunchResult r = interp.execute(l, ExecutionLimits.DEFAULT.withMaxWarpInstructions(10_000));
        return new Out(r, ByteBuffer.wrap(l.arguments().get(0).buffer().orElseThrow().bytes()).order(ByteOrder.LITTLE_ENDIAN));
    }

    static ByteBuffer body(String instructions) throws Exception {
        Out o = run(".visible .entry k(.param .u64 p) {\n .reg .b32 %r<20>; .reg .b64 %rd<20>; .reg .f32 %f<20>;"
                + " .reg .pred %p<9>; .reg .b16 %h<9>;\n ld.param.u64 %rd0, [p];\n" + instructions + "\n ret;\n}\n");
        assertTrue(o.result().completed(), () -> o.result().fault().orElseThrow().describe());
        return o.bytes();
    }

    @Test
    void highHalfOf64BitProductsSignedAndUnsigned() {
        // (2^64 - 1)^2 = 2^128 - 2^65 + 1: high half 0xffff...fffe unsigned; (-1) * (-1) = 1: high half 0 signed.
        assertEquals(0xfffffffffffffffeL, ArithmeticCompiler.mulHigh64(-1L, -1L, false));
        assertEquals(0L, ArithmeticCompiler.mulHigh64(-1L, -1L, true));
        assertEquals(-1L, ArithmeticCompiler.mulHigh64(-1L, 1L, true));
        assertEquals(0L, ArithmeticCompiler.mulHigh64(-1L, 1L, false));
        assertEquals(0x3fffffffffffffffL, ArithmeticCompiler.mulHigh64(Long.MIN_VALUE, Long.MAX_VALUE, false));
    }

    @Test
    void halfMinMaxFtzFlushesSubnormalInputs() throws Exception {
        // lanes (low first): +2^-24 and -2^-24 (subnormal) against -0 and +0; .ftz orders them as zeros of their sign
        ByteBuffer b = body("""
                mov.b32 %r1, 0x80010001; mov.b32 %r2, 0x00008000;
                min.ftz.f16x2 %r3, %r1, %r2; st.global.u32 [%rd0], %r3;
                max.ftz.f16x2 %r4, %r1, %r2; st.global.u32 [%rd0+4], %r4;
                min.f16x2 %r5, %r1, %r2; st.global.u32 [%rd0+8], %r5;
                mov.b16 %h1, 0x0001; mov.b16 %h2, 0x3c00;
                min.ftz.f16 %h3, %h1, %h2; st.global.u16 [%rd0+12], %h3;
                """);
        assertEquals(0x80008000, b.getInt(0));
        assertEquals(0x00000000, b.getInt(4));
        assertEquals(0x80018000, b.getInt(8)); // without .ftz the subnormals stay
        assertEquals(0, b.getShort(12)); // min(2^-24 flushed to +0, 1) = +0
    }

    @Test
    void shiftsClampAndSignExtend() throws Exception {
        ByteBuffer b = body("""
                mov.u32 %r1, -8;
                shr.s32 %r2, %r1, 40; st.global.u32 [%rd0], %r2;
                shr.u32 %r3, %r1, 32; st.global.u32 [%rd0+4], %r3;
                shl.b32 %r4, %r1, 33; st.global.u32 [%rd0+8], %r4;
                shr.s32 %r5, %r1, 1; st.global.u32 [%rd0+12], %r5;
                """);
        assertEquals(-1, b.getInt(0));
        assertEquals(0, b.getInt(4));
        assertEquals(0, b.getInt(8));
        assertEquals(-4, b.getInt(12));
    }

    @Test
    void conversionsSaturateAndMapNanToZero() throws Exception {
        ByteBuffer b = body("""
                mov.f32 %f1, 0f7FC00000;
                cvt.rzi.s32.f32 %r1, %f1; st.global.u32 [%rd0], %r1;
                mov.f32 %f2, 0f5F000000;
                cvt.rzi.s32.f32 %r2, %f2; st.global.u32 [%rd0+4], %r2;
                mov.f32 %f3, 0fBF800000;
                cvt.rzi.u32.f32 %r3, %f3; st.global.u32 [%rd0+8], %r3;
                mov.u32 %r4, 300;
                cvt.sat.u8.u32 %r5, %r4; st.global.u32 [%rd0+12], %r5;
                mov.u32 %r6, -200;
                cvt.sat.s8.s32 %r7, %r6; st.global.u32 [%rd0+16], %r7;
                mov.u32 %r8, -100;
                cvt.rn.f32.u32 %f4, %r8; st.global.f32 [%rd0+20], %f4;
                cvt.rz.f32.u32 %f5, %r8; st.global.f32 [%rd0+24], %f5;
                """);
        assertEquals(0, b.getInt(0));
        assertEquals(Integer.MAX_VALUE, b.getInt(4));
        assertEquals(0, b.getInt(8));
        assertEquals(255, b.getInt(12));
        assertEquals(-128, b.getInt(16));
        assertEquals(4294967296.0f, b.getFloat(20)); // 2^32 - 100 is nearer 2^32 than 2^32 - 256
        assertEquals(Math.nextDown(4294967296.0f), b.getFloat(24));
    }

    @Test
    void floatCompareAndMinMaxFollowNanRules() throws Exception {
        ByteBuffer b = body("""
                mov.f32 %f1, 0f7FC00000; mov.f32 %f2, 0f3F800000;
                setp.ne.f32 %p1, %f1, %f2; selp.u32 %r1, 1, 0, %p1; st.global.u32 [%rd0], %r1;
                setp.neu.f32 %p2, %f1, %f2; selp.u32 %r2, 1, 0, %p2; st.global.u32 [%rd0+4], %r2;
                min.f32 %f3, %f1, %f2; st.global.f32 [%rd0+8], %f3;
                max.f32 %f4, %f2, %f1; st.global.f32 [%rd0+12], %f4;
                setp.lt.and.f32 %p3|%p4, %f2, 0f40000000, %p2; selp.u32 %r3, 1, 0, %p4; st.global.u32 [%rd0+16], %r3;
                """);
        assertEquals(0, b.getInt(0));
        assertEquals(1, b.getInt(4));
        assertEquals(1.0f, b.getFloat(8));
        assertEquals(1.0f, b.getFloat(12));
        assertEquals(0, b.getInt(16)); // !(1 < 2) && true
    }

    @Test
    void ftzFlushesSubnormalsAndSatClamps() throws Exception {
        ByteBuffer b = body("""
                mov.f32 %f1, 0f00000001; mov.f32 %f2, 0f3F800000;
                mul.ftz.f32 %f3, %f1, %f2; st.global.f32 [%rd0], %f3;
                mul.f32 %f4, %f1, %f2; st.global.f32 [%rd0+4], %f4;
                add.sat.f32 %f5, %f2, %f2; st.global.f32 [%rd0+8], %f5;
                """);
        assertEquals(0, b.getInt(0));
        assertEquals(1, b.getInt(4));
        assertEquals(1.0f, b.getFloat(8));
    }

    @Test
    void regCallingConventionWithSeveralResultsAndWarpSize() throws Exception {
        Out o = run("""
                .func (.reg .u32 a, .reg .pred b) f(.reg .u32 x) {
                  add.u32 a, x, WARP_SZ;
                  setp.eq.u32 b, x, 5;
                  ret;
                }
                .visible .entry k(.param .u64 p) {
                  .reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .pred %p<2>;
                  ld.param.u64 %rd0, [p];
                  mov.u32 %r1, 5;
                  call (%r2, %p1), f, (%r1);
                  selp.u32 %r3, 7, 9, %p1;
                  st.global.u32 [%rd0], %r2;
                  st.global.u32 [%rd0+4], %r3;
                  ret;
                }
                """);
        assertTrue(o.result().completed(), () -> o.result().fault().orElseThrow().describe());
        assertEquals(37, o.bytes().getInt(0));
        assertEquals(7, o.bytes().getInt(4));
    }

    @Test
    void externalCallsStopByNameAndAssertFailIsATrap() throws Exception {
        Out printf = run("""
                .extern .func (.param .b32 r) vprintf (.param .b64 f, .param .b64 a);
                .visible .entry k(.param .u64 p) {
                  .param .b64 f; .param .b64 a; .param .b32 r;
                  call.uni (r), vprintf, (f, a);
                  ret;
                }
                """);
        Fault.Unimplemented u = assertInstanceOf(Fault.Unimplemented.class, printf.result().fault().orElseThrow());
        assertTrue(u.name().contains("vprintf"), u.name());
        Out assertion = run("""
                .extern .func __assertfail (.param .b64 m, .param .b64 f, .param .b32 l, .param .b64 fn, .param .b64 s);
                .visible .entry k(.param .u64 p) {
                  .param .b64 m; .param .b64 f; .param .b32 l; .param .b64 fn; .param .b64 s;
                  call.uni __assertfail, (m, f, l, fn, s);
                  ret;
                }
                """);
        assertInstanceOf(Fault.Trap.class, assertion.result().fault().orElseThrow());
    }

    @Test
    void moduleLocalVariablesArePerThreadStatics() throws Exception {
        Out o = run("""
                .local .align 4 .b8 scratch[8];
                .visible .entry k(.param .u64 p) {
                  .reg .b32 %r<3>; .reg .b64 %rd<2>;
                  ld.param.u64 %rd0, [p];
                  st.local.u32 [scratch+4], 41;
                  ld.local.u32 %r1, [scratch+4];
                  add.u32 %r2, %r1, 1;
                  st.global.u32 [%rd0], %r2;
                  ret;
                }
                """);
        assertTrue(o.result().completed(), () -> o.result().fault().orElseThrow().describe());
        assertEquals(42, o.bytes().getInt(0));
    }

    @Test
    void divisionByZeroIsDefinedAsTheHardwareSequencesGiveIt() throws Exception {
        ByteBuffer b = body("""
                mov.u32 %r1, 7; mov.u32 %r2, 0;
                div.u32 %r3, %r1, %r2; st.global.u32 [%rd0], %r3;
                rem.u32 %r4, %r1, %r2; st.global.u32 [%rd0+4], %r4;
                """);
        assertEquals(-1, b.getInt(0));
        assertEquals(7, b.getInt(4));
    }

    @Test
    void carryChainsGiveWideArithmetic() throws Exception {
        ByteBuffer b = body("""
                mov.u32 %r1, 0xffffffff; mov.u32 %r2, 0x00000001; mov.u32 %r3, 0x00000001; mov.u32 %r4, 0x00000002;
                add.cc.u32 %r5, %r1, %r3; addc.u32 %r6, %r2, %r4;
                st.global.u32 [%rd0], %r5; st.global.u32 [%rd0+4], %r6;
                sub.cc.u32 %r7, %r3, %r1; subc.u32 %r8, %r4, %r2;
                st.global.u32 [%rd0+8], %r7; st.global.u32 [%rd0+12], %r8;
                mad.lo.cc.u32 %r9, %r1, %r1, %r1; madc.hi.u32 %r10, %r1, %r1, 0;
                st.global.u32 [%rd0+16], %r9; st.global.u32 [%rd0+20], %r10;
                """);
        assertEquals(0x1_ffffffffL + 0x2_00000001L, b.getLong(0));
        assertEquals(0x2_00000001L - 0x1_ffffffffL, b.getLong(8));
        // 0xffffffff * 0xffffffff + 0xffffffff = 0xffffffff_00000000
        assertEquals(0xffffffff_00000000L, b.getLong(16));
    }

    @Test
    void bitFieldHelpersAndTests() throws Exception {
        ByteBuffer b = body("""
                bmsk.wrap.b32 %r1, 4, 8; st.global.u32 [%rd0], %r1;
                szext.wrap.s32 %r2, 0x80, 8; st.global.u32 [%rd0+4], %r2;
                szext.clamp.u32 %r3, 0x1ff, 8; st.global.u32 [%rd0+8], %r3;
                mov.f32 %f1, 0f00000010;
                testp.subnormal.f32 %p1, %f1; selp.u32 %r4, 1, 0, %p1; st.global.u32 [%rd0+12], %r4;
                set.lt.u32.s32 %r5, -1, 0; st.global.u32 [%rd0+16], %r5;
                slct.u32.s32 %r6, 10, 20, -5; st.global.u32 [%rd0+20], %r6;
                mov.u32 %r7, 0x44332211; mov.u32 %r8, 0x88776655;
                prmt.b32.f4e %r9, %r7, %r8, 2; st.global.u32 [%rd0+24], %r9;
                prmt.b32.rc8 %r10, %r7, %r8, 1; st.global.u32 [%rd0+28], %r10;
                """);
        assertEquals(0xff0, b.getInt(0));
        assertEquals(-128, b.getInt(4));
        assertEquals(0xff, b.getInt(8));
        assertEquals(1, b.getInt(12));
        assertEquals(-1, b.getInt(16));
        assertEquals(20, b.getInt(20));
        assertEquals(0x66554433, b.getInt(24));
        assertEquals(0x22222222, b.getInt(28));
    }

    @Test
    void paramEntryLoadsReadTheKernelParameters() throws Exception {
        // ld.param::entry names the kernel's parameter space as ld.param does (it once read global memory there)
        ByteBuffer b = body("""
                ld.param::entry.u64 %rd1, [p]; st.global.u64 [%rd0], %rd1;
                ld.param::entry.u32 %r1, [p+4]; st.global.u32 [%rd0+8], %r1;
                """);
        long p = b.getLong(0);
        assertTrue(p != 0);
        assertEquals((int) (p >>> 32), b.getInt(8));
    }

    /**
     * Labels are scoped by { } blocks: two sibling blocks that each define {@code L} branch to their own (the second
     * block's loop runs 3 times, not into the first's), and a name defined once is found from outside its block.
     */
    @Test
    void blocksKeepTheirOwnLabels() throws Exception {
        ByteBuffer b = body("""
                mov.u32 %r1, 0; mov.u32 %r2, 0;
                { L: add.u32 %r1, %r1, 1; setp.lt.u32 %p1, %r1, 2; @%p1 bra L; }
                { L: add.u32 %r2, %r2, 10; setp.lt.u32 %p2, %r2, 30; @%p2 bra L; }
                bra INNER;
                mov.u32 %r1, 99;
                { INNER: st.global.u32 [%rd0], %r1; st.global.u32 [%rd0+4], %r2; }
                """);
        assertEquals(2, b.getInt(0));
        assertEquals(30, b.getInt(4));
    }
}
