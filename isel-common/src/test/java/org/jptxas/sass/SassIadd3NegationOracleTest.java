package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.sass.oracle.OracleListings;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * IADD3 with every combination of negated sources (a at bit 72, b at 63, c at 75), register sources, guarded and not,
 * with and without carry-outs, read by nvdisasm 12.5 in raw mode: jptxas's decoder prints exactly nvdisasm's text
 * and the text assembles back to the word on every SM (sm_86 ... sm_90 once learned the three bits as one enum and
 * could not encode {@code IADD3 R, -R, -R, -R}, and then composed '-' onto the carry-out P0). With carry-outs, some
 * negation combinations are still UNKNOWN (counted, never a wrong text).
 */
class SassIadd3NegationOracleTest {
    static List<long[]> words() {
        List<long[]> out = new ArrayList<>();
        for (long guard : new long[] {7, 3}) {
            for (boolean carries : new boolean[] {false, true}) {
                for (int neg = 0; neg < 8; neg++) {
                    long lo = 0x7210L | guard << 12 | 21L << 16 | 2L << 24 | 3L << 32 | (neg & 2L) << 62;
                    // ptxas's IADD3 R27, R0, R21, -R18 (0x07ffe812) with c = R4; carry-outs PT, PT or P0, P1
                    long hi = 0x000fe20007ffe004L | (neg & 1L) << 8 | (neg & 4L) << 9;
                    if (carries) {
                        hi = hi & ~(0x3fL << 17) | 1L << 20;
                    }
                    out.add(new long[] {lo, hi});
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void everyNegationDecodesAsNvdisasmAndAssemblesBack(String sm) {
        Oracles.assumeNvdisasm();
        SassIsa isa = TestTargets.of(sm).isa();
        SassAssembler asm = new SassAssembler(isa);
        List<long[]> words = words();
        List<String> texts = OracleListings.rawTexts(words, sm);
        List<String> wrong = new ArrayList<>();
        int unknown = 0;
        for (int i = 0; i < words.size(); i++) {
            long[] w = words.get(i);
            String theirs = texts.get(i);
            SassInstruction in = isa.decode(w[0], w[1]);
            String ours = SassPrinter.text(in, 0, x -> null);
            boolean carries = (w[1] >>> 17 & 0x3f) != 0x3f;
            if (carries && in instanceof SassInstruction.Unknown) {
                unknown++; // a gap, not a wrong text: the tables compose no negation onto the carry-out forms yet
                continue;
            }
            if (!ours.equals(theirs)) {
                wrong.add(String.format("%016x %016x: nvdisasm '%s', jptxas '%s'", w[0], w[1], theirs, ours));
                continue;
            }
            try {
                long[] back = asm.assemble(theirs, Control.fromHi(w[1]), 0, x -> 0);
                if (back[0] != w[0] || back[1] != w[1]) {
                    wrong.add(String.format("'%s' assembles to %016x %016x, not %016x %016x", theirs, back[0], back[1],
                            w[0], w[1]));
                }
            } catch (SassAssembler.AssemblyException e) {
                wrong.add("'" + theirs + "' does not assemble: " + e.getMessage());
            }
        }
        System.out.printf("%s: IADD3 negations, %d of %d words UNKNOWN (carry-out forms)%n", sm, unknown, words.size());
        assertEquals(List.of(), wrong.subList(0, Math.min(8, wrong.size())), sm + ": " + wrong.size() + " of "
                + words.size() + " wrong");
    }
}
