package org.jptxas.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the NVIDIA tools used as test oracles. Tests call the {@code assume...} methods: on a machine without the tool
 * (a bare JDK) the test is skipped; under CI, which installs them with {@code scripts/cuda-oracle}, it fails
 * ({@link Prerequisites}).
 */
public final class Oracles {
    private Oracles() {}

    /**
     * ptxas 13: {@code JPTXAS_PTXAS}, else the first {@code ptxas} on PATH whose release is 13 (the CUDA 12.5 oracle
     * folder, put first on PATH for nvdisasm, holds a ptxas 12.5 that must not stand in for it).
     */
    public static Optional<Path> ptxas13() {
        return Release13.PTXAS;
    }

    /** The CUDA 12.5 oracle folder ({@code nvdisasm}, {@code cuobjdump}, {@code nvlink}, {@code ptxas} 12.5). */
    public static Optional<Path> cuda125Bin() {
        String home = System.getenv("CUDA_ORACLE_HOME");
        Path base = home != null && !home.isBlank() ? Path.of(home)
                : Path.of(System.getProperty("user.home"), ".cache", "cuda-oracle");
        Path bin = base.resolve("12.5").resolve("usr").resolve("bin");
        return Files.isExecutable(bin.resolve("nvdisasm")) ? Optional.of(bin) : Optional.empty();
    }

    public static Optional<Path> nvdisasm() {
        return cuda125Bin().map(b -> b.resolve("nvdisasm"));
    }

    public static Optional<Path> cuobjdump() {
        return cuda125Bin().map(b -> b.resolve("cuobjdump"));
    }

    public static Optional<Path> nvlink() {
        return cuda125Bin().map(b -> b.resolve("nvlink"));
    }

    /**
     * nvlink 13, which links ptxas 13's objects (12.5's does not): on PATH, else in CUDA 13's install folder
     * ({@code CUDA13_HOME}, by default {@code /usr/local/cuda-13.0}).
     */
    public static Optional<Path> nvlink13() {
        String home = System.getenv("CUDA13_HOME");
        Path cuda13 = Path.of(home != null && !home.isBlank() ? home : "/usr/local/cuda-13.0");
        return Release13.NVLINK.or(() -> Optional.of(cuda13.resolve("bin").resolve("nvlink")).filter(Files::isExecutable));
    }

    /** The release-13 tools, found once per JVM (finding them runs each candidate's --version). */
    static final class Release13 {
        static final Optional<Path> PTXAS = fromEnv("JPTXAS_PTXAS").or(() -> onPath("ptxas", Release13::is13));
        static final Optional<Path> NVLINK = onPath("nvlink", Release13::is13);

        /** Whether {@code tool --version} names release 13 ("V13."), as scripts/ci-preflight reads it. */
        static boolean is13(Path tool) {
            try {
                Process p = new ProcessBuilder(tool.toString(), "--version").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                return p.waitFor() == 0 && out.contains("V13.");
            } catch (java.io.IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** nvcc 13, found as {@link #nvlink13()} is; optional (the nvcc-flow test skips without it, also under CI). */
    public static Optional<Path> nvcc13() {
        String home = System.getenv("CUDA13_HOME");
        Path cuda13 = Path.of(home != null && !home.isBlank() ? home : "/usr/local/cuda-13.0");
        return onPath("nvcc").or(() -> Optional.of(cuda13.resolve("bin").resolve("nvcc")).filter(Files::isExecutable));
    }

    public static Path assumeNvlink13() {
        return assume(nvlink13(), "nvlink 13 not installed");
    }

    public static Optional<Path> ptxas125() {
        return cuda125Bin().map(b -> b.resolve("ptxas"));
    }

    public static Path assumePtxas13() {
        return assume(ptxas13(), "ptxas 13 not on PATH");
    }

    public static Path assumeNvdisasm() {
        return assume(nvdisasm(), "nvdisasm oracle not installed (scripts/cuda-oracle install)");
    }

    public static Path assumeCuobjdump() {
        return assume(cuobjdump(), "cuobjdump oracle not installed (scripts/cuda-oracle install)");
    }

    public static Path assumeNvlink() {
        return assume(nvlink(), "nvlink oracle not installed (scripts/cuda-oracle install)");
    }

    public static Path assumePtxas125() {
        return assume(ptxas125(), "ptxas 12.5 oracle not installed (scripts/cuda-oracle install)");
    }

    /** The tool's path; without it the calling test is skipped, or fails under CI ({@link Prerequisites}). */
    private static Path assume(Optional<Path> tool, String why) {
        Prerequisites.require(tool.isPresent(), why);
        return tool.get();
    }

    private static Optional<Path> fromEnv(String name) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(Path.of(v)).filter(Files::isExecutable);
    }

    private static Optional<Path> onPath(String exe) {
        return onPath(exe, p -> true);
    }

    /** The first {@code exe} on PATH that {@code accept}s. */
    private static Optional<Path> onPath(String exe, java.util.function.Predicate<Path> accept) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            Path p = Path.of(dir, exe);
            if (Files.isExecutable(p) && accept.test(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
