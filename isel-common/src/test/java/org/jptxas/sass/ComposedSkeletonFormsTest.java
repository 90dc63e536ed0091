package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jptxas.spi.CodegenSpec;
import org.jptxas.spi.TargetDescription;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The assembler's composed forms of one skeleton, made for that skeleton alone, are the forms of that skeleton among
 * all composed forms of the mnemonic's keys, in the same order: two fresh ISAs of the target, one that composes every
 * key first (as the decoder does) and one that composes only the skeleton asked for.
 */
class ComposedSkeletonFormsTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_90"})
    void skeletonAloneGivesTheWholeSetsForms(String sm) {
        SassIsa whole = fresh(sm);
        Set<String> skeletons = new LinkedHashSet<>();
        for (SassForm f : whole.composedForms()) {
            skeletons.add(f.skeleton);
        }
        assertTrue(skeletons.size() > 100, sm + ": " + skeletons.size() + " composed skeletons");
        SassIsa alone = fresh(sm);
        int compared = 0;
        // a spread of the skeletons (each costs a composition of its keys)
        int step = Math.max(1, skeletons.size() / 400);
        int k = 0;
        for (String skeleton : skeletons) {
            if (k++ % step != 0) {
                continue;
            }
            assertEquals(identities(whole.composedWithSkeleton(skeleton)),
                    identities(alone.composedWithSkeleton(skeleton)), sm + " " + skeleton);
            compared++;
        }
        assertTrue(compared > 100, sm + ": compared " + compared);
    }

    /**
     * Skeletons the assembler asks for that are mostly not composed ones: the learned forms' own, and the same with a
     * reuse flag, a negation or a sign changed on one operand, or an operand added or dropped (the printer's search
     * tries such spellings). Made alone, each gives the whole set's forms of that skeleton, most of them none.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_90"})
    void nearMissSkeletonsGiveTheWholeSetsForms(String sm) {
        SassIsa whole = fresh(sm);
        whole.composedForms();
        Set<String> learned = new LinkedHashSet<>();
        for (SassForm f : whole.forms()) {
            learned.add(f.skeleton);
        }
        Set<String> skeletons = new LinkedHashSet<>();
        int step = Math.max(1, learned.size() / 150);
        int k = 0;
        for (String skeleton : learned) {
            if (k++ % step != 0) {
                continue;
            }
            skeletons.add(skeleton);
            skeletons.add(skeleton.replaceFirst("\\{}, \\{}$", "{}"));
            skeletons.add(skeleton + ", {}");
            int last = skeleton.lastIndexOf("{}");
            if (last > 0) {
                skeletons.add(skeleton.substring(0, last) + "{}.reuse" + skeleton.substring(last + 2));
                skeletons.add(skeleton.substring(0, last) + "-{}" + skeleton.substring(last + 2));
                skeletons.add(skeleton.substring(0, last) + "!{}" + skeleton.substring(last + 2));
                skeletons.add(skeleton.substring(0, last) + "|{}|" + skeleton.substring(last + 2));
            }
        }
        SassIsa alone = fresh(sm);
        int composed = 0;
        for (String skeleton : skeletons) {
            List<String> expected = identities(whole.composedWithSkeleton(skeleton));
            assertEquals(expected, identities(alone.composedWithSkeleton(skeleton)), sm + " " + skeleton);
            composed += expected.isEmpty() ? 0 : 1;
        }
        assertTrue(skeletons.size() > 500 && composed > 20,
                sm + ": " + skeletons.size() + " skeletons, " + composed + " with composed forms");
    }

    /** A per-SM ISA of its own, composed from nothing asked before (not the shared instance). */
    static SassIsa fresh(String sm) {
        TargetDescription d = TestTargets.of(sm);
        CodegenSpec c = d.codegen();
        return SassIsa.load(d.tables(), c.sass().base(), c.sass().overlay(), c.modifiers().base(),
                c.modifiers().overlay());
    }

    private static List<String> identities(List<SassForm> forms) {
        List<String> out = new ArrayList<>(forms.size());
        for (SassForm f : forms) {
            out.add(f.key + " " + f.mnemonic + " " + f.skeleton + " " + f.slots().toString() + " " + f.maskLo + " "
                    + f.maskHi + " " + f.bitsLo + " " + f.bitsHi + " " + f.exclusions());
        }
        return out;
    }
}
