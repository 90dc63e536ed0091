package org.jptxas.frontend.ptx.check;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.frontend.ptx.print.PrinterRoundTripTest;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.frontend.ptx.TestFrontEnds;

/** The project's own PTX (all accepted by ptxas 13.0) passes the full check, instruction table included. */
class OwnFilesFullCheckTest {
    @ParameterizedTest
    @ValueSource(strings = {"syntax_tour_sm90a.ptx", "nvcc_reduce_sm90.ptx", "nvcc_mixed_cluster_sm90.ptx",
            "nvcc_reduce_debug_sm80.ptx", "nvcc_features_sm80.ptx", "nvcc_features_lineinfo_sm100a.ptx"})
    void passes(String name) throws IOException {
        try {
            PtxFrontEnd.CheckedModule m = TestFrontEnds.of(Target.of(PrinterRoundTripTest.archOf(name)))
                    .check(name, PrinterRoundTripTest.resource(name));
            assertTrue(m.warnings().isEmpty(), m.warnings()::toString);
        } catch (CompilationException e) {
            throw new AssertionError(e.diagnostics().toString());
        }
    }
}
