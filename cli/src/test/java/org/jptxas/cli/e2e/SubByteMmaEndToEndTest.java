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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code mma.sync.aligned} with 4-bit integer inputs ({@code IMMA.16864.S4.S4}, {@code IMMA.16832.U4.U4.SAT},
 * {@code IMMA.8832.S4.S4}, ...) and with 1-bit inputs ({@code BMMA.168256.AND.POPC}, {@code BMMA.168128.XOR.POPC},
 * ...: D = C + the population count of A AND/XOR B over k), in two variants that give every shape each type,
 * saturation and operation; on sm_90, which has neither 4-bit IMMA nor BMMA .XOR.POPC, each multiply is two 8-bit
 * IMMAs or two BMMA .AND.POPC (as ptxas 13 expands them there). jptxas's cubin, read back by nvdisasm 12.5 as its
 * {@code --out-sass}, and ptxas 13's, run in the SASS emulator, and the PTX run by the interpreter, each checked
 * against a CPU reference that lays the fragments out as the PTX ISA's figures for the 4-bit and 1-bit shapes do (8
 * nibbles or 32 bits per register, lowest first). Sign extension of s4, u4's range and {@code .satfinite}'s clamp (C
 * near the s32 maximum and minimum) are all exercised.
 */
class SubByteMmaEndToEndTest {
    static final String TEMPLATE = """
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
              %MMA0%
              %MMA1%
              %MMA2%
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
              %MMA3%
              %MMA4%
              %MMA5%
              st.global.v4.b32 [ro+1536], {c0, c1, c2, c3};
              st.global.v4.b32 [ro+1552], {c4, c5, c6, c7};
              st.global.v2.b32 [ro+1568], {c8, c9};
              ret;
            }
            """;

    /** The operands of the three multiplies of each half: the large m16, the small m16 and the m8 shape. */
    private static final String[] OPERANDS = {"{c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3}",
        "{c4, c5, c6, c7}, {a4, a5}, {b2}, {c4, c5, c6, c7}", "{c8, c9}, {a6}, {b3}, {c8, c9}"};
    private static final String[] FOUR_BIT_SHAPES = {"m16n8k64", "m16n8k32", "m8n8k32"};
    private static final String[] ONE_BIT_SHAPES = {"m16n8k256", "m16n8k128", "m8n8k128"};

    /**
     * Per multiply (large m16, small m16, m8 shape) the 4-bit type (s4 or u4) and {@code .satfinite}, and the 1-bit
     * operation (xor or and): together the two variants give every shape each type, saturation and operation.
     */
    enum Variant {
        /** s4, u4 .satfinite, s4; and, xor, and. */
        FIRST(new boolean[] {true, false, true}, new boolean[] {false, true, false}, new boolean[] {false, true, false}),
        /** u4 .satfinite, s4, s4 .satfinite; xor, and, xor. */
        SECOND(new boolean[] {false, true, true}, new boolean[] {true, false, true}, new boolean[] {true, false, true});

        final boolean[] signed;
        final boolean[] sat;
        final boolean[] xor;

        Variant(boolean[] signed, boolean[] sat, boolean[] xor) {
            this.signed = signed;
            this.sat = sat;
            this.xor = xor;
        }

        String ptx() {
            String text = TEMPLATE;
            for (int j = 0; j < 3; j++) {
                String t = signed[j] ? "s4" : "u4";
                text = text.replace("%MMA" + j + "%", "mma.sync.aligned." + FOUR_BIT_SHAPES[j] + ".row.col"
                        + (sat[j] ? ".satfinite" : "") + ".s32." + t + "." + t + ".s32 " + OPERANDS[j] + ";");
                text = text.replace("%MMA" + (3 + j) + "%", "mma.sync.aligned." + ONE_BIT_SHAPES[j]
                        + ".row.col.s32.b1.b1.s32." + (xor[j] ? "xor" : "and") + ".popc " + OPERANDS[j] + ";");
            }
            return text;
        }

        /**
         * The SASS each target writes: sm_80..89 have 4-bit IMMA and BMMA .XOR.POPC; sm_90 has neither and runs each
         * multiply as two 8-bit IMMAs of half the k (s4 as S8, u4 as U8) or two BMMA .AND.POPC of inverted operands.
         */
        List<String> forms(String arch) {
            String[] wide = {"16864", "16832", "8832"}, narrow = {"16832", "16816", "8816"};
            String[] binary = {"168256", "168128", "88128"};
            boolean hopper = arch.equals("sm_90");
            List<String> l = new ArrayList<>();
            for (int j = 0; j < 3; j++) {
                String t = (signed[j] ? "S" : "U") + (hopper ? "8" : "4");
                l.add("IMMA." + (hopper ? narrow[j] : wide[j]) + "." + t + "." + t + (sat[j] && !hopper ? ".SAT " : " "));
                l.add("BMMA." + binary[j] + "." + (xor[j] && !hopper ? "XOR" : "AND") + ".POPC ");
            }
            return l;
        }
    }

    private static final BackendRegistry REGISTRY = BackendRegistry.discover(SubByteMmaEndToEndTest.class.getClassLoader());

