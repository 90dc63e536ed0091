package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code surface_shapes} ({@link KernelSuite#standalone()}: suld/sust of every geometry, access width and
 * out-of-bounds mode, 64-bit sured) three ways: the PTX interpreter, jptxas's cubin and ptxas 13's in the SASS
 * emulator, each against the CPU reference; jptxas's cubin is read by nvdisasm as jptxas prints it and has no hazard
 * in its control bits, and it holds ptxas's instructions for each shape.
 */
class SurfaceShapesEndToEndTest {
    private static KernelCase kernel() {
        return TextureGatherQueryEndToEndTest.kernel("surface_shapes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void bothCompilersCubinsComputeTheReference(String arch, @TempDir Path dir) throws Exception {
        KernelCase k = kernel();
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(TextureGatherQueryEndToEndTest.REGISTRY, k.ptx(), arch, false, false);
        String sass = ours.sass();
        String scope = arch.equals("sm_75") ? "CTA" : "SM";
        for (String form : List.of("SULD.D.BA.1D.STRONG." + scope + " ", "SULD.D.BA.1D.STRONG." + scope + ".IGN ",
                "SULD.D.BA.1D.64.", "SULD.D.BA.1D.128.", "SULD.D.BA.2D.U8.", "SUST.D.BA.2D.U8.STRONG." + scope + ".IGN ",
                "SUST.D.BA.2D.U8.STRONG." + scope + " ", "SULD.D.BA.3D.STRONG", "SULD.D.BA.1D_ARRAY.U16.",
                "SUST.D.BA.1D_ARRAY.U16.", "SULD.D.BA.2D_ARRAY.128.", "SUST.D.BA.2D_ARRAY.64.",
                "SURED.D.BA.1D.ADD.U64.STRONG.SYS.TRAP ", "SURED.D.BA.1D.MAX.S64.", "SURED.D.BA.1D.MIN.U64.STRONG.SYS ",
                "SURED.D.BA.1D.ADD.U64.STRONG.SYS.IGN ")) {
            assertTrue(sass.contains(form), form + " missing:\n" + sass);
        }
        TextureGatherQueryEndToEndTest.bothCubinsComputeTheReference(arch, k, ours, dir);
    }

    @Test
    void theInterpreterComputesTheReference(@TempDir Path dir) throws Exception {
        TextureGatherQueryEndToEndTest.interpreterComputesTheReference(kernel(), dir);
    }
}
