package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.spi.BackendRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code mma.sync.aligned.m16n8k32} with fp8 inputs on sm_89 ({@code QMMA.16832.F32.E4M3.E5M2} with an f32
 * accumulator, {@code QMMA.16832.F16.E5M2.E4M3} with an f16 one; and the same-type pairs, E4M3.E4M3 with f32 and
 * E5M2.E5M2 with f16) and on sm_90, which has no QMMA (F2FP unpacks the
 * bytes to f16 pairs, two HMMA.16816 per multiply, C added last, as ptxas 13 expands them): jptxas's cubin, read back by nvdisasm 12.5 as its
 * {@code --out-sass}, and ptxas 13's, run in the SASS emulator, and the PTX run by the interpreter, each checked
 * against a CPU reference that lays the fragments out as the PTX ISA's m16n8k32 8-bit figures do (4 bytes per
 * register, lowest first). The inputs are fp8 values between 1/2 and 8 with random signs, so every f32 sum is exact
 * whatever the tensor core's order; an f16 result may differ from the reference's rounding in its last bit.
 */
class Fp8MmaEndToEndTest {
    /** The kernel with the two multiplies' input types ({@code e4m3.e5m2}: A e4m3, B e5m2). */
    static String ptx(String f32Types, String f16Types) {
        return PTX.replace("f32.e4m3.e5m2.f32", "f32." + f32Types + ".f32").replace("f16.e5m2.e4m3.f16",
                "f16." + f16Types + ".f16");
    }

    static final String PTX = """
            .version 8.7
            .target sm_89
            .address_size 64
            .visible .entry fp8_mma(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 a<4>, b<2>, h<2>, e<2>, l;
              .reg .f32 c<4>, d<4>;
              .reg .u64 ri, ro, off;
              ld.param.u64 ri, [pin];
              ld.param.u64 ro, [pout];
              mov.u32 l, %laneid;
              mul.wide.u32 off, l, 48;
              add.u64 ri, ri, off;
              mul.wide.u32 off, l, 32;
              add.u64 ro, ro, off;
              ld.global.v4.b32 {a0, a1, a2, a3}, [ri];
              ld.global.v2.b32 {b0, b1}, [ri+16];
              ld.global.v2.f32 {c0, c1}, [ri+24];
              ld.global.v2.f32 {c2, c3}, [ri+32];
              ld.global.v2.b32 {h0, h1}, [ri+40];
              mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {d0, d1, d2, d3}, {a0, a1, a2, a3}, {b0, b1},
                  {c0, c1, c2, c3};
              mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16 {e0, e1}, {a0, a1, a2, a3}, {b0, b1}, {h0, h1};
              st.global.v4.f32 [ro], {d0, d1, d2, d3};
              st.global.v2.b32 [ro+16], {e0, e1};
              ret;
            }
            """;

    private static final BackendRegistry REGISTRY = BackendRegistry.discover(Fp8MmaEndToEndTest.class.getClassLoader());

    /** Per-lane input words (A 4, B 2, f32 C 4, f16 C 2) and output words (f32 D 4, f16 D 2, 2 unused). */
    private static final int IN = 12, OUT = 8;

    /** sm_89's QMMA, or on sm_90 (no QMMA) the bytes unpacked to f16 pairs for two HMMA.16816 per multiply. */
    private static List<String> forms(String arch, String f32Types, String f16Types) {
        return arch.equals("sm_90")
                ? List.of("F2FP.F16.E4M3.UNPACK_B ", "F2FP.F16.E5M2.UNPACK_B ", "HMMA.16816.F32 ", "HMMA.16816.F16 ")
                : List.of("QMMA.16832.F32." + f32Types.toUpperCase() + " ",
                        "QMMA.16832.F16." + f16Types.toUpperCase() + " ");
    }

