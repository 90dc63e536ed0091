package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Test;

/**
 * The cubins of kernels that read bound textures, which {@link BuilderCompletenessTest} leaves out (they carry
 * relocations of constant bank 0): ptxas 13's cubin of every corpus file with textures, sm_75 … sm_90, rebuilt by
 * {@link CubinBuilder} from ptxas's code and facts plus the texture facts (the {@code .texref} symbols and each
 * kernel's header slots, from the R_CUDA_TEX_HEADER_INDEX relocations), must equal ptxas's in every aspect
 * {@link BuilderCompletenessTest#differences} compares: the sections and their order, the symbols (STT_CUDA_TEXTURE,
 * global, undefined, after the other globals), .nv.info.&lt;f&gt; (BINDLESS_TEXTURE_BANK, and BINDLESS_SURFACE_BANK
 * on sm_90), the constant banks (slots after the parameters), and the relocations.
 */
class TextureCubinRebuildTest {
    static final List<String> ARCHS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    /** Texture cubins without other content {@link BuilderCompletenessTest#covered} leaves out. */
    static final int COMPARED = 29;

    @Test
    void textureCubinsRebuildAsPtxasWritesThem() throws Exception {
        Oracles.assumePtxas13();
        Map<String, List<String>> wrong = new LinkedHashMap<>();
        int compared = 0;
        int uncovered = 0;
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            if (!e.ptxasAccepts() || !e.get("features").contains("texture/surface")) {
                continue;
            }
            for (String arch : ARCHS) {
                OracleCubins.Compiled c = OracleCubins.ptxas13(e.file(), arch);
                if (!c.ok()) {
                    continue;
                }
                Cubin ptxas = Cubin.read(java.nio.file.Files.readAllBytes(c.cubin().orElseThrow()));
                if (!BuilderCompletenessTest.covered(ptxas, true)) {
                    uncovered++;
                    continue;
                }
                List<String> d = BuilderCompletenessTest.differences(ptxas, BuilderCompletenessTest.rebuild(ptxas));
                compared++;
                if (!d.isEmpty()) {
                    wrong.put(e.file() + " " + arch, d);
                }
            }
        }
        System.out.printf("texture cubins rebuilt: %d compared, %d differ, %d with other content the builder does not"
                + " take from facts%n", compared, wrong.size(), uncovered);
        assertEquals(50, compared + uncovered, "texture cubins (10 corpus files x 5 targets)");
        assertEquals(COMPARED, compared, "texture cubins compared");
        assertEquals(Map.of(), wrong);
    }
}
