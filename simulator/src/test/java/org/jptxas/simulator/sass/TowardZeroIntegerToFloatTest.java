package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * cvt.rz.f32.{u32,s32}: ptxas 13 writes I2FP.F32.U32.RZ (sm_86 and later) and I2F.U32.RZ (sm_75, sm_80), with a
 * register or an immediate source. A value of more than 24 significant bits rounds toward zero, not to nearest.
 */
class TowardZeroIntegerToFloatTest {
    @ParameterizedTest
    @ValueSource(strings = {"I2FP.F32.U32", "I2F.U32"})
    void towardZeroTruncatesTheBitsAFloatCannotHold(String op) throws Exception {
        String sm = op.startsWith("I2FP") ? "sm_86" : "sm_80";
        String signed = op.startsWith("I2FP") ? "I2FP.F32.S32" : "I2F";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = List.of(
                String.format("MOV R2, c[0x0][0x%x]", params),
                String.format("MOV R3, c[0x0][0x%x]", params + 4),
                "MOV R4, 0x1ffffff", // 25 bits: to nearest 0x2000000, toward zero 0x1fffffe
                op + ".RZ R8, R4",
                op + " R9, R4",
                op + ".RZ R10, 0xffffffff", // toward zero 0xffffff00, to nearest 2^32
                signed + ".RZ R11, -0x1ffffff", // toward zero -0x1fffffe
                op + ".RZ R12, 0x7fff",
                "STG.E [R2.64], R8",
                "STG.E [R2.64+0x4], R9",
                "STG.E [R2.64+0x8], R10",
                "STG.E [R2.64+0xc], R11",
                "STG.E [R2.64+0x10], R12",
                "EXIT");
        int[] out = SassTextRun.run(sm, text, 5);
        assertEquals(Float.floatToRawIntBits(0x1fffffe), out[0]);
        assertEquals(Float.floatToRawIntBits(0x2000000), out[1]);
        assertEquals(Float.floatToRawIntBits(0xffffff00L), out[2]);
        assertEquals(Float.floatToRawIntBits(-0x1fffffe), out[3]);
        assertEquals(Float.floatToRawIntBits(0x7fff), out[4]);
    }
}
