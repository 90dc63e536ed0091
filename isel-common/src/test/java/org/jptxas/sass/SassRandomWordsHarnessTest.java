package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.sass.oracle.FormWords;
import org.jptxas.sass.oracle.WordDifferential;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.tables.sass.SassSlotData;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Test;

/**
 * The random word differential catches a wrong field width: sm_80's unguarded {@code MOV R, imm} with its 32-bit
 * immediate agrees with nvdisasm on random words, and the same form with the immediate planted one bit wider (bit 64,
 * which the real form fixes) does not.
 */
class SassRandomWordsHarnessTest {
    private static SassFormData mov(String mask, String immediate) {
        return new SassFormData("MOV", 0x802, List.of("MOV ", ", ", ""), mask, "0000000000000f000000000000007802",
                List.of(SassSlotData.parse("GPR 23:16"), SassSlotData.parse(immediate)), List.of());
    }

    private static WordDifferential.Tally run(SassFormData form) {
        SassIsa isa = new SassIsa("sm_80", List.of(form));
        return WordDifferential.run(isa, "sm_80", FormWords.of("sm_80", isa.forms(), 32, 7L));
    }

    @Test
    void theTrueFieldWidthAgrees() {
        Oracles.assumeNvdisasm();
        WordDifferential.Tally t = run(mov("fc0001ffffffffff00000000ff00ffff", "HEX 63:32"));
        assertEquals(List.of(), t.misses());
        assertEquals(32, t.exact());
    }

    @Test
    void aPlantedWiderFieldFails() {
        Oracles.assumeNvdisasm();
        WordDifferential.Tally t = run(mov("fc0001fffffffffe00000000ff00ffff", "HEX 64:32"));
        long wrong = t.misses().size();
        System.out.println("planted 33-bit MOV immediate: " + t.misses().stream().limit(3).toList());
        assertTrue(wrong >= 8, "a planted 33-bit immediate went unnoticed: " + t);
        assertTrue(t.exact() < 32 - 8, "words with bit 64 set agreed: " + t);
    }
}
