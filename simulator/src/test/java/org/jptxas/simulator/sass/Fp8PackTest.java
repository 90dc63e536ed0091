package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.numeric.SmallFloats;
import org.junit.jupiter.api.Test;

/**
 * {@code F2FP.SATFINITE.{E4M3|E5M2}.F32.PACK_AB_MERGE_C} (sm_90's cvt.rn.satfinite.e4m3x2.f32 and e5m2x2): two f32 to
 * fp8, a in the high byte, saturating to the largest finite value; the word's high half comes from C.
 */
class Fp8PackTest {
    @Test
    void fp8RoundsAndSaturates() {
        assertEquals(0x38, SmallFloats.toFp8Satfinite(1.0, true));
        assertEquals(0x7e, SmallFloats.toFp8Satfinite(448.0, true));
        assertEquals(0x7e, SmallFloats.toFp8Satfinite(1000.0, true)); // beyond 448: the largest finite
        assertEquals(0xfe, SmallFloats.toFp8Satfinite(Double.NEGATIVE_INFINITY, true));
        assertEquals(0x7f, SmallFloats.toFp8Satfinite(Double.NaN, true));
        assertEquals(0x01, SmallFloats.toFp8Satfinite(Math.scalb(1.0, -9), true)); // the smallest subnormal
        assertEquals(0x3c, SmallFloats.toFp8Satfinite(1.0, false));
        assertEquals(0x64, SmallFloats.toFp8Satfinite(1000.0, false)); // 1.953 * 2^9 rounds to 2^10
        assertEquals(0x7b, SmallFloats.toFp8Satfinite(1e6, false));
    }

    @Test
    void emulatorPacksTwoF32() throws Exception {
        String sm = "sm_90";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                SassTextRun.pointer(sm, 0, 0),
                "MOV R4, 0x3f800000", // 1.0
                "MOV R5, 0x447a0000", // 1000.0
                "MOV R6, 0xabcd1234",
                "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R7, R4, R5, RZ",
                "F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R8, R4, R5, RZ",
                "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R9, R4, R5, R6",
                "STG.E " + SassTextRun.global(sm) + "[R2.64], R7",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x4], R8",
                "STG.E " + SassTextRun.global(sm) + "[R2.64+0x8], R9",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 3);
        assertEquals(0x387e, out[0]);
        assertEquals(0x3c64, out[1]);
        assertEquals(0xabcd387e, out[2]);
    }
}
