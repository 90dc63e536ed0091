package org.jptxas.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.isel.select.InstructionSelector;
import org.jptxas.tables.latency.LatencyTableData;
import org.junit.jupiter.api.Test;

/**
 * Every target the repository's backends generate code for resolves its tables from its backend's own resources:
 * the encoding forms (family base and the backend's overlay), the modifier enums, the latency table (its chain to
 * the family table) and the matcher sets.
 */
class BackendTablesTest {
    @Test
    void everyCodeGenerationTargetLoadsItsTables() {
        List<String> codegen = TestTargets.names().stream().filter(n -> TestTargets.of(n).codeGeneration()).toList();
        assertEquals(List.of("sm_100", "sm_100a", "sm_100f", "sm_101", "sm_101a", "sm_101f", "sm_103", "sm_103a",
                "sm_103f", "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f",
                "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a"), codegen);
        for (String name : codegen) {
            TargetDescription d = TestTargets.of(name);
            assertTrue(d.isa().forms().size() > 1000, name);
            LatencyTableData latency = d.latencyTable();
            assertEquals(6, latency.scoreboards(), name);
            assertFalse(latency.opcodes().isEmpty(), name + " inherits the family's opcode rules");
            assertTrue(latency.targets().contains(name.replaceAll("[af]$", "")), name + " in " + latency.targets());
            assertEquals(name, InstructionSelector.of(d).target());
        }
        assertEquals("sm_86", TestTargets.of("sm_87").isa().sm(), "sm_87 and sm_88 use sm_86's encodings");
        assertEquals("sm_90", TestTargets.of("sm_90a").isa().sm());
    }

    @Test
    void packsClampToFiniteHalvesFromAmpereOn() {
        for (String name : List.of("sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a")) {
            assertTrue(TestTargets.profile(name).has(org.jptxas.ori.target.TargetFeature.F2FP_SATFINITE), name);
        }
        assertFalse(TestTargets.profile("sm_75").has(org.jptxas.ori.target.TargetFeature.F2FP_SATFINITE),
                "Turing computes a saturating-finite f16 cvt");
    }
}
