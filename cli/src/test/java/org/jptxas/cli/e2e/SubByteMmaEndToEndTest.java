package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.ori.target.TargetFeature;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code mma.sync.aligned} with 4-bit integer inputs ({@code IMMA.16864.S4.S4}, {@code IMMA.16832.U4.U4.SAT},
 * {@code IMMA.8832.S4.S4}) and with 1-bit inputs ({@code BMMA.168256.AND.POPC}, {@code BMMA.168128.XOR.POPC},
 * {@code BMMA.88128.AND.POPC}: D = C + the population count of A AND/XOR B over k), on sm_90 as two 8-bit IMMAs or
 * two BMMA .AND.POPC per multiply (as ptxas 13 expands them there): jptxas's cubin, read back by nvdisasm 12.5 as its {@code --out-sass}, and ptxas 13's,
 * run in the SASS emulator, and the PTX run by the interpreter, each checked against a CPU reference that lays the
 * fragments out as the PTX ISA's figures for the 4-bit and 1-bit shapes do (8 nibbles or 32 bits per register, lowest
 * first). Sign
 * extension of s4, u4's range and {@code .satfinite}'s clamp (C near the s32 maximum) are all exercised.
 */
class SubByteMmaEndToEndTest {
    static final String PTX = """
            .version 7.1
            .target sm_80
            .address_size 64
            .visible .entry sub_byte_mma(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 a<7>, b<4>, c<10>;
              .reg .u64 ri, ro, off;
              ld.param.u64 ri, [pin];
              ld.param.u64 ro, [pout];
              mov.u32 a6, %laneid;
              mul.wide.u32 off, a6, 84;
              add.u64 ri, ri, off;
              mul.wide.u32 off, a6, 48;
              add.u64 ro, ro, off;
              ld.global.b32 a0, [ri];
              ld.global.b32 a1, [ri+4];
              ld.global.b32 a2, [ri+8];
              ld.global.b32 a3, [ri+12];
              ld.global.b32 a4, [ri+16];
              ld.global.b32 a5, [ri+20];
              ld.global.b32 a6, [ri+24];
              ld.global.b32 b0, [ri+28];
              ld.global.b32 b1, [ri+32];
              ld.global.b32 b2, [ri+36];
              ld.global.b32 b3, [ri+40];
              ld.global.b32 c0, [ri+44];
              ld.global.b32 c1, [ri+48];
              ld.global.b32 c2, [ri+52];
              ld.global.b32 c3, [ri+56];
              ld.global.b32 c4, [ri+60];
              ld.global.b32 c5, [ri+64];
              ld.global.b32 c6, [ri+68];
              ld.global.b32 c7, [ri+72];
              ld.global.b32 c8, [ri+76];
              ld.global.b32 c9, [ri+80];
              mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1},
                  {c0, c1, c2, c3};
              mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.u4.s32 {c4, c5, c6, c7}, {a4, a5}, {b2},
                  {c4, c5, c6, c7};
              mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {c8, c9}, {a6}, {b3}, {c8, c9};
              st.global.v4.b32 [ro], {c0, c1, c2, c3};
              st.global.v4.b32 [ro+16], {c4, c5, c6, c7};
              st.global.v2.b32 [ro+32], {c8, c9};
              // the binary part: the same registers from the second half of the input
              ld.global.b32 a0, [ri+2688];
              ld.global.b32 a1, [ri+2692];
              ld.global.b32 a2, [ri+2696];
              ld.global.b32 a3, [ri+2700];
              ld.global.b32 a4, [ri+2704];
              ld.global.b32 a5, [ri+2708];
              ld.global.b32 a6, [ri+2712];
              ld.global.b32 b0, [ri+2716];
              ld.global.b32 b1, [ri+2720];
              ld.global.b32 b2, [ri+2724];
              ld.global.b32 b3, [ri+2728];
              ld.global.b32 c0, [ri+2732];
              ld.global.b32 c1, [ri+2736];
              ld.global.b32 c2, [ri+2740];
              ld.global.b32 c3, [ri+2744];
              ld.global.b32 c4, [ri+2748];
              ld.global.b32 c5, [ri+2752];
              ld.global.b32 c6, [ri+2756];
              ld.global.b32 c7, [ri+2760];
              ld.global.b32 c8, [ri+2764];
              ld.global.b32 c9, [ri+2768];
              mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1},
                  {c0, c1, c2, c3};
              mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {c4, c5, c6, c7}, {a4, a5}, {b2},
                  {c4, c5, c6, c7};
              mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc {c8, c9}, {a6}, {b3}, {c8, c9};
              st.global.v4.b32 [ro+1536], {c0, c1, c2, c3};
              st.global.v4.b32 [ro+1552], {c4, c5, c6, c7};
              st.global.v2.b32 [ro+1568], {c8, c9};
              ret;
            }
            """;

