package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.Test;

/**
 * {@code .nv.info} attributes whose payload nvdisasm 12.5 lays out element by element in a shape of its own, in
 * jnvdisasm's listing of ptxas 13's cubin against nvdisasm's (the function's {@code .nv.info} section; its code holds
 * a form the SASS tables print otherwise): {@code EIATTR_MBARRIER_INSTR_OFFSETS}'s 16-byte elements (three words, a
 * half-word, a byte, a zero byte).
 */
class JnvdisasmNvInfoTest {
    private static final Path PTX = Path.of("cli/src/test/resources/org/jptxas/cli/nvinfo/mbarrier_offsets.ptx");

    @Test
    void mbarrierOffsetsPrintAsNvdisasmPrintsThem() {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Oracles.assumePtxas13();
        OracleCubins.Compiled c = OracleCubins.ptxas13(RepoRoot.find().orElseThrow().resolve(PTX), "sm_90");
        assertTrue(c.ok(), c.diagnostics());
        Path cubin = c.cubin().orElseThrow();
        String expected = Processes.run(List.of(nvdisasm.toString(), cubin.toString()), cubin.getParent()).stdout();
        StringWriter out = new StringWriter();
        JnvdisasmMain.run(new String[] {cubin.toString()}, new PrintWriter(out), new PrintWriter(new StringWriter()));
        assertTrue(expected.contains("EIATTR_MBARRIER_INSTR_OFFSETS") && expected.contains("//   ....[1]...."),
                "the case lists several mbarrier instructions");
        String section = ".nv.info.mb";
        assertTrue(ToolDropInTest.sections(expected).containsKey(section), "nvdisasm lists " + section);
        assertEquals(ToolDropInTest.sections(expected).get(section), ToolDropInTest.sections(out.toString()).get(section));
    }
}
