package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.spi.BackendRegistry;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code wmma.mma.sync.aligned} m16n16k16 with f16 inputs in every accumulator combination (D and C each f16 or
 * f32: the mixed ones accumulate in f32, widening an f16 C first and rounding an f32 result to f16 pairs last, as
 * ptxas writes them) and with layouts other than row.col (the fragments' layouts; the multiply is the same). The
 * fragments are registers in ptxas's layout ({@link org.jptxas.frontend.ptx.isa.WmmaForm}); the inputs are
 * multiples of 1/4 small enough that every sum is exact, so the interpreter, the emulator on jptxas's cubin (read
 * back by nvdisasm 12.5 as its {@code --out-sass}) and on ptxas 13's agree bit for bit with the CPU reference
 * whichever HMMA chain a target uses.
 */
class WmmaAccumulatorsEndToEndTest {
    static final String PTX = """
            .version 7.8
            .target %TARGET%
            .address_size 64
            .visible .entry wmma_acc(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 a<8>, b<8>, hc<4>, hd<4>, lane;
              .reg .f32 fc<8>, fd<8>;
              .reg .u64 ri, ro, off;
              ld.param.u64 ri, [pin];
              ld.param.u64 ro, [pout];
              mov.u32 lane, %laneid;
              mul.wide.u32 off, lane, 96;
              add.u64 ri, ri, off;
              mul.wide.u32 off, lane, 32;
              add.u64 ro, ro, off;
              ld.global.v4.b32 {a0, a1, a2, a3}, [ri];
              ld.global.v4.b32 {a4, a5, a6, a7}, [ri+16];
              ld.global.v4.b32 {b0, b1, b2, b3}, [ri+32];
              ld.global.v4.b32 {b4, b5, b6, b7}, [ri+48];
              %LOADC%
              wmma.mma.sync.aligned.%LAYOUTS%.m16n16k16.%D%.%C% %DREGS%, {a0, a1, a2, a3, a4, a5, a6, a7},
                  {b0, b1, b2, b3, b4, b5, b6, b7}, %CREGS%;
              %STORED%
              ret;
            }
            """;

    private static final BackendRegistry REGISTRY =
            BackendRegistry.discover(WmmaAccumulatorsEndToEndTest.class.getClassLoader());

    /** Per-lane input words (A 8, B 8, C 8) and output words (D, 4 or 8). */
    private static final int IN = 24, OUT = 8;

    static String ptx(String arch, String layouts, String d, String c) {
        boolean f16c = c.equals("f16"), f16d = d.equals("f16");
        return PTX.replace("%TARGET%", arch).replace("%LAYOUTS%", layouts).replace("%D%", d).replace("%C%", c)
                .replace("%LOADC%", f16c ? "ld.global.v4.b32 {hc0, hc1, hc2, hc3}, [ri+64];"
                        : "ld.global.v4.f32 {fc0, fc1, fc2, fc3}, [ri+64];\n"
                                + "  ld.global.v4.f32 {fc4, fc5, fc6, fc7}, [ri+80];")
                .replace("%CREGS%", f16c ? "{hc0, hc1, hc2, hc3}" : "{fc0, fc1, fc2, fc3, fc4, fc5, fc6, fc7}")
                .replace("%DREGS%", f16d ? "{hd0, hd1, hd2, hd3}" : "{fd0, fd1, fd2, fd3, fd4, fd5, fd6, fd7}")
                .replace("%STORED%", f16d ? "st.global.v4.b32 [ro], {hd0, hd1, hd2, hd3};"
                        : "st.global.v4.f32 [ro], {fd0, fd1, fd2, fd3};\n"
                                + "  st.global.v4.f32 [ro+16], {fd4, fd5, fd6, fd7};");
    }

    @ParameterizedTest
    @CsvSource({"sm_75, row.col, f16, f32", "sm_75, col.row, f32, f16", "sm_80, row.row, f16, f32",
        "sm_80, col.col, f32, f16", "sm_86, row.col, f32, f16", "sm_89, col.row, f16, f32", "sm_90, row.col, f16, f32",
        "sm_90, row.row, f32, f16", "sm_80, col.row, f32, f32", "sm_90, col.col, f16, f16"})
    void bothCompilersCubinsComputeTheReference(String arch, String layouts, String d, String c, @TempDir Path dir)
            throws Exception {
        Path ptx = dir.resolve("wmma_acc.ptx");
        Files.writeString(ptx, ptx(arch, layouts, d, c));
        int[] in = inputs(c.equals("f16"));
        int[] expected = reference(in, c.equals("f16"), d.equals("f16"));

        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, arch, false, false);
        if (d.equals("f16") && c.equals("f32")) {
            assertTrue(ours.sass().contains(arch.equals("sm_75") ? "F2F.F16.F32 " : "PACK_AB ")
                    && ours.sass().contains(".F32 "), ours.sass());
        }
        assertArrayEquals(expected, run(ours.cubin(), arch, in, dir.resolve("jptxas")), "jptxas's cubin");

