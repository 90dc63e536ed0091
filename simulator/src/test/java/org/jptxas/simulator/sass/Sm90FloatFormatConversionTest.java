package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.numeric.SmallFloats;
import org.junit.jupiter.api.Test;

/**
 * The sm_89/sm_90 conversions ptxas 13 writes for cvt between f16 and bf16, bf16 and f64, f32 to tf32 (.rn/.rz,
 * .relu) and an f16 pair to fp8: F2F.{BF16.F16|F16.BF16|F64.BF16|BF16.F64}{.RZ,.RM,.RP},
 * F2FP{.RELU}.TF32.F32.PACK_B{.RZ}, F2FP.SATFINITE{.RELU}.{E4M3|E5M2}.F16.UNPACK_B_MERGE_C.
 */
class Sm90FloatFormatConversionTest {
    @Test
    void tf32Rounding() {
        assertEquals(0x3f800000, SmallFloats.toTf32(0x3f800fff, false, false)); // below half a unit: down
        assertEquals(0x3f802000, SmallFloats.toTf32(0x3f801001, false, false)); // above: up
        assertEquals(0x3f800000, SmallFloats.toTf32(0x3f801000, false, false)); // a tie to the even unit
        assertEquals(0x3f804000, SmallFloats.toTf32(0x3f803000, false, false)); // a tie up to the even unit
        assertEquals(0x3f802000, SmallFloats.toTf32(0x3f803fff, true, false)); // .RZ truncates
        assertEquals(0x7f800000, SmallFloats.toTf32(0x7f7fffff, false, false)); // a carry to infinity
        assertEquals(0x7fffffff, SmallFloats.toTf32(0xffc00001, false, false)); // NaN: canonical
        assertEquals(0, SmallFloats.toTf32(0xbf800000, false, true)); // .RELU: negative to +0
        assertEquals(0x80000000, SmallFloats.toTf32(0x80000000, false, true)); // -0 stays
    }

    @Test
    void emulatorConverts() throws Exception {
        String sm = "sm_90";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                SassTextRun.pointer(sm, 0, 0),
                "MOV R4, 0x3c01", // f16 1.0009766 (1 + 2^-10)
                "MOV R5, 0x3f81", // bf16 1.0078125
                "MOV R6, 0x3f800fff", // f32 just under 1 + 2^-11
                "MOV R7, 0x5c00bc00", // f16 pair (256, -1)
                "MOV R8, 0x0",
                "MOV R9, 0x3ff01000", // R8:R9 = f64 1 + 2^-8, half a bf16 unit above 1
                "F2F.BF16.F16 R10, R4",
                "F2F.BF16.F16.RP R11, R4",
                "F2F.F16.BF16 R12, R5",
                "F2F.F64.BF16 R14, R5",
                "F2F.BF16.F64.RM R16, R8",
                "F2F.BF16.F64.RP R17, R8",
                "F2FP.TF32.F32.PACK_B R18, R6",
                "F2FP.RELU.TF32.F32.PACK_B.RZ R19, R6",
                "F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R20, R7, RZ",
                "F2FP.SATFINITE.RELU.E5M2.F16.UNPACK_B_MERGE_C R21, R7, RZ",
                "STG.E " + SassTextRun.global(sm) + "[R2.64], R10",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x4], R11",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x8], R12",
                "STG.E.64 " + SassTextRun.global(sm) + "[R2.64+0x10], R14",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x18], R16",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x1c], R17",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x20], R18",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x24], R19",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x28], R20",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x2c], R21",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 12);
        assertEquals(0x3f80, out[0]); // 1 + 2^-10 to bf16, to nearest: 1.0
        assertEquals(0x3f81, out[1]); // .RP: up one unit
        assertEquals(0x3c08, out[2]); // 1 + 2^-7 is exact in f16
        assertEquals(0x00000000, out[4]); // f64 1.0078125: low word 0
        assertEquals(0x3ff02000, out[5]); // high word
        assertEquals(0x3f80, out[6]); // .RM to bf16: 1.0
        assertEquals(0x3f81, out[7]); // .RP: 1.0078125
        assertEquals(0x3f800000, out[8]); // tf32 to nearest
        assertEquals(0x3f800000, out[9]); // .RZ (positive, .RELU keeps it)
        assertEquals(0x78b8, out[10]); // e4m3: 256 (0x78) high, -1 (0xb8) low
        assertEquals(0x5c00, out[11]); // e5m2 .RELU: 256 (0x5c), -1 to 0
    }
}
