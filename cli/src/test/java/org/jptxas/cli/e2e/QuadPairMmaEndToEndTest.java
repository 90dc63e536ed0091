package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.kernels.RefMath;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mma.sync.aligned.m8n8k4.row.col} with f16 inputs and f16 or f32 accumulators, Volta's quad-pair shape, run
 * in the SASS emulator on jptxas's cubin and on ptxas 13's and checked element by element against a CPU reference.
 * Each quad pair (lanes 4q..4q+3, 4q+16..4q+19) multiplies its own 8x4 A by 4x8 B. On sm_75 both compilers write
 * {@code HMMA.884} steps (the emulator's numerics: exact sum, rounded once); elsewhere ptxas computes it on the FMA
 * pipe after fetching rows and columns from the other lanes (SHFL), jptxas does the same, and the reference follows
 * its f32 steps bit for bit.
 */
class QuadPairMmaEndToEndTest {
    static final String PTX = """
            .version 7.0
            .target sm_75
            .address_size 64
            .visible .entry quad_pair(.param .u64 pa, .param .u64 pb, .param .u64 pc16, .param .u64 pc32,
                                      .param .u64 pd16, .param .u64 pd32)
            {
              .reg .b32 a<2>, b<2>, h<4>, f<8>, lane;
              .reg .u64 ra, rb, rc16, rc32, rd16, rd32, off;
              ld.param.u64 ra, [pa];
              ld.param.u64 rb, [pb];
              ld.param.u64 rc16, [pc16];
              ld.param.u64 rc32, [pc32];
              ld.param.u64 rd16, [pd16];
              ld.param.u64 rd32, [pd32];
              mov.u32 lane, %laneid;
              mul.wide.u32 off, lane, 8;
              add.u64 ra, ra, off;
              add.u64 rb, rb, off;
              ld.global.v2.b32 {a0, a1}, [ra];
              ld.global.v2.b32 {b0, b1}, [rb];
              mul.wide.u32 off, lane, 16;
              add.u64 rc16, rc16, off;
              add.u64 rd16, rd16, off;
              ld.global.v4.b32 {h0, h1, h2, h3}, [rc16];
              mul.wide.u32 off, lane, 32;
              add.u64 rc32, rc32, off;
              add.u64 rd32, rd32, off;
              ld.global.v4.b32 {f0, f1, f2, f3}, [rc32];
              ld.global.v4.b32 {f4, f5, f6, f7}, [rc32+16];
              mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {h0, h1, h2, h3}, {a0, a1}, {b0, b1}, {h0, h1, h2, h3};
              mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {f0, f1, f2, f3, f4, f5, f6, f7}, {a0, a1}, {b0, b1},
                  {f0, f1, f2, f3, f4, f5, f6, f7};
              st.global.v4.b32 [rd16], {h0, h1, h2, h3};
              st.global.v4.b32 [rd32], {f0, f1, f2, f3};
              st.global.v4.b32 [rd32+16], {f4, f5, f6, f7};
              ret;
            }
            """;

    /** Per-lane words of each buffer: A, B (2), f16 C/D (4), f32 C/D (8). */
    private static final int[] WORDS = {2, 2, 4, 8, 4, 8};

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void bothCompilersCubinsComputeTheReference(String arch, @TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("quad_pair.ptx");
        Files.writeString(ptx, PTX);
        int[][] in = inputs();
        int[][] expected = TestTargets.profile(arch).has(org.jptxas.ori.target.TargetFeature.QUAD_PAIR_HMMA)
                ? quadPairReference(in) : fmaPipeReference(in);

        byte[] ours = new SuiteRun().compile(ptx, arch, CompileOptions.defaults()).cubin();
        assertEquals(List.of(), mismatches(run(ours, arch, in, dir.resolve("jptxas")), expected), "jptxas's cubin");

        Oracles.assumePtxas13();
        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, arch);
        assertTrue(c.ok(), c.diagnostics());
        byte[] theirs = Files.readAllBytes(c.cubin().orElseThrow());
        assertEquals(List.of(), mismatches(run(theirs, arch, in, dir.resolve("ptxas")), expected), "ptxas's cubin");
    }

    /** The PTX interpreter computes the ISA's product with the emulator's numerics (exact sum, rounded once). */
    @org.junit.jupiter.api.Test
    void theInterpreterComputesTheQuadPairProduct(@TempDir Path dir) throws Exception {
        int[][] in = inputs();
        Launch launch = launch("sm_75", in, dir);
        LaunchResult r = PtxInterpreter.load("quad_pair.ptx", PTX).execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertEquals(List.of(), mismatches(outputs(launch), quadPairReference(in)));
    }

    /** A, B, f16 C and f32 C for the 32 lanes: f16 values in [-1, 1], f32 values in [-1, 1]. */
    private static int[][] inputs() {
        Random r = new Random(884);
        int[][] in = new int[4][];
        for (int k = 0; k < 4; k++) {
            in[k] = new int[32 * WORDS[k]];
            for (int i = 0; i < in[k].length; i++) {
                in[k][i] = k == 3 ? Float.floatToRawIntBits(r.nextFloat() * 2 - 1)
                        : (half(r) & 0xffff) | half(r) << 16;
            }
        }
        return in;
    }

    private static int half(Random r) {
        return RefMath.toHalf(r.nextFloat() * 2 - 1) & 0xffff;
    }

    private static float h(int[] words, int index) {
        return RefMath.halfToFloat(words[index / 2] >>> 16 * (index % 2) & 0xffff);
    }

    /** The PTX ISA's product: row r = lane % 4 (+4 from lane 16) of A and column r of B per lane, per quad pair. */
    static int[][] quadPairReference(int[][] in) {
        int[] d16 = new int[32 * 4], d32 = new int[32 * 8];
        for (int lane = 0; lane < 32; lane++) {
            int base = lane & ~3 & 15; // the quad pair's first lane below 16
            for (int i = 0; i < 8; i++) {
                int row16 = lane % 4 + (lane >= 16 ? 4 : 0);
                int row32 = (lane & 1) + (i & 2) + (lane >= 16 ? 4 : 0), col32 = (i & 4) + (lane & 2) + (i & 1);
                double s16 = 0, s32 = 0;
                for (int k = 0; k < 4; k++) {
                    s16 += (double) h(in[0], 4 * holder(base, row16) + k) * h(in[1], 4 * holder(base, i) + k);
                    s32 += (double) h(in[0], 4 * holder(base, row32) + k) * h(in[1], 4 * holder(base, col32) + k);
                }
                int hb = RefMath.toHalf(s16 + h(in[2], 8 * lane + i)) & 0xffff;
                d16[4 * lane + i / 2] |= hb << 16 * (i % 2);
                d32[8 * lane + i] = Float.floatToRawIntBits((float) (s32 + Float.intBitsToFloat(in[3][8 * lane + i])));
            }
        }
        return new int[][] {d16, d32};
    }

    /** The lane of the quad pair starting at {@code base} that holds row {@code x} of A and column x of B. */
    private static int holder(int base, int x) {
        return base + x % 4 + (x >= 4 ? 16 : 0);
    }

    /**
     * The same product as ptxas computes it on the FMA pipe (targets without HMMA.884), in f32 steps: an f32 element
     * is an FFMA chain from +0 in k order plus C; an f16 element is {@code (c + (a0 b0 + a1 b1)) + (a2 b2 + a3 b3)}
     * (each pair an FMUL and an FFMA), rounded to f16 at the end.
     */
    static int[][] fmaPipeReference(int[][] in) {
        int[] d16 = new int[32 * 4], d32 = new int[32 * 8];
        for (int lane = 0; lane < 32; lane++) {
            int base = lane & ~3 & 15;
            for (int i = 0; i < 8; i++) {
                int row16 = lane % 4 + (lane >= 16 ? 4 : 0);
                int row32 = (lane & 1) + (i & 2) + (lane >= 16 ? 4 : 0), col32 = (i & 4) + (lane & 2) + (i & 1);
                float[] a = new float[4], b = new float[4], a32 = new float[4], b32 = new float[4];
                for (int k = 0; k < 4; k++) {
                    a[k] = h(in[0], 4 * holder(base, row16) + k);
                    b[k] = h(in[1], 4 * holder(base, i) + k);
                    a32[k] = h(in[0], 4 * holder(base, row32) + k);
                    b32[k] = h(in[1], 4 * holder(base, col32) + k);
                }
                float s = 0;
                for (int k = 0; k < 4; k++) {
                    s = Math.fma(a32[k], b32[k], s);
                }
                d32[8 * lane + i] = Float.floatToRawIntBits(s + Float.intBitsToFloat(in[3][8 * lane + i]));
                float p = Math.fma(a[1], b[1], a[0] * b[0]), q = Math.fma(a[3], b[3], a[2] * b[2]);
                float e = h(in[2], 8 * lane + i) + p + q;
                d16[4 * lane + i / 2] |= (RefMath.toHalf(e) & 0xffff) << 16 * (i % 2);
            }
        }
        return new int[][] {d16, d32};
    }

    /** Runs the kernel's cubin in the SASS emulator; the f16 and f32 D buffers as words. */
    private static int[][] run(byte[] cubin, String arch, int[][] in, Path dir) throws Exception {
        Launch launch = launch(arch, in, dir);
        LaunchResult r = SassEmulator.fromCubin(TestTargets.of(arch), cubin).execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        return outputs(launch);
    }

    /** The launch of one warp on {@code in} (written to {@code dir} with its spec). */
    private static Launch launch(String arch, int[][] in, Path dir) throws Exception {
        Files.createDirectories(dir);
        String[] names = {"a", "b", "c16", "c32", "d16", "d32"};
        StringBuilder params = new StringBuilder();
        for (int k = 0; k < names.length; k++) {
            int bytes = 32 * 4 * WORDS[k];
            if (k < 4) {
                ByteBuffer bb = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
                bb.asIntBuffer().put(in[k]);
                Files.write(dir.resolve(names[k] + ".bin"), bb.array());
                params.append("{\"type\": \"ptr\", \"bytes\": ").append(bytes).append(", \"in\": \"").append(names[k])
                        .append(".bin\"},");
            } else {
                params.append("{\"type\": \"ptr\", \"bytes\": ").append(bytes).append(", \"out\": \"").append(names[k])
                        .append(".out.bin\"}").append(k < names.length - 1 ? "," : "");
            }
        }
        Path spec = dir.resolve("launch.json");
        Files.writeString(spec, "{\"entry\": \"quad_pair\", \"grid\": [1,1,1], \"block\": [32,1,1],"
                + " \"dynamic_shared_bytes\": 0, \"params\": [" + params + "]}");
        return Launch.prepare(Target.of(arch), LaunchSpecReader.read(spec));
    }

    /** The f16 and f32 D buffers of a finished launch, as words. */
    private static int[][] outputs(Launch launch) {
        int[][] out = new int[2][];
        for (int k = 0; k < 2; k++) {
            byte[] bytes = launch.arguments().get(4 + k).buffer().orElseThrow().bytes();
            out[k] = new int[bytes.length / 4];
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out[k]);
        }
        return out;
    }

    private static List<String> mismatches(int[][] actual, int[][] expected) {
        List<String> bad = new ArrayList<>();
        String[] names = {"d16", "d32"};
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < expected[k].length && bad.size() < 5; i++) {
                if (actual[k][i] != expected[k][i]) {
                    bad.add(names[k] + "[" + i + "]: 0x" + Integer.toHexString(actual[k][i]) + ", expected 0x"
                            + Integer.toHexString(expected[k][i]));
                }
            }
        }
        return bad;
    }
}
