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
    })
    void assemblesAndDecodesBack(String sm, String text, String printed) {
        SassIsa isa = TestTargets.of(sm).isa();
        long[] w = new SassAssembler(isa).assemble(text, new Control(0, false, 0, 0, 0), 0, null);
        SassInstruction inst = isa.decode(w[0], w[1]);
        assertInstanceOf(SassInstruction.Known.class, inst, text);
        assertEquals(printed == null ? text : printed, SassPrinter.text(inst, 0, null));
    }
}