        WarpKernelHarness.assertReadByNvdisasmAndHazardFree(ours, arch, dir);

        byte[] theirs = WarpKernelHarness.ptxas13Cubin(ptx, arch);
        assertArrayEquals(expected, run(theirs, arch, in, dir.resolve("ptxas")), "ptxas's cubin");
    }

    @ParameterizedTest
    @CsvSource({"row.col, f16, f32", "col.col, f32, f16", "row.row, f32, f32", "col.row, f16, f16"})
    void theInterpreterComputesTheReference(String layouts, String d, String c, @TempDir Path dir) throws Exception {
        int[] in = inputs(c.equals("f16"));
        Launch launch = WarpKernelHarness.launch("sm_80", "wmma_acc", in, 32 * OUT, dir);
        LaunchResult r = PtxInterpreter.load("wmma_acc.ptx", ptx("sm_80", layouts, d, c))
                .execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertArrayEquals(reference(in, c.equals("f16"), d.equals("f16")), WarpKernelHarness.output(launch));
    }

    /** A small multiple of 1/4 (-2 ... 2) as f16 bits. */
    private static int quarter(Random r) {
        return SmallFloats.toHalf((r.nextInt(17) - 8) / 4.0);
    }

    /** A and B f16 pairs; C f16 pairs or f32 words, multiples of 1/4 up to 64 in magnitude. */
    private static int[] inputs(boolean f16c) {
        Random r = new Random(16);
        int[] in = new int[32 * IN];
        for (int lane = 0; lane < 32; lane++) {
            for (int w = 0; w < 16; w++) {
                in[IN * lane + w] = quarter(r) | quarter(r) << 16;
            }
            for (int w = 16; w < 24; w++) {
                in[IN * lane + w] = f16c ? SmallFloats.toHalf((r.nextInt(513) - 256) / 4.0)
                        | SmallFloats.toHalf((r.nextInt(513) - 256) / 4.0) << 16
                        : Float.floatToRawIntBits((r.nextInt(513) - 256) / 4.0f);
            }
        }
        return in;
    }

    private static double half(int word, int h) {
        return SmallFloats.halfToFloat(word >>> 16 * h & 0xffff);
    }

    /**
     * D = A B + C with ptxas's wmma fragments (g = lane / 4, t = lane % 4): A register j holds A(g + 8 (j % 2),
     * 2t + 8 (j / 2)) and the next column (registers 4-7 are not read); B register 2h + j holds B(2t + 8j, g + 8h)
     * and the next row; an f32 C/D register 4h + e is (g + 8 (e / 2), 2t + e % 2 + 8h), an f16 one 2h + r holds
     * (g + 8r, 2t + 8h) and the next column.
     */
    static int[] reference(int[] in, boolean f16c, boolean f16d) {
        double[][] a = new double[16][16], b = new double[16][16], c = new double[16][16];
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4, base = IN * lane;
            for (int j = 0; j < 4; j++) {
                for (int h = 0; h < 2; h++) {
                    a[g + 8 * (j % 2)][2 * t + h + 8 * (j / 2)] = half(in[base + j], h);
                    b[2 * t + h + 8 * (j % 2)][g + 8 * (j / 2)] = half(in[base + 8 + j], h);
                }
            }
            for (int side = 0; side < 2; side++) {
                for (int e = 0; e < 4; e++) {
                    int row = g + 8 * (e / 2), col = 2 * t + e % 2 + 8 * side;
                    c[row][col] = f16c ? half(in[base + 16 + 2 * side + e / 2], e % 2)
                            : Float.intBitsToFloat(in[base + 16 + 4 * side + e]);
                }
            }
        }
        int[] out = new int[32 * OUT];
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            for (int side = 0; side < 2; side++) {
                for (int e = 0; e < 4; e++) {
                    int row = g + 8 * (e / 2), col = 2 * t + e % 2 + 8 * side;
                    double sum = c[row][col];
                    for (int k = 0; k < 16; k++) {
                        sum += a[row][k] * b[k][col];
                    }
                    if (f16d) {
                        out[OUT * lane + 2 * side + e / 2] |= SmallFloats.toHalf(sum) << 16 * (e % 2);
                    } else {
                        out[OUT * lane + 4 * side + e] = Float.floatToRawIntBits((float) sum);
                    }
                }
            }
        }
        return out;
    }

    private static int[] run(byte[] cubin, String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.emulate(cubin, arch, WarpKernelHarness.launch(arch, "wmma_acc", in, 32 * OUT, dir));
    }
}
