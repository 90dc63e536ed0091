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
 * The dense {@code mma.sync} shapes of the newer targets: fp8 m16n8k16 ({@code QMMA.16816} on sm_89, two
 * {@code HMMA.1688} on unpacked f16 on sm_90), three ways, and f64 m16n8k4 / k8 / k16 (sm_90's {@code DMMA.16x8xK},
 * k16's A a tuple of sixteen registers), three ways; against a CPU reference with the PTX ISA's fragments: A element i (g + 8 ((i / p) mod 2),
 * p t + i mod p + 4p (i / 2p)), B element i (p t + i mod p + 4p (i / p), g), C/D element i (g + 8 (i / 2),
 * 2t + i mod 2), p elements per 32-bit register (f64: one per register pair). Small integers, so every sum is exact.
 */
class MmaShapesEndToEndTest {
    private static final BackendRegistry REGISTRY =
            BackendRegistry.discover(MmaShapesEndToEndTest.class.getClassLoader());

    @ParameterizedTest
    @CsvSource({"4", "8", "16"})
    void f64OnSm90(int k, @TempDir Path dir) throws Exception {
        int aN = k / 2, bN = k / 4;
        StringBuilder loads = new StringBuilder();
        for (int i = 0; i < aN; i++) {
            loads.append("  ld.global.f64 a").append(i).append(", [ri+").append(8 * i).append("];\n");
        }
        for (int i = 0; i < bN; i++) {
            loads.append("  ld.global.f64 b").append(i).append(", [ri+").append(64 + 8 * i).append("];\n");
        }
        for (int i = 0; i < 4; i++) {
            loads.append("  ld.global.f64 c").append(i).append(", [ri+").append(96 + 8 * i).append("];\n");
        }
        String text = ".version 7.8\n.target TARGET\n.address_size 64\n"
                + ".visible .entry f64_mma(.param .u64 pin, .param .u64 pout)\n{\n"
                + "  .reg .f64 a<8>, b<4>, c<4>;\n  .reg .b32 lane;\n  .reg .u64 ri, ro, off;\n"
                + "  ld.param.u64 ri, [pin];\n  ld.param.u64 ro, [pout];\n  mov.u32 lane, %laneid;\n"
                + "  mul.wide.u32 off, lane, 128;\n  add.u64 ri, ri, off;\n"
                + "  mul.wide.u32 off, lane, 32;\n  add.u64 ro, ro, off;\n" + loads
                + "  mma.sync.aligned.m16n8k" + k + ".row.col.f64.f64.f64.f64 {c0, c1, c2, c3}, "
                + list("a", aN) + ", " + list("b", bN) + ", {c0, c1, c2, c3};\n"
                + "  st.global.v2.f64 [ro], {c0, c1};\n  st.global.v2.f64 [ro+16], {c2, c3};\n  ret;\n}\n";
        Random r = new Random(k);
        double[][] a = new double[16][k], b = new double[k][8];
        int[] in = new int[32 * 32];
        int[] expected = new int[32 * 8];
        double[][] c = new double[16][8];
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            for (int i = 0; i < aN; i++) {
                a[g + 8 * (i % 2)][t + 4 * (i / 2)] = putDouble(in, 32 * lane + 2 * i, r.nextInt(9) - 4);
            }
            for (int i = 0; i < bN; i++) {
                b[t + 4 * i][g] = putDouble(in, 32 * lane + 16 + 2 * i, r.nextInt(9) - 4);
            }
            for (int i = 0; i < 4; i++) {
                c[g + 8 * (i / 2)][2 * t + i % 2] = putDouble(in, 32 * lane + 24 + 2 * i, r.nextInt(9) - 4);
            }
        }
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            for (int i = 0; i < 4; i++) {
                int row = g + 8 * (i / 2), col = 2 * t + i % 2;
                double sum = c[row][col];
                for (int q = 0; q < k; q++) {
                    sum += a[row][q] * b[q][col];
                }
                putDouble(expected, 8 * lane + 2 * i, sum);
            }
        }
        Path ptx = dir.resolve("f64_mma.ptx");
        Files.writeString(ptx, text.replace("TARGET", "sm_90"));
        // A, B and C/D are tuples of up to sixteen registers, aligned as ptxas places them (eight; A of k16 sixteen)
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, "sm_90", false, false);
        assertTrue(ours.sass().contains("DMMA.16x8x" + k + " "), ours.sass());
        WarpKernelHarness.assertReadByNvdisasmAndHazardFree(ours, "sm_90", dir);
        assertArrayEquals(expected, WarpKernelHarness.emulate(ours.cubin(), "sm_90", WarpKernelHarness.launch(
                "sm_90", "f64_mma", in, expected.length, dir.resolve("jptxas"))), "jptxas's cubin");
        byte[] theirs = WarpKernelHarness.ptxas13Cubin(ptx, "sm_90");
        assertArrayEquals(expected, WarpKernelHarness.emulate(theirs, "sm_90", WarpKernelHarness.launch("sm_90",
                "f64_mma", in, expected.length, dir.resolve("ptxas"))), "ptxas's cubin");
        Launch interpreted = WarpKernelHarness.launch("sm_90", "f64_mma", in, expected.length, dir.resolve("interp"));
        LaunchResult run = PtxInterpreter.load("f64_mma.ptx", text.replace("TARGET", "sm_90"))
                .execute(interpreted, ExecutionLimits.DEFAULT);
        assertTrue(run.completed(), () -> run.fault().orElseThrow().describe());
        assertArrayEquals(expected, WarpKernelHarness.output(interpreted), "the interpreter");
    }

    @ParameterizedTest
    @CsvSource({"sm_89, f32, e4m3, e5m2, QMMA.16816.F32.E4M3.E5M2 ", "sm_89, f16, e5m2, e5m2, QMMA.16816.F16.E5M2.E5M2 ",
        "sm_90, f32, e5m2, e4m3, HMMA.1688.F32 ", "sm_90, f16, e4m3, e4m3, HMMA.1688.F16 "})
    void fp8K16(String arch, String acc, String ta, String tb, String sass, @TempDir Path dir) throws Exception {
        boolean f16 = acc.equals("f16");
        String cRegs = f16 ? "{h0, h1}" : "{c0, c1, c2, c3}";
        String text = ".version 8.7\n.target TARGET\n.address_size 64\n"
                + ".visible .entry fp8_k16(.param .u64 pin, .param .u64 pout)\n{\n"
                + "  .reg .b32 a<2>, b0, h<2>, lane;\n  .reg .f32 c<4>;\n  .reg .u64 ri, ro, off;\n"
                + "  ld.param.u64 ri, [pin];\n  ld.param.u64 ro, [pout];\n  mov.u32 lane, %laneid;\n"
                + "  mul.wide.u32 off, lane, 32;\n  add.u64 ri, ri, off;\n"
                + "  mul.wide.u32 off, lane, 16;\n  add.u64 ro, ro, off;\n"
                + "  ld.global.v2.b32 {a0, a1}, [ri];\n  ld.global.b32 b0, [ri+8];\n"
                + (f16 ? "  ld.global.v2.b32 {h0, h1}, [ri+16];\n" : "  ld.global.v4.f32 {c0, c1, c2, c3}, [ri+16];\n")
                + "  mma.sync.aligned.m16n8k16.row.col." + acc + "." + ta + "." + tb + "." + acc + " " + cRegs
                + ", {a0, a1}, {b0}, " + cRegs + ";\n"
                + (f16 ? "  st.global.v2.b32 [ro], {h0, h1};\n" : "  st.global.v4.f32 [ro], {c0, c1, c2, c3};\n")
                + "  ret;\n}\n";
        Random r = new Random(ta.hashCode() + 31 * tb.hashCode() + acc.hashCode());
        int[][] a = new int[16][16], b = new int[16][8];
        int[] in = new int[32 * 8], expected = new int[32 * 4];
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            for (int i = 0; i < 8; i++) {
                int v = r.nextInt(7) - 3;
                a[g + 8 * (i / 4)][4 * t + i % 4] = v;
                in[8 * lane + i / 4] |= fp8(v, ta) << 8 * (i % 4);
            }
            for (int i = 0; i < 4; i++) {
                int v = r.nextInt(7) - 3;
                b[4 * t + i][g] = v;
                in[8 * lane + 2] |= fp8(v, tb) << 8 * i;
            }
        }
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4;
            for (int i = 0; i < 4; i++) {
                int row = g + 8 * (i / 2), col = 2 * t + i % 2, cv = r.nextInt(17) - 8;
                long sum = cv;
                for (int q = 0; q < 16; q++) {
                    sum += (long) a[row][q] * b[q][col];
                }
                if (f16) {
                    in[8 * lane + 4 + i / 2] |= (SmallFloats.toHalf(cv) & 0xffff) << 16 * (i % 2);
                    expected[4 * lane + i / 2] |= (SmallFloats.toHalf(sum) & 0xffff) << 16 * (i % 2);
                } else {
                    in[8 * lane + 4 + i] = Float.floatToRawIntBits(cv);
                    expected[4 * lane + i] = Float.floatToRawIntBits(sum);
                }
            }
        }
        Path ptx = dir.resolve("fp8_k16.ptx");
        Files.writeString(ptx, text.replace("TARGET", arch));
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, arch, false, false);
        assertTrue(ours.sass().contains(sass), sass + "in\n" + ours.sass());
        WarpKernelHarness.assertThreeWays(REGISTRY, ptx, arch, text.replace("TARGET", "sm_89"), "fp8_k16", in, expected, dir);
    }

    /** Small integers (|v| <= 3) as e4m3 or e5m2. */
    private static int fp8(int v, String type) {
        int[] mag = type.equals("e4m3") ? new int[] {0x00, 0x38, 0x40, 0x44} : new int[] {0x00, 0x3c, 0x40, 0x42};
        return mag[Math.abs(v)] | (v < 0 ? 0x80 : 0);
    }

    private static double putDouble(int[] words, int at, double v) {
        long bits = Double.doubleToRawLongBits(v);
        words[at] = (int) bits;
        words[at + 1] = (int) (bits >>> 32);
        return v;
    }

    private static String list(String prefix, int n) {
        StringBuilder s = new StringBuilder("{");
        for (int i = 0; i < n; i++) {
            s.append(i == 0 ? "" : ", ").append(prefix).append(i);
        }
        return s.append('}').toString();
    }
}
