package org.jptxas.ori.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TargetTest {
    @Test
    void parsesPlainAndSuffixedNames() {
        Target t = Target.parse("sm_90a").orElseThrow();
        assertEquals(90, t.sm());
        assertTrue(t.archSpecific());
        assertEquals("sm_90a", t.name());
        assertTrue(Target.parse("sm_100f").orElseThrow().familyPortable());
        assertEquals(75, Target.of("sm_75").sm());
    }

    @Test
    void rejectsNonTargets() {
        for (String bad : List.of("sm_", "sm_9", "compute_90", "sm_90ab", "SM_90", "sm_1000", "sm90", "")) {
            assertTrue(Target.parse(bad).isEmpty(), bad);
        }
    }

    @Test
    void ordersBySmThenSuffix() {
        List<Target> sorted = List.of("sm_90a", "sm_100", "sm_90", "sm_75").stream().map(Target::of).sorted().toList();
        assertEquals(List.of("sm_75", "sm_90", "sm_90a", "sm_100"), sorted.stream().map(Target::name).toList());
    }
}
