package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * jptxas {@code -c} objects linked by nvlink 13 and run by {@code jptxas-run} on the SASS emulator: {@code caller.ptx}'s
 * kernel {@code link_main} calls {@code _Z7ext_mixjj} of {@code callee.ptx} through {@code CALL.ABS.NOINC} (see
 * {@link RelocatableLinkTest}). Both objects from jptxas, and jptxas's callee linked with ptxas 13's caller; the
 * output must be the CPU reference. Skipped without nvlink 13 (and the mixed link without ptxas 13).
 */
class LinkedRunTest {
    static final int N = 200;

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void jptxasObjectsLinkedByNvlinkRunOnTheEmulator(String arch, @TempDir Path dir) throws Exception {
        Path nvlink = Oracles.assumeNvlink13();
        for (String name : new String[] {"caller", "callee"}) {
            copy(dir, name + ".ptx", arch);
            CliRun r = CliRun.run(dir, "-arch=" + arch, "-c", name + ".ptx", "-o", name + ".o");
            assertEquals(0, r.exitCode(), name + ": " + r.err());
        }
        link(dir, nvlink, arch, "caller.o", "callee.o", "linked.cubin");
        writeLaunch(dir);
        JptxasRunCommandTest.Run r = JptxasRunCommandTest.run(dir, "--arch", arch, "linked.cubin", "--spec", "launch.json",
                "--coverage");
        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("executed  CALL.ABS"), r.out());
        assertArrayEquals(reference(), Files.readAllBytes(dir.resolve("out.bin")), r.out());

        Optional<Path> ptxas = Oracles.ptxas13();
        if (ptxas.isPresent()) { // ptxas 13's caller with jptxas's callee
            Processes.Result p = Processes.run(List.of(ptxas.get().toString(), "-arch=" + arch, "-c", "caller.ptx", "-o",
                    "caller-ptxas.o"), dir);
            assertEquals(0, p.exitCode(), p.stderr());
            link(dir, nvlink, arch, "caller-ptxas.o", "callee.o", "mixed.cubin");
            Files.delete(dir.resolve("out.bin"));
            JptxasRunCommandTest.Run m = JptxasRunCommandTest.run(dir, "--arch", arch, "mixed.cubin", "--spec", "launch.json");
            assertEquals(0, m.rc(), m.out() + m.err());
            assertArrayEquals(reference(), Files.readAllBytes(dir.resolve("out.bin")), m.out());
        }
    }

    /** out[i] = ext_mix(in[i], i) + 1, with ext_mix as callee.cu defines it; out[N..] stays 0. */
    static byte[] reference() {
        ByteBuffer out = ByteBuffer.allocate(4 * 256).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < N; i++) {
            int y = i, h = (input(i) ^ y) * (int) 2654435761L;
            if ((h & 1) != 0) {
                h = (h >>> 3) ^ y;
            }
            out.putInt(4 * i, h + 7 + 1);
        }
        return out.array();
    }

    static int input(int i) {
        return i * 0x2545f491 ^ 0x5bd1e995;
    }

    private static void writeLaunch(Path dir) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < N; i++) {
            in.putInt(input(i));
        }
        Files.write(dir.resolve("in.bin"), in.array());
        Files.writeString(dir.resolve("launch.json"), "{\"entry\":\"link_main\",\"grid\":[2,1,1],\"block\":[128,1,1],"
                + "\"params\":[{\"type\":\"ptr\",\"bytes\":" + 4 * N + ",\"in\":\"in.bin\"},"
                + "{\"type\":\"ptr\",\"bytes\":1024,\"out\":\"out.bin\"},{\"type\":\"s32\",\"value\":" + N + "}]}");
    }

    private static void link(Path dir, Path nvlink, String arch, String a, String b, String out) {
        Processes.Result r = Processes.run(List.of(nvlink.toString(), "-arch=" + arch, a, b, "-o", out), dir);
        assertEquals(0, r.exitCode(), "nvlink: " + r.stdout() + r.stderr());
    }

    private static void copy(Path dir, String name, String arch) throws IOException {
        String text;
        try (InputStream in = LinkedRunTest.class.getResourceAsStream("/link/" + name)) {
            text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        Files.writeString(dir.resolve(name), text.replace(".target sm_75", ".target " + arch), StandardCharsets.ISO_8859_1);
    }
}
