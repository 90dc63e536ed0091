package org.jptxas.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cubins compiled by an NVIDIA ptxas, cached on disk by content so that every differential test (encoding, cubin
 * round trip, scheduler agreement, emulator) shares one compilation per (ptxas version, options, PTX text).
 * Compiling the corpus for seven SMs takes minutes; reading it back from the cache takes seconds.
 *
 * <p>The cache lives in {@code JPTXAS_ORACLE_CACHE}, else {@code ~/.cache/jptxas/oracle-cubins}. Entries are written
 * to a temporary file and moved into place, so concurrent test JVMs never see a partial file. A failed compilation
 * is cached too (as its stderr), so it is not retried on every run.
 */
public final class OracleCubins {
    private OracleCubins() {}

    /** The outcome of one ptxas run: the cubin, or ptxas's diagnostics when it failed. */
    public record Compiled(Optional<Path> cubin, String diagnostics) {
        public boolean ok() {
            return cubin.isPresent();
        }
    }

    private static final Map<Path, String> VERSIONS = new ConcurrentHashMap<>();

    /** Compiles with ptxas 13 ({@link Oracles#assumePtxas13()}; skips the test when absent). */
    public static Compiled ptxas13(Path ptx, String arch, String... extraOptions) {
        return compile(Oracles.assumePtxas13(), ptx, arch, extraOptions);
    }

    /** Compiles with ptxas 12.5 from the CUDA oracle folder (skips the test when absent). */
    public static Compiled ptxas125(Path ptx, String arch, String... extraOptions) {
        return compile(Oracles.assumePtxas125(), ptx, arch, extraOptions);
    }

    /**
     * Compiles {@code ptx} with {@code ptxas -arch=<arch> [extraOptions] ptx -o out}, or returns the cached result.
     * Use {@code "-c"} in {@code extraOptions} for relocatable output.
     */
    public static Compiled compile(Path ptxas, Path ptx, String arch, String... extraOptions) {
        try {
            byte[] text = Files.readAllBytes(ptx);
            List<String> options = new ArrayList<>(List.of("-arch=" + arch));
            options.addAll(List.of(extraOptions));
            String key = key(version(ptxas), options, text);
            Path dir = cacheDir();
            Path cubin = dir.resolve(key + ".cubin");
            Path err = dir.resolve(key + ".err");
            if (Files.isRegularFile(cubin)) {
                return new Compiled(Optional.of(cubin), "");
            }
            if (Files.isRegularFile(err)) {
                return new Compiled(Optional.empty(), Files.readString(err));
            }
            Files.createDirectories(dir);
            Path work = Files.createTempDirectory(dir, "run-");
            try {
                Path in = work.resolve(ptx.getFileName().toString());
                Files.write(in, text);
                Path out = work.resolve("out.cubin");
                List<String> cmd = new ArrayList<>();
                cmd.add(ptxas.toString());
                cmd.addAll(options);
                cmd.add(in.toString());
                cmd.add("-o");
                cmd.add(out.toString());
                Processes.Result r = Processes.run(cmd, work, Map.of(), 600);
                if (r.exitCode() == 0 && Files.isRegularFile(out)) {
                    moveIntoPlace(out, cubin);
                    return new Compiled(Optional.of(cubin), "");
                }
                String diag = (r.stdout() + r.stderr()).replace(in.toString(), ptx.getFileName().toString());
                if (diag.isBlank()) {
                    // killed, or crashed without a word (a loaded machine can do that): not ptxas's verdict on the
                    // input, so not remembered; the next run asks again
                    return new Compiled(Optional.empty(), "ptxas exited with code " + r.exitCode() + " and printed nothing");
                }
                Path tmpErr = work.resolve("err");
                Files.writeString(tmpErr, diag);
                moveIntoPlace(tmpErr, err);
                return new Compiled(Optional.empty(), diag);
            } finally {
                deleteTree(work);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Path cacheDir() {
        String env = System.getenv("JPTXAS_ORACLE_CACHE");
        return env != null && !env.isBlank() ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache", "jptxas", "oracle-cubins");
    }

    private static String version(Path ptxas) {
        return VERSIONS.computeIfAbsent(ptxas, p -> {
            Processes.Result r = Processes.run(List.of(p.toString(), "--version"), Path.of("."));
            return r.stdout().strip();
        });
    }

    private static String key(String version, List<String> options, byte[] text) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(version.getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            for (String o : options) {
                md.update(o.getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            md.update(text);
            return HexFormat.of().formatHex(md.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void moveIntoPlace(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
