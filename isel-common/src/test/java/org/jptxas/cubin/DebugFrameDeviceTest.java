package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalInt;
import org.jptxas.testing.OracleCubins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The call-frame program of a device function that makes a call: the frame defined after the stack pointer is
 * lowered, each saved register's slot, the return address restored and the others described by an expression, and
 * the frame dropped after the stack pointer is raised.
 */
class DebugFrameDeviceTest {
    /** A device function calling an extern one, as ptxas 13 compiles {@link #OUTER} for sm_80 with -c. */
    private static final long[][] OUTER_SM80 = {
        {0xffffffe801017810L, 0x000fca0007ffe0ffL}, // IADD3 R1, R1, -0x18, RZ
        {0x0000101501007387L, 0x000fe80000100800L}, // STL [R1+0x10], R21
        {0x00000c1401007387L, 0x000fe80000100800L}, // STL [R1+0xc], R20
        {0x0000081301007387L, 0x0001e80000100800L}, // STL [R1+0x8], R19
        {0x0000041201007387L, 0x0003e80000100800L}, // STL [R1+0x4], R18
        {0x0000001101007387L, 0x0005e20000100800L}, // STL [R1], R17
        {0x000000ffff137224L, 0x001fe200078e0007L}, // IMAD.MOV.U32 R19, RZ, RZ, R7
        {0x0000000600127202L, 0x002fe20000000f00L}, // MOV R18, R6
        {0x000000ffff117224L, 0x004fca00078e0004L}, // IMAD.MOV.U32 R17, RZ, RZ, R4
        {0x0000001100047202L, 0x000fe40000000f00L}, // MOV R4, R17
        {0x0000000000147802L, 0x000fe40000000f00L}, // MOV R20, 32@lo(return address)
        {0x0000000000157802L, 0x000fc80000000f00L}, // MOV R21, 32@hi(return address)
        {0x0000000000007943L, 0x000fea0003c00000L}, // CALL.ABS.NOINC inner
        {0x00000c0001147983L, 0x0000a20000100800L}, // LDL R20, [R1+0xc]
        {0x0000001104047210L, 0x000fe20007ffe0ffL}, // IADD3 R4, R4, R17, RZ
        {0x0000460000047ab9L, 0x000fc40000000a00L}, // ULDC.64 UR4, c[0x0][0x118]
        {0x0000100001157983L, 0x0000a80000100800L}, // LDL R21, [R1+0x10]
        {0x0000000412007986L, 0x0003e8000c101904L}, // STG.E [R18.64], R4
        {0x0000000001117983L, 0x0000a80000100800L}, // LDL R17, [R1]
        {0x0000040001127983L, 0x0020a80000100800L}, // LDL R18, [R1+0x4]
        {0x0000080001137983L, 0x0000a40000100800L}, // LDL R19, [R1+0x8]
        {0x0000001801017810L, 0x001fe20007ffe0ffL}, // IADD3 R1, R1, 0x18, RZ
        {0x0000000014007950L, 0x004fec0003e00000L}, // RET.ABS.NODEC R20
    };

    /** ptxas 13's program for it: def_cfa R1+0x18; offset_extended R21 2, R20 3, R19 4, R18 5, R17 6; ... */
    private static final String OUTER_SM80_PROGRAM = "04040000000c818080281804040000000595808028020404000000059480"
            + "8028030404000000059380802804040400000005928080280504040000000591808028060420000000069480802804"
            + "0c000000069580802804080000001091808028069281808028680404000000109280802806928180802"
            + "86c040400000010938080280692818080287004040000000c8180802800";

    static final String OUTER = """
            .version 8.0
            .target sm_75
            .address_size 64
            .extern .func (.param .b32 r) inner(.param .b32 a);
            .visible .func (.param .b32 res) outer(.param .b32 x, .param .b64 p)
            {
              .reg .b32 %r<4>;
              .reg .b64 %rd<2>;
              ld.param.b32 %r1, [x];
              ld.param.b64 %rd1, [p];
              {
              .param .b32 a0;
              .param .b32 r0;
              st.param.b32 [a0], %r1;
              call (r0), inner, (a0);
              ld.param.b32 %r2, [r0];
              }
              add.s32 %r3, %r2, %r1;
              st.global.b32 [%rd1], %r3;
              st.param.b32 [res], %r3;
              ret;
            }
            """;

    @Test
    void savedRegistersAreFollowedThroughTheFrame() {
        FunctionFacts outer = new FunctionFacts("outer", false, DebugFrameFenceTest.code(OUTER_SM80), 24, 0x18, 0x18,
                0x18, 0, List.of(), 0, 0, new int[0], OptionalInt.empty(), 255, List.of(), List.of("inner"), List.of());
        assertEquals(OUTER_SM80_PROGRAM, HexFormat.of().formatHex(DebugFrame.program(false, outer)));
    }

    @Test
    void sm90BranchOffsetsStartInTheLowByte() {
        // BRA at 0xf0 back to 0xa0, and a self-loop, as ptxas 13 writes them for sm_90 (offset in 4-byte units in
        // bits [23:16] and [63:34]); below sm_90 the same back branch has its offset in bits [63:34] alone.
        byte[] loop = DebugFrameFenceTest.code(new long[] {0xfffffffc00e88947L, 0},
                new long[] {0xfffffffc00fc7947L, 0});
        assertEquals(-0x60, DebugFrame.branchOffset(true, loop, 0));
        assertEquals(-0x10, DebugFrame.branchOffset(true, loop, 16));
        byte[] sm80 = DebugFrameFenceTest.code(new long[] {0xffffffa000007947L, 0});
        assertEquals(-0x60, DebugFrame.branchOffset(false, sm80, 0));
    }

    /** The whole section, from the code and facts of ptxas 13's own relocatable output, equals ptxas's. */
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void equalsPtxasForADeviceFunctionThatCalls(String arch, @TempDir Path dir) throws Exception {
        Path ptx = Files.writeString(dir.resolve("outer.ptx"), OUTER);
        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, arch, "-c");
        Cubin ptxas = Cubin.read(Files.readAllBytes(c.cubin().orElseThrow(() -> new AssertionError(c.diagnostics()))));
        byte[] built = DebugFrame.encode(CubinFlavors.forSm(ptxas.sm()), CubinFacts.functions(ptxas), true).bytes();
        assertArrayEquals(ptxas.section(".debug_frame").orElseThrow().data(), built);
    }
}
