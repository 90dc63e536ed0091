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

/**
 * Runs an NVIDIA tool (nvdisasm, cuobjdump, nvlink) on one input file, remembering the outcome on disk by the tool,
 * its arguments and the input's bytes: jptxas's output is deterministic, so a corpus rerun whose cubins did not
 * change spawns no process. The cache is {@code JPTXAS_ORACLE_CACHE/../oracle-tools}, else
 * {@code ~/.cache/jptxas/oracle-tools}; entries are moved into place whole, so parallel runs never read a partial one.
 * The input's path is not part of the key (its mentions in stderr are replaced by {@code <input>}), so a tool whose
 * stdout names its input must not be run through here.
 */
public final class OracleToolRuns {
    private OracleToolRuns() {}

    /**
     * {@code tool args... input}, run in {@code workDir}: the exit code and output. {@code keepStdout} false drops
     * stdout from the cached entry (only the verdict and stderr are needed).
     */
    public static Processes.Result run(Path tool, List<String> args, Path input, Path workDir, boolean keepStdout) {
        try {
            byte[] bytes = Files.readAllBytes(input);
            String key = key(tool, args, bytes);
            Path entry = cacheDir().resolve(key.substring(0, 2)).resolve(key + ".txt");
            if (Files.isRegularFile(entry)) {
                return decode(Files.readString(entry, StandardCharsets.UTF_8));
            }
            List<String> cmd = new ArrayList<>();
            cmd.add(tool.toString());
            cmd.addAll(args);
            cmd.add(input.toString());
            Processes.Result r = Processes.run(cmd, workDir);
            Processes.Result kept = new Processes.Result(r.exitCode(), keepStdout ? r.stdout() : "",
                    r.stderr().replace(input.toString(), "<input>"));
            if (r.exitCode() >= 128 || r.exitCode() < 0) {
                return kept; // killed by a signal or timed out: not the tool's verdict on the input, so not cached
            }
            Files.createDirectories(entry.getParent());
            Path tmp = Files.createTempFile(entry.getParent(), "run-", ".tmp");
            Files.writeString(tmp, encode(kept), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, entry, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, entry, StandardCopyOption.REPLACE_EXISTING);
            }
            return kept;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path cacheDir() {
        String env = System.getenv("JPTXAS_ORACLE_CACHE");
        if (env != null && !env.isBlank()) {
            return Path.of(env).resolveSibling("oracle-tools");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "jptxas", "oracle-tools");
    }

    private static String key(Path tool, List<String> args, byte[] input) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(tool.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
            for (String a : args) {
                md.update((byte) 0);
                md.update(a.getBytes(StandardCharsets.UTF_8));
            }
            md.update((byte) 1);
            md.update(input);
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code exit\nstderrLength\nstderr stdout}. */
    private static String encode(Processes.Result r) {
        return r.exitCode() + "\n" + r.stderr().length() + "\n" + r.stderr() + r.stdout();
    }

    private static Processes.Result decode(String s) {
        int a = s.indexOf('\n');
        int b = s.indexOf('\n', a + 1);
        int exit = Integer.parseInt(s.substring(0, a));
        int errLength = Integer.parseInt(s.substring(a + 1, b));
        String err = s.substring(b + 1, b + 1 + errLength);
        return new Processes.Result(exit, s.substring(b + 1 + errLength), err);
    }
}
