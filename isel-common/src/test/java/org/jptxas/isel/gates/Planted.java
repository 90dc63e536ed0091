package org.jptxas.isel.gates;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;

/** Planted inputs for the gates' fault tests: corpus jobs and ptxas outcomes that need no corpus and no oracle. */
public final class Planted {
    private Planted() {}

    /** A corpus job for {@code name} ({@code .target sm_75}). */
    public static CorpusCubin job(String name, String arch, boolean relocatable) {
        return new CorpusCubin(new Corpus.Entry(Path.of(name), Map.of("target", "sm_75", "ptxas", "ok")), arch,
                relocatable);
    }

    /** ptxas "wrote" {@code bytes}: a file in {@code dir}. */
    public static OracleCubins.Compiled compiled(Path dir, String name, byte[] bytes) {
        try {
            Path p = dir.resolve(name);
            Files.write(p, bytes);
            return new OracleCubins.Compiled(Optional.of(p), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** ptxas failed with {@code diagnostics}. */
    public static OracleCubins.Compiled failed(String diagnostics) {
        return new OracleCubins.Compiled(Optional.empty(), diagnostics);
    }

    /** A copy of {@code bytes} with bit {@code bit} of byte {@code at} flipped. */
    public static byte[] flip(byte[] bytes, int at, int bit) {
        byte[] b = bytes.clone();
        b[at] ^= (byte) (1 << bit);
        return b;
    }
}
