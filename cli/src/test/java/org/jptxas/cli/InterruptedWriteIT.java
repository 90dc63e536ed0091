package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No data lost (issue 22), on the packaged distribution: a compile killed at random moments (SIGKILL) leaves the old
 * output file intact or the complete new one, never a partial file; one ended by SIGTERM also leaves no temporary
 * file; an output larger than the file-size limit (as a full disk: the write fails) gives one line and no file.
 */
@Tag("slow")
class InterruptedWriteIT {
    @TempDir
    Path dir;

    private static final byte[] OLD = "the previous output, kept whole".getBytes();

    private List<String> jptxas(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djptxas.home=" + Path.of("target").toAbsolutePath(),
                "-cp", Path.of("target/lib").toAbsolutePath() + "/*",
                "org.jptxas.cli.JptxasMain"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @BeforeEach
    void kernel() throws IOException {
        // a kernel that takes a second or two to compile, so that kills land in every phase
        Files.writeString(dir.resolve("k.ptx"), ScalingBenchmark.generate("straight", 12_000));
    }

    @Test
    void aKilledCompileLeavesTheOldOutputOrTheNewOneWhole() throws Exception {
        Processes.Result ref = Processes.run(jptxas("-arch=sm_80", "k.ptx", "-o", "ref.cubin"), dir, Map.of(), 300);
        assertEquals(0, ref.exitCode(), ref.stderr());
        byte[] fresh = Files.readAllBytes(dir.resolve("ref.cubin"));
        long millis = 0;
        Random r = new Random(22);
        int old = 0;
        int whole = 0;
        for (int i = 0; i < 9; i++) {
            Path out = dir.resolve("out.cubin");
            Files.write(out, OLD);
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(jptxas("-arch=sm_80", "k.ptx", "-o", "out.cubin")).directory(dir.toFile())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("log.txt").toFile()).start();
            if (i == 0) {
                assertTrue(p.waitFor(300, TimeUnit.SECONDS));
                millis = (System.nanoTime() - t0) / 1_000_000;
                Files.write(out, OLD);
                continue;
            }
            // a moment anywhere in the run, the end (renaming) included
            Thread.sleep((long) (millis * (0.3 + 0.8 * r.nextDouble())));
            p.destroyForcibly();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            byte[] now = Files.readAllBytes(out);
            assertTrue(Arrays.equals(now, OLD) || Arrays.equals(now, fresh),
                    "kill " + i + ": out.cubin is neither the old file nor the new one (" + now.length + " bytes)");
            if (Arrays.equals(now, OLD)) {
                old++;
            } else {
                whole++;
            }
            try (Stream<Path> s = Files.list(dir)) {
                for (Path tmp : s.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList()) {
                    Files.delete(tmp); // SIGKILL runs no clean-up: the hidden temporary file may remain
                }
            }
        }
        assertEquals(8, old + whole);
        System.out.println("killed compiles: " + old + " left the old output, " + whole + " the new one whole");
    }

    @Test
    void aTerminatedCompileLeavesNoTemporaryFile() throws Exception {
        Files.write(dir.resolve("out.cubin"), OLD);
        Process p = new ProcessBuilder(jptxas("-arch=sm_80", "k.ptx", "-o", "out.cubin")).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve("log.txt").toFile()).start();
        Thread.sleep(1500);
        p.destroy(); // SIGTERM: shutdown hooks run
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        byte[] now = Files.readAllBytes(dir.resolve("out.cubin"));
        assertTrue(Arrays.equals(now, OLD) || now.length > 1000, "old or new output");
        assertEquals(List.of("k.ptx", "log.txt", "out.cubin"), files());
    }

    @Test
    void anOutputOverTheFileSizeLimitIsOneLineAndNoFile() throws Exception {
        // ulimit -f 1: writes past 1 KiB fail (EFBIG), as writes to a full disk do (ENOSPC)
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "ulimit -f 1; exec \"$@\"", "bash"));
        cmd.addAll(jptxas("-arch=sm_80", "k.ptx", "-o", "big.cubin"));
        Processes.Result r = Processes.run(cmd, dir, Map.of(), 300);
        assertEquals(255, r.exitCode(), r.stdout() + r.stderr());
        assertEquals("jptxas fatal   : Output file 'big.cubin' could not be written: File too large",
                r.stderr().strip());
        assertFalse(Files.exists(dir.resolve("big.cubin")));
        assertEquals(List.of("k.ptx"), files());
    }
}
