package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jptxas.sass.probe.ModifierLearner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A target's ISA composes modifier forms as they are first asked for (by skeleton for the assembler, by key for the
 * decoder) and is shared by every compilation of a JVM: what it composes, and how it reads a word, must not depend on
 * what was asked before. Two ISAs of one target, one asked for its whole composed set first and one after assembling,
 * composing by skeleton and decoding the LDGSTS words whose spelling once varied, must agree form for form.
 */
class ComposedFormOrderTest {
    private static final String MNEMONIC = "LDGSTS";

    @ParameterizedTest
    @ValueSource(strings = {"sm_86", "sm_89"})
    void composedFormsDoNotDependOnTheOrderOfRequests(String sm) {
        SassIsa wholeFirst = ComposedSkeletonFormsTest.fresh(sm);
        List<SassForm> whole = wholeFirst.composedForms();

        SassIsa requestsFirst = ComposedSkeletonFormsTest.fresh(sm);
        TreeSet<String> skeletons = new TreeSet<>();
        for (SassForm f : whole) {
            if (ModifierComposer.base(f.mnemonic).equals(MNEMONIC)) {
                skeletons.add(f.skeleton);
            }
        }
        assertFalse(skeletons.isEmpty(), sm + ": no composed " + MNEMONIC + " form");
        for (String s : skeletons.descendingSet()) { // the trailing-predicate spellings first
            requestsFirst.composedWithSkeleton(s);
        }
        SassAssembler asm = new SassAssembler(requestsFirst);
        for (String text : List.of("LDGSTS.E.BYPASS.128 [R1], [R2.64], P1", "LDGSTS.E.BYPASS.128 [R1], [R2.64]",
                "@P0 LDGSTS.E.BYPASS.128 [R1+0x10], [R2.64+0x20]")) {
            try {
                asm.assemble(text, 0, null);
            } catch (SassAssembler.AssemblyException e) {
                // only the requests matter here, not whether the text assembles
            }
        }
        for (SassForm f : requestsFirst.forms()) {
            if (ModifierComposer.base(f.mnemonic).equals(MNEMONIC)) {
                long[] x = ModifierLearner.example(f, 0);
                for (long pair = 0; pair < 64; pair++) { // the descriptor pair [69:64]
                    requestsFirst.decode(x[0], (x[1] & ~0x3fL) | pair);
                }
            }
        }
        List<SassForm> afterRequests = requestsFirst.composedForms();

        assertEquals(identities(whole), identities(afterRequests), sm + ": the composed forms depend on the requests");
        List<String> readFirst = new ArrayList<>();
        List<String> readAfter = new ArrayList<>();
        for (SassForm f : whole) {
            if (ModifierComposer.base(f.mnemonic).equals(MNEMONIC)) {
                long[] x = ModifierLearner.example(f, 0);
                readFirst.add(reading(wholeFirst.decode(x[0], x[1])));
                readAfter.add(reading(requestsFirst.decode(x[0], x[1])));
            }
        }
        assertEquals(readFirst, readAfter, sm + ": the composed forms' example words read otherwise");
    }

    private static List<String> identities(List<SassForm> forms) {
        return forms.stream().map(ComposedFormOrderTest::identity).toList();
    }

    private static String identity(SassForm f) {
        return f + " " + SassIsa.hex128(f.maskLo, f.maskHi) + " " + SassIsa.hex128(f.bitsLo, f.bitsHi) + " " + f.slots();
    }

    private static String reading(SassInstruction i) {
        return i instanceof SassInstruction.Known k ? identity(k.form()) : "unknown";
    }
}
