package org.jptxas.sass.oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;

/**
 * Runs nvdisasm 12.5 and caches its output next to the oracle cubins ({@code <cache>/nvdisasm/}), keyed by the input
 * bytes and options, so repeated differential runs cost no process start.
 */
public final class OracleListings {
    private OracleListings() {}

    /** {@code nvdisasm -hex -c file} (cubin mode), cached. */
    public static NvdisasmListing cubin(Path cubin) {
        try {
            return NvdisasmListing.parse(run(Files.readAllBytes(cubin), List.of("-hex", "-c")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code nvdisasm -b SMxx -hex raw} over raw instruction bytes, cached. Throws if nvdisasm rejects the bytes. */
    public static NvdisasmListing raw(byte[] code, String sm) {
        return NvdisasmListing.parse(run(code, List.of("-b", binaryName(sm), "-hex")));
    }

    /** {@code sm_90a} → {@code SM90a}. */
    /**
     * nvdisasm's text of each raw instruction word pair {lo, hi}, in order, with whitespace collapsed and without the
     * closing {@code ;}: what the decoder's printed text must equal.
     */
    public static List<String> rawTexts(List<long[]> words, String sm) {
        java.nio.ByteBuffer code = java.nio.ByteBuffer.allocate(16 * words.size()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long[] w : words) {
            code.putLong(w[0]).putLong(w[1]);
        }
        List<String> texts = new ArrayList<>();
        for (NvdisasmListing.Line l : raw(code.array(), sm).sections().get(0).lines()) {
            texts.add(l.text().replaceAll("\\s*;\\s*$", "").replaceAll("\\s+", " ").strip());
        }
        if (texts.size() != words.size()) {
            throw new IllegalStateException(sm + ": nvdisasm listed " + texts.size() + " instructions for "
                    + words.size() + " words");
        }
        return texts;
    }

    public static String binaryName(String sm) {
        return "SM" + sm.substring(3);
    }

    /** Raw nvdisasm output for {@code input} with {@code options}, cached on disk. */
    public static String run(byte[] input, List<String> options) {
        Path nvdisasm = Oracles.assumeNvdisasm();
        String key = key(options, input);
        Path dir = OracleCubins.cacheDir().resolve("nvdisasm");
        Path out = dir.resolve(key + ".txt");
        Path err = dir.resolve(key + ".err");
        try {
            if (Files.isRegularFile(out)) {
                return Files.readString(out);
            }
            if (Files.isRegularFile(err)) {
                throw new NvdisasmException(Files.readString(err));
            }
            Files.createDirectories(dir);
            Path work = Files.createTempDirectory(dir, "run-");
            try {
                Path in = work.resolve("input.bin");
                Files.write(in, input);
                List<String> cmd = new ArrayList<>();
                cmd.add(nvdisasm.toString());
                cmd.addAll(options);
                cmd.add(in.toString());
                Processes.Result r = Processes.run(cmd, work, Map.of(), 600);
                Path tmp = work.resolve("result");
                if (r.exitCode() != 0) {
                    if ((r.stderr() + r.stdout()).isBlank()) {
                        // killed, or failed without a word: not a verdict on the input, so not cached
                        throw new NvdisasmException("nvdisasm exited with code " + r.exitCode() + " and printed nothing");
                    }
                    Files.writeString(tmp, r.stderr() + r.stdout());
                    Files.move(tmp, err, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    throw new NvdisasmException(r.stderr() + r.stdout());
                }
                Files.writeString(tmp, r.stdout());
                Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                return r.stdout();
            } finally {
                try (var s = Files.list(work)) {
                    for (Path p : s.toList()) {
                        Files.deleteIfExists(p);
                    }
                }
                Files.deleteIfExists(work);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** nvdisasm rejected its input (e.g. an illegal encoding); the message is nvdisasm's. */
    public static final class NvdisasmException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NvdisasmException(String message) {
            super(message.strip());
        }
    }

    private static String key(List<String> options, byte[] input) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update("nvdisasm-12.5".getBytes(StandardCharsets.UTF_8));
            for (String o : options) {
                md.update((byte) 0);
                md.update(o.getBytes(StandardCharsets.UTF_8));
            }
            md.update((byte) 0);
            md.update(input);
            return HexFormat.of().formatHex(md.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