    @ParameterizedTest
    @CsvSource({"sm_89, e4m3.e5m2, e5m2.e4m3", "sm_90, e4m3.e5m2, e5m2.e4m3", "sm_89, e4m3.e4m3, e5m2.e5m2",
            "sm_90, e4m3.e4m3, e5m2.e5m2"})
    void bothCompilersCubinsComputeTheReference(String arch, String f32Types, String f16Types, @TempDir Path dir)
            throws Exception {
        Path ptx = dir.resolve("fp8_mma.ptx");
        Files.writeString(ptx, ptx(f32Types, f16Types));
        int[] in = inputs();
        int[] expected = reference(in, f32Types, f16Types, arch.equals("sm_90"));

        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, arch, false, false);
        for (String form : forms(arch, f32Types, f16Types)) {
            assertTrue(ours.sass().contains(form), form + " in\n" + ours.sass());
        }
        // sm_90's expansion rounds an f16 result three times (each half's HMMA, then the addition of C)
        int ulps = arch.equals("sm_90") ? 2 : 1;
        int[] mine = run(ours.cubin(), arch, in, dir.resolve("jptxas"));
        assertEquals(List.of(), mismatches(mine, expected, ulps), "jptxas's cubin");

        WarpKernelHarness.assertReadByNvdisasmAndHazardFree(ours, arch, dir);

