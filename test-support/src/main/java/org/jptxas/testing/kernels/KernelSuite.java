package org.jptxas.testing.kernels;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jptxas.testing.RepoRoot;

/**
 * The project's kernel suite, shared by the simulator (PTX interpreter and SASS emulator must agree with the
 * references) and by code generation (our cubins must compute the references). Every kernel lives in
 * {@code kernels/<name>/} as CUDA source, the PTX nvcc 13 generated from it, and the launch spec this class
 * generates ({@link KernelCase#launchSpecJson()}); inputs are generated here, deterministically.
 */
public final class KernelSuite {
    private KernelSuite() {}

    /** Every case, in a stable order. */
    public static List<KernelCase> all() {
        List<KernelCase> all = new ArrayList<>();
        all.addAll(MemoryKernels.all());
        all.addAll(ArithmeticKernels.all());
        all.addAll(WarpKernels.all());
        all.addAll(DivergenceKernels.all());
        all.addAll(TensorKernels.all());
        all.addAll(AsyncCopyKernels.all());
        all.addAll(HopperAsyncKernels.all());
        all.addAll(ClusterKernels.all());
        all.addAll(TextureKernels.all());
        return List.copyOf(all);
    }

    /**
     * Kernels for an arch-specific target ({@code sm_90a}: wgmma), with folders in {@code kernels/} like the suite's
     * but outside {@link #all()}: the suite's per-SM runs compile for sm_75 ... sm_90, which cannot take them. Their
     * own tests run them three ways (cli's {@code TmaWgmmaGemmEndToEndTest}, simulator's
     * {@code WgmmaInterpreterTest}); {@code KernelSuiteFilesTest} checks their files with the suite's.
     */
    public static List<KernelCase> archSpecific() {
        return WarpgroupKernels.suiteFolders();
    }

    /**
     * Kernels with folders in {@code kernels/} outside {@link #all()} whose own end-to-end test runs them three ways:
     * {@code texture_gather_query} (tld4, txq, suq, sured) and {@code texture_gather_channels} (tld4 of every channel
     * with all four results read), both in cli's {@code TextureGatherQueryEndToEndTest}, and {@code surface_shapes}
     * (every surface geometry, width and bounds mode, 64-bit {@code sured}) in cli's {@code SurfaceShapesEndToEndTest},
     * and {@code tma_tile_nd} (tensor copies of ranks 3 to 5) in cli's {@code TensorCopyRanksEndToEndTest}.
     */
    public static List<KernelCase> standalone() {
        return List.of(TextureKernels.gatherQuery(), TextureKernels.gatherChannels(), SurfaceKernels.surfaceShapes(),
                HopperAsyncKernels.tmaTileNd());
    }

    /**
     * The suite's tensor-core kernels (mma.sync and wmma of every input type family), a subset of {@link #all()}: the
     * codegen and cycle reports measure them on their own, since they are where jptxas's code differs most from
     * ptxas's.
     */
    public static List<KernelCase> tensorCores() {
        return TensorKernels.all();
    }

    public static Optional<KernelCase> byName(String name) {
        return all().stream().filter(k -> k.name().equals(name)).findFirst();
    }

    /** {@code gemm_tile_f32} on larger matrices (the suite's case is N = 32): its unrolled loop runs other paths. */
    public static KernelCase gemmTile(int n) {
        return MemoryKernels.gemmTile(n, "gemm_tile_f32-" + n, "16x16 shared tiles, N = " + n);
    }

    public static KernelCaseBuilder kernel(String name) {
        return new KernelCaseBuilder(name);
    }

    /** {@code kernels/} at the repository root. */
    public static Path kernelsDir() {
        Path root = RepoRoot.find().orElseThrow(() -> new IllegalStateException("repository root not found"));
        Path dir = root.resolve("kernels");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no kernels/ folder in " + root);
        }
        return dir;
    }
}
