package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/** {@link IntFolder}: IABS of constants (the divisor of an unrolled rem.s32 or div.s32 becomes one). */
class IntFolderTest {
    private static Long iabs(List<String> mods, Src a) {
        return IntFolder.fold(TestInstrs.ins("IABS", mods, List.of(Reg.RZ), a), OpInfo::const32, OpInfo::constPred);
    }

    @Test
    void absoluteValuesOfConstantsWrapAtIntMinAsTheHardwares() {
        int[] in = {0, 1, -1, 16, -16, Integer.MAX_VALUE, Integer.MIN_VALUE + 1, Integer.MIN_VALUE};
        long[] out = {0, 1, 1, 16, 16, 0x7fffffffL, 0x7fffffffL, 0x80000000L};
        for (int i = 0; i < in.length; i++) {
            assertEquals(out[i], iabs(List.of(), Src.of(Imm.ofInt(in[i]))), "|" + in[i] + "|");
        }
    }

    @Test
    void unknownInputsAndOtherFormsAreNotFolded() {
        assertNull(iabs(List.of(), Src.of(Reg.PT)));
        assertNull(iabs(List.of("U16"), Src.of(Imm.ofInt(-3))));
    }
}
