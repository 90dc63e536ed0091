package org.jptxas.frontend.ptx.corpus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;

/** A quick mutation run over the project's own PTX files (the corpus-wide run is {@link CorpusFrontEndTest}). */
class OwnFilesMutationTest {
    static final List<String> OWN = List.of("syntax_tour_sm90a.ptx", "nvcc_reduce_sm90.ptx",
            "nvcc_mixed_cluster_sm90.ptx");

    @Test
    void mutatedOwnFilesNeverCrashOrHang() throws IOException, InterruptedException {
        List<String> texts = new ArrayList<>();
        for (String name : OWN) {
            try (InputStream in = getClass().getResourceAsStream("/org/jptxas/frontend/ptx/own/" + name)) {
                texts.add(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
            }
        }
        MutationHarness.Outcome o = MutationHarness.run(texts, OWN, Target.of("sm_90a"), 20261123L, 600, 30_000);
        assertTrue(o.problems().isEmpty(), () -> String.join("\n", o.problems()));
        assertTrue(o.rejected() > o.cases() / 4, "mutations must mostly be caught: " + o);
    }
}
