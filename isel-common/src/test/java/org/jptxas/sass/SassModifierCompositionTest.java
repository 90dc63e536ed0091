package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.jptxas.spi.TestTargets;

/**
 * Modifier combinations code generation needs that ptxas never emitted in the probe's samples (found compiling the
 * corpus; float immediates in nvdisasm's decimal spelling): each assembles through a composed form and decodes back to
 * the same text. nvdisasm's confirmation of
 * every composed form is {@link SassModifierOracleTest}.
 */
class SassModifierCompositionTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "sm_80|FSETP.LTU.AND P0, PT, R8, 105615, PT|",
        "sm_80|FSETP.LEU.AND P0, PT, R3, -1, PT|",
        "sm_80|ISETP.LT.U32.AND.EX P0, PT, R5, R11, PT, P0|",
        "sm_75|FSETP.LTU.AND P0, PT, R8, 105615, PT|",
        "sm_86|FSETP.LEU.AND P0, PT, R8, 105615, PT|",
        "sm_89|FSETP.LTU.AND P0, PT, R8, 105615, PT|",
        "sm_90|FSETP.LTU.AND P0, PT, R6, 105615, PT|",
        "sm_90|ISETP.LE.U32.AND P0, PT, R5, R6, PT|",
        // spellings nvdisasm 12.5 prints (composed-known-failures.txt listed them otherwise)
        "sm_80|UIMAD.WIDE.X UR2, UR4, 0x6, ~UR8, UP2|",
        "sm_90|UIMAD.WIDE.U32.X UR2, UR4, 0x6, ~UR8, UP2|",
        "sm_80|IMAD.HI R2, P4, R6, UR8, -R10|",
        "sm_89|IMAD.HI.U32 R2, P4, R6, UR8, -R10|",
        "sm_80|ATOMS.CAST.SPIN.64 R2, [R4.X16+0x6], R8, R10|",
        "sm_75|ATOMS.CAST R2, [R4.X16+0x6], R8, R10|",
        "sm_80|I2F.F16.S64 R2, c[0x0][0x4]|",
        "sm_75|I2F.F64.U64.RZ R2, c[0x0][0x4]|",
    })
    void assemblesAndDecodesBack(String sm, String text, String printed) {
        SassIsa isa = TestTargets.of(sm).isa();
        long[] w = new SassAssembler(isa).assemble(text, new Control(0, false, 0, 0, 0), 0, null);
        SassInstruction inst = isa.decode(w[0], w[1]);
        assertInstanceOf(SassInstruction.Known.class, inst, text);
        assertEquals(printed == null ? text : printed, SassPrinter.text(inst, 0, null));
    }

    /** Operand suffixes print after an absolute value's closing bar, as nvdisasm prints them. */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "sm_75;HADD2.F32 R2, |R4|.F32, -R6.H0_H0",
        "sm_75;@P2 HADD2.FTZ R4, |R6|.F32, -R8.H0_H0",
    })
    void suffixFollowsAbsoluteValue(String sm, String text) {
        assemblesAndDecodesBack(sm, text, null);
    }
}
