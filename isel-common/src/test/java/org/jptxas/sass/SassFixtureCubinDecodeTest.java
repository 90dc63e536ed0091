package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;

/**
 * The committed ptxas cubin fixtures (isel-common test resources, ptxas 13 and 12.5, whole-program and {@code -c})
 * decode without any UNKNOWN instruction for the SMs the tables cover: they hold forms the corpus alone did not
 * teach (BAR.SYNC.DEFER_BLOCKING with an immediate id, predicated ATOMG, RET.ABS.NODEC of relocatable calls), now
 * learned from {@code tools/sass-probe/kernels/cubin_*.ptx} and {@code gap_forms.ptx}. No oracle needed.
 */
class SassFixtureCubinDecodeTest {
    @ParameterizedTest
    @ValueSource(strings = {"fixture_sm_75.cubin", "fixture_sm_75_c.cubin", "fixture_sm_80.cubin",
            "fixture_sm_80_c.cubin", "fixture_sm_90.cubin", "fixture_sm_90_c.cubin", "call_sm_90_c.cubin",
            "fixture125_sm_75_c.cubin", "fixture125_sm_86.cubin", "call125_sm_75_c.cubin"})
    void fixtureDecodesWithoutUnknown(String name) throws IOException {
        byte[] bytes;
        try (InputStream in = getClass().getResourceAsStream("/org/jptxas/cubin/" + name)) {
            assertTrue(in != null, "missing fixture " + name);
            bytes = in.readAllBytes();
        }
        Cubin cubin = Cubin.read(bytes);
        SassIsa isa = TestTargets.of("sm_" + cubin.sm()).isa();
        int decoded = 0;
        List<String> unknown = new ArrayList<>();
        for (Section s : cubin.textSections()) {
            byte[] code = s.data();
            for (int at = 0; at + 16 <= code.length; at += 16) {
                long lo = SassIsa.le64(code, at), hi = SassIsa.le64(code, at + 8);
                decoded++;
                if (isa.decode(lo, hi) instanceof SassInstruction.Unknown && !isAbsoluteCall(lo)) {
                    unknown.add(s.name() + "+0x" + Integer.toHexString(at) + " " + SassIsa.hex128(lo, hi));
                }
            }
        }
        assertTrue(decoded > 0, "no instructions in " + name);
        assertTrue(unknown.isEmpty(), name + ": " + unknown.size() + " UNKNOWN of " + decoded + ": " + unknown);
    }

    /**
     * CALL.ABS.NOINC (dispatch 0x943): its callee is named only by the cubin's relocation, the listed exception of
     * {@link SassClassCoverageTest#KNOWN_UNKNOWN}.
     */
    private static boolean isAbsoluteCall(long lo) {
        return (lo & 0xfff) == 0x943;
    }
}
