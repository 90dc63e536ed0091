package org.jptxas.cli.e2e;

import static org.jptxas.testing.kernels.KernelSuite.kernel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.kernels.Elem;
import org.jptxas.testing.kernels.KernelCase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code setmaxnreg} in a warp-specialized kernel with {@code .maxnreg 128} (sm_90a): jptxas writes ptxas 13's
 * sequences ({@code NOP; USETMAXREG.DEALLOC.CTAPOOL 0x28} and the {@code USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xc8}
 * retry loop), reports the {@code .maxnreg} as the register count, keeps the code after the DEALLOC below R40 (48
 * values live across it: spilled rather than kept above), and its
 * cubin and ptxas's compute the reference in the emulator (where a DEALLOC poisons the registers it gives back).
 */
class SetmaxnregEndToEndTest {
    private static final String ARCH = "sm_90a";

    /**
     * Inputs: warpgroup 0 sums 8 per thread and the 48 every thread loads before the branch, warpgroup 1 128 per
     * thread; small integers, so any order is exact.
     */
    private static KernelCase splitKernel(Path ptx) {
        float[] in = new float[128 * 8 + 128 * 128 + 256 * 48];
        for (int i = 0; i < in.length; i++) {
            in[i] = i * 37 % 11 - 5;
        }
        return kernel("setmaxnreg_split").describe("setmaxnreg dec 40 / inc 200 in two warpgroups (sm_90a)").ptx(ptx)
                .minSm(90).grid(1).block(256).in("in", in).out("out", Elem.F32, 256)
                .reference(io -> {
                    float[] out = io.f32("out");
                    for (int t = 0; t < 256; t++) {
                        float s = 0;
                        int from = t < 128 ? 8 * t : 1024 + 128 * (t - 128);
                        for (int k = 0; k < (t < 128 ? 8 : 128); k++) {
                            s += in[from + k];
                        }
                        for (int k = 0; t < 128 && k < 48; k++) {
                            s += in[17408 + 48 * t + k];
                        }
                        out[t] = s;
                    }
                });
    }

    @Test
    void lowersAsPtxasDoesAndBothCubinsComputeTheReference(@TempDir Path dir) throws Exception {
        Path ptx = EmulatedKernelRun.resource(getClass(), dir, "setmaxnreg_split.ptx");
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(registry, ptx, ARCH, false, false);
        String sass = ours.sass().replaceAll("/\\*[0-9a-f]+\\*/", "").replaceAll("[ \t]+", " ");
        assertTrue(sass.contains(" NOP ;\n USETMAXREG.DEALLOC.CTAPOOL 0x28 ;\n"), sass);
        assertTrue(Pattern.compile("\n(\\.L_x_\\d+):\n NOP ;\n USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xc8 ;\n"
                + " PLOP3.LUT P0, PT, PT, PT, UP0, 0x80, 0x0 ;\n @!P0 BRA `\\(\\1\\) ;\n").matcher(sass).find(), sass);
        assertEquals(128, ours.functions().get(0).facts().registers(), "the .maxnreg, as ptxas reports it");
        // after the DEALLOC to 40, up to the warpgroup's EXIT: registers below R40 only
        String producer = sass.substring(sass.indexOf("USETMAXREG.DEALLOC"));
        producer = producer.substring(0, producer.indexOf("EXIT"));
        Matcher m = Pattern.compile("\\bR(\\d+)").matcher(producer);
        while (m.find()) {
            assertTrue(Integer.parseInt(m.group(1)) < 40, "R" + m.group(1) + " after DEALLOC 40:\n" + producer);
        }
        KernelCase k = splitKernel(ptx);
        List<String> problems = new ArrayList<>();
        EmulatedKernelRun.run(ARCH, k, ours.cubin(), dir.resolve("jptxas"), 1_000_000, problems, "jptxas");
        OracleCubins.Compiled theirs = OracleCubins.ptxas13(ptx, ARCH);
        assertTrue(theirs.ok(), theirs.diagnostics());
        EmulatedKernelRun.run(ARCH, k, Files.readAllBytes(theirs.cubin().orElseThrow()), dir.resolve("ptxas"),
                1_000_000, problems, "ptxas");
        assertEquals(List.of(), problems);
    }

    @Test
    void withoutMaxnregSetmaxnregIsIgnoredAsPtxasDoes(@TempDir Path dir) throws Exception {
        Path ptx = EmulatedKernelRun.resource(getClass(), dir, "setmaxnreg_split.ptx");
        Path plain = dir.resolve("plain.ptx");
        Files.writeString(plain, Files.readString(ptx).replace(".maxnreg 128\n", ""));
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(registry, plain, ARCH, false, false);
        assertTrue(!ours.sass().contains("USETMAXREG"), ours.sass());
    }
}