    private static final BackendRegistry REGISTRY = BackendRegistry.discover(SubByteMmaEndToEndTest.class.getClassLoader());

    /** Per-lane input words (A 4+2+1, B 2+1+1, C 4+4+2) and output words (10 used) of each half. */
    private static final int IN = 21, OUT = 12;

    /**
     * The SASS each target writes: sm_80..89 have 4-bit IMMA and BMMA .XOR.POPC; sm_90 has neither and runs each
     * multiply as two 8-bit IMMAs of half the k (s4 as S8, u4 as U8) or two BMMA .AND.POPC of inverted operands.
     */
    private static List<String> forms(String arch) {
        if (arch.equals("sm_90")) {
            return List.of("IMMA.16832.S8.S8 ", "IMMA.16816.U8.U8 ", "IMMA.8816.S8.S8 ", "BMMA.168256.AND.POPC ",
                    "BMMA.168128.AND.POPC ", "BMMA.88128.AND.POPC ");
        }
        return List.of("IMMA.16864.S4.S4 ", "IMMA.16832.U4.U4.SAT ", "IMMA.8832.S4.S4 ", "BMMA.168256.AND.POPC ",
                "BMMA.168128.XOR.POPC ", "BMMA.88128.AND.POPC ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_86", "sm_89", "sm_90"})
    void bothCompilersCubinsComputeTheReference(String arch, @TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("sub_byte_mma.ptx");
        Files.writeString(ptx, PTX);
        int[] in = inputs();
        int[] expected = reference(in);

        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, arch, false, false);
        for (String form : forms(arch)) {
            assertTrue(ours.sass().contains(form), form + " in\n" + ours.sass());
        }
        assertFalse(arch.equals("sm_90") && (ours.sass().contains(".S4") || ours.sass().contains(".U4")
                || ours.sass().contains(".XOR")), ours.sass());
        assertEquals(List.of(), mismatches(run(ours.cubin(), arch, in, dir.resolve("jptxas")), expected),
                "jptxas's cubin");

        WarpKernelHarness.assertReadByNvdisasmAndHazardFree(ours, arch, dir);