        byte[] theirs = WarpKernelHarness.ptxas13Cubin(ptx, arch);
        int[] ptxas = run(theirs, arch, in, dir.resolve("ptxas"));
        assertEquals(List.of(), mismatches(ptxas, expected, ulps), "ptxas's cubin");
        // the same multiplies and additions in the same order as ptxas's: the same bits
        assertEquals(List.of(), mismatches(mine, ptxas, 0), "jptxas's cubin against ptxas's");
    }

    @Test
    void theInterpreterComputesTheReference(@TempDir Path dir) throws Exception {
        int[] in = inputs();
        Launch launch = launch("sm_89", in, dir);
        LaunchResult r = PtxInterpreter.load("fp8_mma.ptx", PTX).execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertEquals(List.of(), mismatches(WarpKernelHarness.output(launch), reference(in, "e4m3.e5m2", "e5m2.e4m3", false),
                1));
    }

    private static double value(String type, int b) {
        return type.equals("e4m3") ? e4m3Value(b) : e5m2Value(b);
    }

    /** An e4m3 byte of magnitude in [1/2, 8): exponent field 6..9. */
    private static int e4m3(Random r) {
        return r.nextInt(2) << 7 | (6 + r.nextInt(4)) << 3 | r.nextInt(8);
    }

    /** An e5m2 byte of magnitude in [1/2, 8): exponent field 14..17. */
    private static int e5m2(Random r) {
        return r.nextInt(2) << 7 | (14 + r.nextInt(4)) << 2 | r.nextInt(4);
    }

    private static double e4m3Value(int b) {
        double v = (8 + (b & 7)) / 8.0 * Math.scalb(1.0, (b >>> 3 & 15) - 7);
        return (b & 0x80) != 0 ? -v : v;
    }

    private static double e5m2Value(int b) {
        double v = (4 + (b & 3)) / 4.0 * Math.scalb(1.0, (b >>> 2 & 31) - 15);
        return (b & 0x80) != 0 ? -v : v;
    }

    /**
     * 32 lanes x 12 words. A's bytes serve as e4m3 in the first multiply and as e5m2 in the second, B's the other way
     * round, so each byte is drawn to be in range as both (the e4m3 and e5m2 fields of one byte differ): a byte is
     * kept when both readings have magnitude in [1/2, 8). C is small integers (f32) and small halves (f16).
     */
    private static int[] inputs() {
        Random r = new Random(89);
        int[] in = new int[32 * IN];
        for (int lane = 0; lane < 32; lane++) {
            int base = IN * lane;
            for (int w = 0; w < 6; w++) {
                int word = 0;
                for (int i = 0; i < 4; i++) {
                    word |= inBoth(r) << 8 * i;
                }
                in[base + w] = word;
            }
            for (int w = 6; w < 10; w++) {
                in[base + w] = Float.floatToRawIntBits(r.nextInt(64) - 32);
            }
            for (int w = 10; w < 12; w++) {
                in[base + w] = SmallFloats.toHalf(r.nextInt(16) - 8) | SmallFloats.toHalf(r.nextInt(16) - 8) << 16;
            }
        }
        return in;
    }

    private static int inBoth(Random r) {
        while (true) {
            int b = r.nextBoolean() ? e4m3(r) : e5m2(r);
            double x = Math.abs(e4m3Value(b)), y = Math.abs(e5m2Value(b));
            if (x >= 0.5 && x < 8 && y >= 0.5 && y < 8) {
                return b;
            }
        }
    }

    /**
     * D of both multiplies. m16n8k32 with 8-bit elements: lane = 4g + t; A register j, byte i is
     * A(g + 8 (j % 2), 4t + i + 16 (j / 2)); B register j, byte i is B(4t + i + 16j, g); C/D element e (f32: register
     * e; f16: half e % 2 of register e / 2) is (g + 8 (e / 2), 2t + e % 2).
     */
    static int[] reference(int[] in, String f32Types, String f16Types, boolean widened) {
        String[] t32 = f32Types.split("\\."), t16 = f16Types.split("\\.");
        int[][] a = new int[16][32], b = new int[32][8];
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4, base = IN * lane;
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    a[g + 8 * (j % 2)][4 * t + i + 16 * (j / 2)] = in[base + j] >>> 8 * i & 0xff;
                }
                for (int j = 0; j < 2; j++) {
                    b[4 * t + i + 16 * j][g] = in[base + 4 + j] >>> 8 * i & 0xff;
                }
            }
        }
        int[] out = new int[32 * OUT];
        for (int lane = 0; lane < 32; lane++) {
            int g = lane / 4, t = lane % 4, base = IN * lane, o = OUT * lane;
            for (int e = 0; e < 4; e++) {
                int row = g + 8 * (e / 2), col = 2 * t + e % 2;
                double s32 = Float.intBitsToFloat(in[base + 6 + e]);
                double c16 = SmallFloats.halfToFloat(in[base + 10 + e / 2] >>> 16 * (e % 2) & 0xffff);
                double s16 = c16;
                double[] pairs = new double[2];
                for (int k = 0; k < 32; k++) {
                    s32 += value(t32[0], a[row][k]) * value(t32[1], b[k][col]);
                    double p = value(t16[0], a[row][k]) * value(t16[1], b[k][col]);
                    s16 += p;
                    pairs[k % 4 / 2] += p;
                }
                if (widened) {
                    // sm_90's expansion: an f16 HMMA over the low byte pairs, one over the high pairs on its result,
                    // then C added: three roundings to f16
                    double low = SmallFloats.halfToFloat(SmallFloats.toHalf(pairs[0]));
                    double both = SmallFloats.halfToFloat(SmallFloats.toHalf(low + pairs[1]));
                    s16 = both + c16;
                }
                out[o + e] = Float.floatToRawIntBits((float) s32);
                out[o + 4 + e / 2] |= SmallFloats.toHalf(s16) << 16 * (e % 2);
            }
        }
        return out;
    }

    private static int[] run(byte[] cubin, String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.emulate(cubin, arch, launch(arch, in, dir));
    }

    private static Launch launch(String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.launch(arch, "fp8_mma", in, 32 * OUT, dir);
    }

    /**
     * f32 words must match exactly; each f16 half may differ by {@code ulps} in its last bits (the tensor core's
     * rounding).
     */
    private static List<String> mismatches(int[] actual, int[] expected, int ulps) {
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < expected.length && bad.size() < 5; i++) {
            boolean ok;
            if (i % OUT < 4) {
                ok = actual[i] == expected[i];
            } else {
                ok = Math.abs((actual[i] & 0xffff) - (expected[i] & 0xffff)) <= ulps
                        && Math.abs((actual[i] >>> 16) - (expected[i] >>> 16)) <= ulps;
            }
            if (!ok) {
                bad.add("lane " + i / OUT + " word " + i % OUT + ": " + Integer.toHexString(actual[i]) + ", expected "
                        + Integer.toHexString(expected[i]));
            }
        }
        return bad;
    }
}
