package org.jptxas.scheduler.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/** jptxas's decoder gives the scheduler the same view of a cubin as nvdisasm's text does. */
class DecodedListingTest {
    @Test
    void decoderAndNvdisasmGiveTheSameAgreement() throws Exception {
        Oracles.assumePtxas13();
        Oracles.assumeNvdisasm();
        Path corpus = Corpus.assumeDir();
        for (String sm : List.of("sm_80", "sm_90")) {
            OracleCubins.Compiled c = OracleCubins.ptxas13(corpus.resolve("ptx/cudarc/custom_kernels.ptx"), sm);
            assertTrue(c.ok());
            Path cubin = c.cubin().orElseThrow();
            Map<String, List<SassLine>> decoded = DecodedListing.fromCubin(Files.readAllBytes(cubin), TestTargets.of(sm).isa());
            Map<String, List<SassLine>> text = OracleListings.of(cubin);
            assertEquals(text.keySet(), decoded.keySet());
            for (String f : text.keySet()) {
                List<SassLine> a = text.get(f);
                List<SassLine> b = decoded.get(f);
                assertEquals(a.size(), b.size(), f);
                for (int i = 0; i < a.size(); i++) {
                    assertEquals(a.get(i).lo(), b.get(i).lo());
                    assertEquals(a.get(i).hi(), b.get(i).hi());
                    if (i > 0) { // nvdisasm names a jump to the entry by the function's own label
                        assertEquals(a.get(i).branchTarget(), b.get(i).branchTarget(), f + " @" + i);
                    }
                }
            }
            LatencyModel model = LatencyModel.of(TestTargets.of(sm));
            boolean n = ControlAgreement.urInAddressBits(TestTargets.of(sm));
            ControlAgreement.Tally viaText = ControlAgreement.compareAll(text, model, n);
            ControlAgreement.Tally viaDecoder = ControlAgreement.compareAll(decoded, model, n);
            System.out.println("decoder: " + viaDecoder.report(sm));
            assertEquals(viaText.instructions(), viaDecoder.instructions());
            assertEquals(viaText.report(sm), viaDecoder.report(sm), "same bits and text, same agreement");
            String report = ControlAgreement.recomputeControlReport(Files.readAllBytes(cubin), TestTargets.of(sm));
            assertTrue(report.startsWith(sm + ": stall agreement: " + viaDecoder.stall() + "/" + viaDecoder.instructions()), report);
            assertEquals(viaDecoder.hazards(), ControlAgreement.checkHazards(Files.readAllBytes(cubin), TestTargets.of(sm)).size());
        }
    }
}
