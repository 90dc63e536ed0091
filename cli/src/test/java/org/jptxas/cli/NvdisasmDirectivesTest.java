package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The directive lines of {@code jnvdisasm} on cubins, against nvdisasm 12.5. */
class NvdisasmDirectivesTest {
    /** Header flags as nvdisasm 12.5 printed them for these e_flags words (ptxas 12.5 and 13.0 cubins). */
    @Test
    void headerFlagsUseNvdisasmNames() {
        assertEquals("\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM86 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM75)\"",
                NvdisasmDirectives.headerFlags(0x4b0556));
        assertEquals("\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM75 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM75)\"",
                NvdisasmDirectives.headerFlags(0x4b054b));
        assertEquals("\t.headerflags\t@\"EF_CUDA_SW_1729687_v2 unrecognized:4 unrecognized:6000000\"",
                NvdisasmDirectives.headerFlags(0x06005004));
        assertEquals("\t.headerflags\t@\"EF_CUDA_TEXMODE_INDEPENDENT EF_CUDA_SW_1729687 EF_CUDA_SW_1729687_v2 unrecognized:4"
                + " unrecognized:6000000\"", NvdisasmDirectives.headerFlags(0x06005a04));
        assertEquals("\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_TEXMODE_INDEPENDENT EF_CUDA_SW_1729687 unrecognized:4"
                + " unrecognized:6000000\"", NvdisasmDirectives.headerFlags(0x06004b04));
        assertEquals("//--------------------- .text.empty               --------------------------",
                NvdisasmDirectives.banner(".text.empty"));
    }

    /**
     * Every line that is not an instruction or encoding line (header, banners, section and symbol directives, labels,
     * the SYMBOLS block) equals nvdisasm's, on fixtures whose instructions all decode or whose undecoded ones are
     * not branches (an undecoded branch would shift the label numbers).
     */
    @ParameterizedTest
    @ValueSource(strings = {"fixture125_sm_86.cubin", "fixture_sm_80.cubin", "fixture_sm_90.cubin", "fixture_sm_75.cubin"})
    void directiveLinesMatchNvdisasm(String name) {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cubin = JnvdisasmControlTest.cubinFixture(name);
        for (List<String> opts : List.of(List.of("-c"), List.of("-c", "-hex"))) {
            List<String> cmd = new java.util.ArrayList<>(List.of(nvdisasm.toString()));
            cmd.addAll(opts);
            cmd.add(cubin.toString());
            Processes.Result want = Processes.run(cmd, Path.of("."));
            assertEquals(0, want.exitCode(), want.stderr());
            List<String> args = new java.util.ArrayList<>(opts);
            args.add(cubin.toString());
            JnvdisasmMainTest.Run got = JnvdisasmMainTest.run(args.toArray(String[]::new));
            List<String> expected = directives(want.stdout());
            assertEquals(expected, directives(got.out()), name + " " + opts);
            assertEquals(true, expected.size() > 20, "compared " + expected.size() + " lines");
        }
    }

    private static List<String> directives(String listing) {
        return listing.lines().filter(l -> !l.contains("/*")).toList();
    }
}