    /** Per-lane input words (A 4+2+1, B 2+1+1, C 4+4+2) and output words (10 used) of each half. */
    private static final int IN = 21, OUT = 12;

    @ParameterizedTest
    @CsvSource({"sm_80, FIRST", "sm_86, FIRST", "sm_89, FIRST", "sm_90, FIRST", "sm_80, SECOND", "sm_89, SECOND",
        "sm_90, SECOND"})
    void bothCompilersCubinsComputeTheReference(String arch, Variant variant, @TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("sub_byte_mma.ptx");
        Files.writeString(ptx, variant.ptx());
        int[] in = inputs(variant);
        int[] expected = reference(in, variant);

        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, arch, false, false);
        for (String form : variant.forms(arch)) {
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

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theInterpreterComputesTheReference(Variant variant, @TempDir Path dir) throws Exception {
        int[] in = inputs(variant);
        Launch launch = launch("sm_80", in, dir);
        LaunchResult r = PtxInterpreter.load("sub_byte_mma.ptx", variant.ptx()).execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertEquals(List.of(), mismatches(WarpKernelHarness.output(launch), reference(in, variant)));
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
     * Two halves of 32 lanes x 21 words: random A/B words; C small, except the 4-bit .satfinite multiplies', which
     * start near the s32 maximum or (s4) minimum.
     */
    private static int[] inputs(Variant variant) {
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
                // a .satfinite multiply's C lies within the products' range (at most 64 * 225 = 14400 for u4,
                // 64 * 64 = 4096 in magnitude for s4) of the s32 maximum (even lanes) or minimum (odd lanes)
                int[] first = {11, 15, 19}, count = {4, 4, 2};
                for (int j = 0; j < 3; j++) {
                    for (int w = first[j]; half == 0 && variant.sat[j] && w < first[j] + count[j]; w++) {
                        int bound = variant.signed[j] ? 4096 : 14400;
                        in[base + w] = lane % 2 == 0 || !variant.signed[j] ? Integer.MAX_VALUE - r.nextInt(bound)
                                : Integer.MIN_VALUE + r.nextInt(bound);
                    }
                }
            }
        }
        return in;
    }

    /** Element {@code i} of {@code bits}-bit elements in a word, lowest first; s4 sign-extended. */
    static int element(int word, int i, int bits, boolean signed) {
        int v = word >>> bits * i & (1 << bits) - 1;
        return signed && v >= 1 << bits - 1 ? v - (1 << bits) : v;
    }

    /**
     * Both halves' D. The PTX ISA's fragments with p elements per register (8 nibbles, or 32 bits): lane = 4g + t; A
     * register j, element i of the large m16 shape is A(g + 8 (j % 2), p t + i + 4p (j / 2)); of the small m16 shape
     * A(g + 8j, p t + i); of m8 A(g, p t + i). B register j, element i: B(p t + i + 4p j, g). C/D register e:
     * (g + 8 (e / 2), 2t + e % 2) for m16, (g, 2t + e) for m8. The 4-bit products are products (of the variant's
     * types, clamped where it saturates); the 1-bit ones AND or XOR, each counted into the sum (popc).
     */
    static int[] reference(int[] in, Variant variant) {
        int[] out = new int[2 * 32 * OUT];
        for (int half = 0; half < 2; half++) {
            int bits = half == 0 ? 4 : 1, p = 32 / bits, kBig = 8 * p, kSmall = 4 * p;
            boolean[] signed = half == 0 ? variant.signed : new boolean[] {false, false, false};
            boolean[] sat = half == 0 ? variant.sat : new boolean[] {false, false, false};
            boolean[] xor = half == 0 ? new boolean[] {false, false, false} : variant.xor;
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
                        s1 += product(a1[row][k], b1[k][col], xor[0]);
                    }
                    for (int k = 0; k < kSmall; k++) {
                        s2 += product(a2[row][k], b2[k][col], xor[1]);
                    }
                    out[o + e] = clamp(s1, sat[0]);
                    out[o + 4 + e] = clamp(s2, sat[1]);
                }
                for (int e = 0; e < 2; e++) {
                    long s3 = in[base + 19 + e];
                    for (int k = 0; k < kSmall; k++) {
                        s3 += product(a3[g][k], b3[k][2 * t + e], xor[2]);
                    }
                    out[o + 8 + e] = clamp(s3, sat[2]);
                }
            }
        }
        return out;
    }

    /** An element product: integers multiply; bits AND (the same) or XOR. */
    private static long product(long a, long b, boolean xor) {
        return xor ? a ^ b : a * b;
    }

    /** A sum wrapped to s32, or with .satfinite clamped to its range. */
    static int clamp(long sum, boolean sat) {
        return sat ? (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, sum)) : (int) sum;
    }

    private static int[] run(byte[] cubin, String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.emulate(cubin, arch, launch(arch, in, dir));
    }

    private static Launch launch(String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.launch(arch, "sub_byte_mma", in, 2 * 32 * OUT, dir);
    }

    /** The first few words that differ, by half, lane and word (both kernels write 12 words per lane and half). */
    static List<String> mismatches(int[] actual, int[] expected) {
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