        byte[] theirs = WarpKernelHarness.ptxas13Cubin(ptx, arch);
        assertEquals(List.of(), mismatches(run(theirs, arch, in, dir.resolve("ptxas")), expected), "ptxas's cubin");
    }

    @Test
    void theInterpreterComputesTheReference(@TempDir Path dir) throws Exception {
        int[] in = inputs();
        Launch launch = launch("sm_80", in, dir);
        LaunchResult r = PtxInterpreter.load("sub_byte_mma.ptx", PTX).execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertEquals(List.of(), mismatches(WarpKernelHarness.output(launch), reference(in)));
    }

    /** sm_90's SASS has no 4-bit IMMA and no BMMA .XOR.POPC, which sm_89's has: the expansion is the target's. */
    @Test
    void hopperWidensWhereAdaHasTheInstruction() {
        assertTrue(TestTargets.profile("sm_89").has(TargetFeature.INT4_IMMA)
                && TestTargets.profile("sm_89").has(TargetFeature.BINARY_MMA_XOR));
        assertFalse(TestTargets.profile("sm_90").has(TargetFeature.INT4_IMMA)
                || TestTargets.profile("sm_90").has(TargetFeature.BINARY_MMA_XOR));
    }

    /**
     * Two halves of 32 lanes x 21 words: random A/B words; C small, except the 4-bit .satfinite multiply's, which
     * starts near the s32 maximum.
     */
    private static int[] inputs() {
        Random r = new Random(64);
        int[] in = new int[2 * 32 * IN];
        for (int half = 0; half < 2; half++) {
            for (int lane = 0; lane < 32; lane++) {
                int base = 32 * IN * half + IN * lane;
                for (int w = 0; w < 11; w++) {
                    in[base + w] = r.nextInt();
                }
                for (int w = 11; w < 21; w++) {
                    in[base + w] = r.nextInt(1 << 16) - (1 << 15);
                }
                if (half == 0) { // u4 products sum to at most 32 * 225 = 7200: about half of these overflow
                    for (int w = 15; w < 19; w++) {
                        in[base + w] = Integer.MAX_VALUE - r.nextInt(14400);
                    }
                }
            }
        }
        return in;
    }

    /** Element {@code i} of {@code bits}-bit elements in a word, lowest first; s4 sign-extended. */
    private static int element(int word, int i, int bits, boolean signed) {
        int v = word >>> bits * i & (1 << bits) - 1;
        return signed && v >= 1 << bits - 1 ? v - (1 << bits) : v;
    }

    /**
     * Both halves' D. The PTX ISA's fragments with p elements per register (8 nibbles, or 32 bits): lane = 4g + t; A
     * register j, element i of the large m16 shape is A(g + 8 (j % 2), p t + i + 4p (j / 2)); of the small m16 shape
     * A(g + 8j, p t + i); of m8 A(g, p t + i). B register j, element i: B(p t + i + 4p j, g). C/D register e:
     * (g + 8 (e / 2), 2t + e % 2) for m16, (g, 2t + e) for m8. The 4-bit products are products (s4, u4 with
     * .satfinite, s4); the 1-bit ones AND, XOR, AND, each counted into the sum (popc).
     */
    static int[] reference(int[] in) {
        int[] out = new int[2 * 32 * OUT];
        for (int half = 0; half < 2; half++) {
            int bits = half == 0 ? 4 : 1, p = 32 / bits, kBig = 8 * p, kSmall = 4 * p;
            boolean[] signed = half == 0 ? new boolean[] {true, false, true} : new boolean[] {false, false, false};
            long[][] a1 = new long[16][kBig], b1 = new long[kBig][8], a2 = new long[16][kSmall];
            long[][] b2 = new long[kSmall][8], a3 = new long[8][kSmall], b3 = new long[kSmall][8];
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4, base = 32 * IN * half + IN * lane;
                for (int i = 0; i < p; i++) {
                    for (int j = 0; j < 4; j++) {
                        a1[g + 8 * (j % 2)][p * t + i + 4 * p * (j / 2)] = element(in[base + j], i, bits, signed[0]);
                    }
                    for (int j = 0; j < 2; j++) {
                        a2[g + 8 * j][p * t + i] = element(in[base + 4 + j], i, bits, signed[1]);
                        b1[p * t + i + 4 * p * j][g] = element(in[base + 7 + j], i, bits, signed[0]);
                    }
                    a3[g][p * t + i] = element(in[base + 6], i, bits, signed[2]);
                    b2[p * t + i][g] = element(in[base + 9], i, bits, signed[1]);
                    b3[p * t + i][g] = element(in[base + 10], i, bits, signed[2]);
                }
            }
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4, base = 32 * IN * half + IN * lane, o = 32 * OUT * half + OUT * lane;
                for (int e = 0; e < 4; e++) {
                    int row = g + 8 * (e / 2), col = 2 * t + e % 2;
                    long s1 = in[base + 11 + e], s2 = in[base + 15 + e];
                    for (int k = 0; k < kBig; k++) {
                        s1 += a1[row][k] * b1[k][col];
                    }
                    for (int k = 0; k < kSmall; k++) {
                        s2 += half == 0 ? a2[row][k] * b2[k][col] : a2[row][k] ^ b2[k][col];
                    }
                    out[o + e] = (int) s1;
                    out[o + 4 + e] = half == 0 ? (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, s2))
                            : (int) s2;
                }
                for (int e = 0; e < 2; e++) {
                    long s3 = in[base + 19 + e];
                    for (int k = 0; k < kSmall; k++) {
                        s3 += a3[g][k] * b3[k][2 * t + e];
                    }
                    out[o + 8 + e] = (int) s3;
                }
            }
        }
        return out;
    }

    private static int[] run(byte[] cubin, String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.emulate(cubin, arch, launch(arch, in, dir));
    }

    private static Launch launch(String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.launch(arch, "sub_byte_mma", in, 2 * 32 * OUT, dir);
    }

    private static List<String> mismatches(int[] actual, int[] expected) {
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < expected.length && bad.size() < 5; i++) {
            if (actual[i] != expected[i]) {
                bad.add("half " + i / (32 * OUT) + " lane " + i % (32 * OUT) / OUT + " word " + i % OUT + ": " + actual[i]
                        + ", expected " + expected[i]);
            }
        }
        return bad;
    }
}
