package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.sass.oracle.NvdisasmListing;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;

/**
 * The codec against a committed oracle fixture (no oracle needed): per SM, 400 ptxas-13 instruction words (one per
 * dispatch key, then one per table form) and nvdisasm 12.5's raw-mode listing of them ({@code SassProbe fixture}).
 * Every word decodes to nvdisasm's text, and that text assembles back to the same bits, except where nvdisasm does
 * not print some bits (then our word must at least print the same text).
 */
class SassFixtureTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void decodesAndReassemblesTheFixture(String sm) throws IOException {
        String name = sm.replace("_", "");
        byte[] code = resource(name + ".bin");
        NvdisasmListing listing = NvdisasmListing.parse(new String(resource(name + ".nvdisasm.txt"), StandardCharsets.UTF_8));
        SassIsa isa = TestTargets.of(sm).isa();
        SassAssembler asm = new SassAssembler(isa);
        List<String> failures = new ArrayList<>();
        int n = 0, hidden = 0;
        for (NvdisasmListing.Section s : listing.sections()) {
            for (NvdisasmListing.Line line : s.lines()) {
                n++;
                long lo = SassIsa.le64(code, (int) line.address()), hi = SassIsa.le64(code, (int) line.address() + 8);
                assertEquals(line.lo(), lo);
                assertEquals(line.hi(), hi);
                SassInstruction inst = isa.decode(lo, hi);
                String text = SassPrinter.text(inst, line.address(), null);
                if (!text.equals(line.text())) {
                    failures.add("decode " + SassIsa.hex128(lo, hi) + ": want '" + line.text() + "' got '" + text + "'");
                    continue;
                }
                try {
                    long[] w = asm.assemble(line.text(), inst.control(), line.address(), null);
                    if (w[0] != lo || w[1] != hi) {
                        if (SassPrinter.text(isa.decode(w[0], w[1]), line.address(), null).equals(line.text())) {
                            hidden++;
                        } else {
                            failures.add("assemble '" + line.text() + "' gave " + SassIsa.hex128(w[0], w[1]));
                        }
                    }
                } catch (SassAssembler.AssemblyException e) {
                    failures.add("assemble '" + line.text() + "': " + e.getMessage());
                }
            }
        }
        assertEquals(400, n, "fixture size");
        assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
        assertTrue(hidden < 40, "too many words with bits the text does not show: " + hidden);
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = SassFixtureTest.class.getResourceAsStream("fixture/" + name)) {
            assertTrue(in != null, "missing fixture " + name);
            return in.readAllBytes();
        }
    }
}
