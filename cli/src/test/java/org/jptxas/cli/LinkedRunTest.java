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
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * jptxas {@code -c} objects linked by nvlink 13 and run by {@code jptxas-run} on the SASS emulator: {@code caller.ptx}'s
 * kernel {@code link_main} calls {@code _Z7ext_mixjj} of {@code callee.ptx} through {@code CALL.ABS.NOINC} (see
 * {@link RelocatableLinkTest}). Both objects from jptxas, and jptxas's callee linked with ptxas 13's caller; the
 * output must be the CPU reference. Needs nvlink 13 (and the mixed link ptxas 13): {@link Oracles}.
 */
class LinkedRunTest {
    static final int N = 200;

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void jptxasObjectsLinkedByNvlinkRunOnTheEmulator(String arch, @TempDir Path dir) throws Exception {
        Path nvlink = Oracles.assumeNvlink13();
        compileWithJptxas(dir, arch, "caller", "callee");
        link(dir, nvlink, arch, "caller.o", "callee.o", "linked.cubin");
        writeLaunch(dir);
        JptxasRunCommandTest.Run r = JptxasRunCommandTest.run(dir, "--arch", arch, "linked.cubin", "--spec", "launch.json",
                "--coverage");
        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("executed  CALL.ABS"), r.out());
        assertArrayEquals(reference(), Files.readAllBytes(dir.resolve("out.bin")), r.out());
    }

    /** ptxas 13's caller linked with jptxas's callee. */
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void ptxasCallerWithJptxasCalleeRunsOnTheEmulator(String arch, @TempDir Path dir) throws Exception {
        Path nvlink = Oracles.assumeNvlink13();
        Path ptxas = Oracles.assumePtxas13();
        compileWithJptxas(dir, arch, "callee");
        copy(dir, "caller.ptx", arch);
        Processes.Result p = Processes.run(List.of(ptxas.toString(), "-arch=" + arch, "-c", "caller.ptx", "-o",
                "caller-ptxas.o"), dir);
        assertEquals(0, p.exitCode(), p.stderr());
        link(dir, nvlink, arch, "caller-ptxas.o", "callee.o", "mixed.cubin");
        writeLaunch(dir);
        JptxasRunCommandTest.Run m = JptxasRunCommandTest.run(dir, "--arch", arch, "mixed.cubin", "--spec", "launch.json");
        assertEquals(0, m.rc(), m.out() + m.err());
        assertArrayEquals(reference(), Files.readAllBytes(dir.resolve("out.bin")), m.out());
    }

    private static void compileWithJptxas(Path dir, String arch, String... names) throws IOException {
        for (String name : names) {
            copy(dir, name + ".ptx", arch);
            CliRun r = CliRun.run(dir, "-arch=" + arch, "-c", name + ".ptx", "-o", name + ".o");
            assertEquals(0, r.exitCode(), name + ": " + r.err());
        }
    }

    /** A kernel calling a recursive internal function and a plain one: out[0] = 2 * fib(n). */
    static final String RECURSIVE = """
            .version 8.0
            .target sm_75
            .address_size 64
            .func (.param .b32 r) fib(.param .b32 n)
            {
              .reg .pred %p;
              .reg .b32 %r<6>;
              ld.param.b32 %r1, [n];
              setp.lt.u32 %p, %r1, 2;
              @%p bra DONE;
              add.s32 %r2, %r1, -1;
              {
              .param .b32 a0; .param .b32 r0;
              st.param.b32 [a0], %r2;
              call (r0), fib, (a0);
              ld.param.b32 %r3, [r0];
              }
              add.s32 %r4, %r1, -2;
              {
              .param .b32 a1; .param .b32 r1;
              st.param.b32 [a1], %r4;
              call (r1), fib, (a1);
              ld.param.b32 %r5, [r1];
              }
              add.s32 %r1, %r3, %r5;
            DONE:
              st.param.b32 [r], %r1;
              ret;
            }
            .func (.param .b32 r) twice(.param .b32 n)
            {
              .reg .b32 %r<3>;
              ld.param.b32 %r1, [n];
              add.s32 %r2, %r1, %r1;
              st.param.b32 [r], %r2;
              ret;
            }
            .visible .entry k(.param .u64 out, .param .u32 n)
            {
              .reg .b32 %r<4>;
              .reg .b64 %rd<2>;
              ld.param.u64 %rd1, [out];
              ld.param.u32 %r1, [n];
              {
              .param .b32 a0; .param .b32 r0;
              st.param.b32 [a0], %r1;
              call (r0), fib, (a0);
              ld.param.b32 %r2, [r0];
              }
              {
              .param .b32 a1; .param .b32 r1;
              st.param.b32 [a1], %r2;
              call (r1), twice, (a1);
              ld.param.b32 %r3, [r1];
              }
              st.global.u32 [%rd1], %r3;
              ret;
            }
            """;

    /**
     * A recursive internal function under {@code -c} is a function of its own that calls itself ({@code CALL.REL}
     * to its start, the return address relocated), internal or exported: linked by nvlink 13 alone, the kernel
     * computes 2 * fib(12).
     */
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void recursiveInternalFunctionOfAnObjectRuns(String arch, @TempDir Path dir) throws Exception {
        Path nvlink = Oracles.assumeNvlink13();
        Files.writeString(dir.resolve("launch.json"), "{\"entry\":\"k\",\"grid\":[1,1,1],\"block\":[1,1,1],"
                + "\"params\":[{\"type\":\"ptr\",\"bytes\":4,\"out\":\"out.bin\"},{\"type\":\"u32\",\"value\":12}]}");
        // internal (a local symbol) and exported (.visible: a global one) alike
        for (String fib : List.of(".func (.param .b32 r) fib(", ".visible .func (.param .b32 r) fib(")) {
            Files.writeString(dir.resolve("rec.ptx"), RECURSIVE.replace(".target sm_75", ".target " + arch)
                    .replace(".func (.param .b32 r) fib(", fib));
            CliRun r = CliRun.run(dir, "-arch=" + arch, "-c", "rec.ptx", "-o", "rec.o");
            assertEquals(0, r.exitCode(), r.err());
            Processes.Result link = Processes.run(List.of(nvlink.toString(), "-arch=" + arch, "rec.o", "-o", "rec.cubin"),
                    dir);
            assertEquals(0, link.exitCode(), "nvlink: " + link.stdout() + link.stderr());
            Files.deleteIfExists(dir.resolve("out.bin"));
            JptxasRunCommandTest.Run run = JptxasRunCommandTest.run(dir, "--arch", arch, "rec.cubin", "--spec",
                    "launch.json");
            assertEquals(0, run.rc(), fib + ": " + run.out() + run.err());
            byte[] out = Files.readAllBytes(dir.resolve("out.bin"));
            assertEquals(2 * 144, ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).getInt(), fib + ": " + run.out());
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
