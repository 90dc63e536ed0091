package org.jptxas.ori.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
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

    @Test
    void catalogHoldsPtxasTargetsAndDefault() {
        TargetCatalog c = TargetCatalog.get();
        assertEquals("sm_75", c.defaultTarget().name());
        // Every real target ptxas 13.0 lists for --gpu-name.
        String ptxas13 = "sm_100 sm_100a sm_100f sm_103 sm_103a sm_103f sm_110 sm_110a sm_110f sm_120 sm_120a sm_120f "
                + "sm_121 sm_121a sm_121f sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_90a";
        for (String name : ptxas13.split(" ")) {
            assertTrue(c.info(name).orElseThrow(() -> new AssertionError(name)).ptxas13(), name);
        }
        assertEquals(ptxas13.split(" ").length, c.all().stream().filter(TargetInfo::ptxas13).count());
        assertFalse(c.info("sm_70").orElseThrow().ptxas13());
        assertTrue(c.info("sm_50").orElseThrow().ptxas125());
    }

    @Test
    void familiesMatchBackendModules() {
        TargetCatalog c = TargetCatalog.get();
        String byFamily = c.all().stream().collect(Collectors.groupingBy(TargetInfo::family, java.util.TreeMap::new,
                Collectors.mapping(TargetInfo::name, Collectors.joining(",")))).toString();
        assertEquals("{sm100=sm_100,sm_100a,sm_100f,sm_101,sm_101a,sm_101f,sm_103,sm_103a,sm_103f,sm_110,sm_110a,"
                + "sm_110f,sm_120,sm_120a,sm_120f,sm_121,sm_121a,sm_121f, sm50=sm_50,sm_52,sm_53,sm_60,sm_61,sm_62,"
                + "sm_70,sm_72, sm75=sm_75, sm80=sm_80,sm_86,sm_87,sm_88, sm89-90=sm_89,sm_90,sm_90a}", byFamily);
    }
}
