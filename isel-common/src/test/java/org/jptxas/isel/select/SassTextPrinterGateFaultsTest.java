package org.jptxas.isel.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.cubin.Fixtures;
import org.jptxas.isel.gates.Planted;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Planted faults for {@link SassTextPrinterCorpusTest}'s gate, on the fixture cubins of sm_75 and sm_90. */
class SassTextPrinterGateFaultsTest {
    @TempDir
    Path dir;

    private final List<CorpusCubin> jobs = List.of(Planted.job("a.ptx", "sm_75", false), Planted.job("b.ptx", "sm_90", false));

    private OracleCubins.Compiled fixture(CorpusCubin job) {
        String name = "fixture_" + job.arch() + ".cubin";
        return Planted.compiled(dir, name, Fixtures.bytes(name));
    }

    private Gate run(List<CorpusCubin> jobs, java.util.function.Function<org.jptxas.sass.SassIsa,
            java.util.function.Function<SelectedInstr, String>> printer) {
        return SassTextPrinterCorpusTest.roundTrip("planted", jobs, this::fixture, Map.of(), printer,
                new SassTextPrinterCorpusTest.Uncompared());
    }

    @Test
    void theControlPasses() {
        Gate g = run(jobs, SassTextPrinterCorpusTest::printer);
        assertTrue(g.passes(100), g.summary());
    }

    @Test
    void anEmptyCorpusFailsTheMinimum() {
        assertFalse(run(List.of(), SassTextPrinterCorpusTest::printer).passes(1));
    }

    @Test
    void aWrongRegisterIsADifference() {
        Gate g = run(jobs, isa -> SassTextPrinterCorpusTest.printer(isa).andThen(t -> t.replaceFirst("\\bR1\\b", "R2")));
        assertFalse(g.differences().isEmpty());
        assertFalse(g.passes(1));
    }

    @Test
    void aThrowingPrinterIsACrash() {
        Gate g = run(jobs, isa -> i -> {
            throw new IllegalStateException("planted");
        });
        assertEquals(2, g.crashes().size());
        assertFalse(g.passes(1));
    }
}
