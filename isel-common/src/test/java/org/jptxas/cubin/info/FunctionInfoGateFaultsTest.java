package org.jptxas.cubin.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.cubin.Fixtures;
import org.jptxas.isel.gates.Planted;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Planted faults for {@link FunctionInfoCorpusTest}'s gates, on the fixture cubins. */
class FunctionInfoGateFaultsTest {
    @TempDir
    Path dir;

    private final List<CorpusCubin> jobs = List.of(Planted.job("a.ptx", "sm_75", false), Planted.job("b.ptx", "sm_90", true));

    private OracleCubins.Compiled fixture(CorpusCubin job) {
        String name = job.relocatable() ? "fixture_sm_90_c.cubin" : "fixture_sm_75.cubin";
        return Planted.compiled(dir, name, Fixtures.bytes(name));
    }

    @Test
    void theControlsPass() {
        Gate global = FunctionInfoCorpusTest.globalInfo(jobs, this::fixture, Map.of());
        assertTrue(global.passes(2), global.summary());
        Gate functions = FunctionInfoCorpusTest.functionInfo(jobs, this::fixture, FunctionInfoCorpusTest::regenerate);
        assertTrue(functions.passes(2), functions.summary());
    }

    @Test
    void anEmptyCorpusFailsTheMinimum() {
        assertFalse(FunctionInfoCorpusTest.globalInfo(List.of(), this::fixture, Map.of()).passes(1));
        assertFalse(FunctionInfoCorpusTest.functionInfo(List.of(), this::fixture, FunctionInfoCorpusTest::regenerate)
                .passes(1));
    }

    @Test
    void aDroppedRecordIsADifference() {
        Gate g = FunctionInfoCorpusTest.functionInfo(jobs, this::fixture, (c, f, base, c0) -> {
            List<Attribute> r = new ArrayList<>(FunctionInfoCorpusTest.regenerate(c, f, base, c0));
            r.remove(r.size() - 1);
            return r;
        });
        assertFalse(g.differences().isEmpty());
        assertFalse(g.passes(1));
    }

    @Test
    void aThrowingEncoderIsACrash() {
        Gate g = FunctionInfoCorpusTest.functionInfo(jobs, this::fixture, (c, f, base, c0) -> {
            throw new IllegalStateException("planted");
        });
        assertEquals(2, g.crashes().size());
        assertFalse(g.passes(1));
    }

    @Test
    void aStaleKnownExceptionFails() {
        Gate g = FunctionInfoCorpusTest.globalInfo(jobs, this::fixture, Map.of("a.ptx sm_75", "planted"));
        assertEquals(1, g.stale().size());
        assertFalse(g.passes(1));
    }

    @Test
    void aFailingPtxasIsAnOracleFailure() {
        Gate g = FunctionInfoCorpusTest.globalInfo(jobs, j -> Planted.failed("ptxas fatal   : out of memory"), Map.of());
        assertEquals(2, g.oracleFailures().size());
        assertFalse(g.passes(1));
    }
}
