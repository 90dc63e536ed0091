package org.jptxas.cli.e2e;

import static org.jptxas.cli.e2e.SubByteMmaEndToEndTest.clamp;
import static org.jptxas.cli.e2e.SubByteMmaEndToEndTest.element;
import static org.jptxas.cli.e2e.SubByteMmaEndToEndTest.mismatches;
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
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.spi.BackendRegistry;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code mma.sync.aligned} with integer A and B of one width but different signedness ({@code .s32.s8.u8.s32},
 * {@code .u4.s4}, ...; {@code IMMA.16832.S8.U8}, {@code IMMA.8832.U4.S4.SAT}, ...), every shape of both widths, with
 * and without {@code .satfinite}; on sm_90 the 4-bit shapes are two 8-bit IMMAs whose A and B keep their own
 * signedness. Turing has only the m8 shapes: its variant leaves the m16 multiplies out (their D is C). jptxas's cubin
 * (read back by nvdisasm 12.5 as its {@code --out-sass}) and ptxas 13's run in the SASS emulator, and the PTX runs in
 * the interpreter, each checked against a CPU reference with the PTX ISA's fragment layout.
 */
class MixedSignMmaEndToEndTest {
    static final String TEMPLATE = """
            .version 7.8
            .target %TARGET%
            .address_size 64
            .visible .entry mixed_sign_mma(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 a<7>, b<4>;
              .reg .s32 c<10>;
              .reg .u32 lane, half;
              .reg .pred %p1;
              .reg .u64 ri, ro, off;
              ld.param.u64 ri, [pin];
              ld.param.u64 ro, [pout];
              mov.u32 lane, %laneid;
              mul.wide.u32 off, lane, 96;
              add.u64 ri, ri, off;
              mul.wide.u32 off, lane, 48;
              add.u64 ro, ro, off;
              mov.u32 half, 0;
            NEXT:
              ld.global.v4.b32 {a0, a1, a2, a3}, [ri];
              ld.global.v2.b32 {a4, a5}, [ri+16];
              ld.global.b32 a6, [ri+24];
              ld.global.b32 b0, [ri+28];
              ld.global.v2.b32 {b1, b2}, [ri+32];
              ld.global.b32 b3, [ri+40];
              ld.global.b32 c0, [ri+44];
              ld.global.v4.b32 {c1, c2, c3, c4}, [ri+48];
              ld.global.v4.b32 {c5, c6, c7, c8}, [ri+64];
              ld.global.b32 c9, [ri+80];
              setp.ne.u32 %p1, half, 0;
              @%p1 bra FOUR;
              %MMA0%
              %MMA1%
              %MMA2%
              bra.uni STORE;
            FOUR:
              %MMA3%
              %MMA4%
              %MMA5%
            STORE:
              st.global.v4.b32 [ro], {c0, c1, c2, c3};
              st.global.v4.b32 [ro+16], {c4, c5, c6, c7};
              st.global.v2.b32 [ro+32], {c8, c9};
              add.u64 ri, ri, 3072;
              add.u64 ro, ro, 1536;
              add.u32 half, half, 1;
              setp.lt.u32 %p1, half, 2;
              @%p1 bra NEXT;
              ret;
            }
            """;

    /** The operands of the three multiplies of each half: the large m16, the small m16 and the m8 shape. */
    private static final String[] OPERANDS = {"{c0, c1, c2, c3}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3}",
        "{c4, c5, c6, c7}, {a4, a5}, {b2}, {c4, c5, c6, c7}", "{c8, c9}, {a6}, {b3}, {c8, c9}"};
    private static final String[][] SHAPES = {{"m16n8k32", "m16n8k16", "m8n8k16"}, {"m16n8k64", "m16n8k32", "m8n8k32"}};

    /**
     * Per multiply (8-bit large m16, small m16, m8; then the 4-bit ones) whether A is signed (B is the other), and
     * whether it saturates: the two variants give every shape both orders and both saturations.
     */
    enum Variant {
        /** s.u, u.s .satfinite, s.u .satfinite; u.s .satfinite, s.u, u.s. */
        FIRST(new boolean[] {true, false, true, false, true, false},
                new boolean[] {false, true, true, true, false, false}),
        /** u.s .satfinite, s.u, u.s; s.u, u.s .satfinite, s.u .satfinite. */
        SECOND(new boolean[] {false, true, false, true, false, true},
                new boolean[] {true, false, false, false, true, true});

        final boolean[] signedA;
        final boolean[] sat;

        Variant(boolean[] signedA, boolean[] sat) {
            this.signedA = signedA;
            this.sat = sat;
        }

        /** The kernel; Turing's ({@code m8Only}) leaves the m16 multiplies out. */
        String ptx(String arch, boolean m8Only) {
            String text = TEMPLATE.replace("%TARGET%", arch);
            for (int j = 0; j < 6; j++) {
                int bits = j < 3 ? 8 : 4;
                String a = (signedA[j] ? "s" : "u") + bits, b = (signedA[j] ? "u" : "s") + bits;
                String mma = m8Only && j % 3 != 2 ? "" : "mma.sync.aligned." + SHAPES[j / 3][j % 3] + ".row.col"
                        + (sat[j] ? ".satfinite" : "") + ".s32." + a + "." + b + ".s32 " + OPERANDS[j % 3] + ";";
                text = text.replace("%MMA" + j + "%", mma);
            }
            return text;
        }

        /** The IMMA forms of jptxas's SASS: sm_90 runs 4-bit shapes as 8-bit IMMAs of half the k. */
        List<String> forms(String arch, boolean m8Only) {
            String[][] sass = {{"16832", "16816", "8816"}, {"16864", "16832", "8832"}};
            String[] narrow = {"16832", "16816", "8816"};
            boolean hopper = arch.equals("sm_90");
            List<String> l = new ArrayList<>();
            for (int j = 0; j < 6; j++) {
                if (m8Only && j % 3 != 2) {
                    continue;
                }
                boolean widened = hopper && j >= 3;
                String bits = j < 3 || widened ? "8" : "4";
                String a = (signedA[j] ? "S" : "U") + bits, b = (signedA[j] ? "U" : "S") + bits;
                l.add("IMMA." + (widened ? narrow[j % 3] : sass[j / 3][j % 3]) + "." + a + "." + b
                        + (sat[j] && !widened ? ".SAT " : " "));
            }
            return l;
        }
    }

    private static final BackendRegistry REGISTRY =
            BackendRegistry.discover(MixedSignMmaEndToEndTest.class.getClassLoader());

    /** Per-lane input words (A 4+2+1, B 2+1+1, C 4+4+2; 3 unused) and output words (10 used) of each half. */
    private static final int IN = 24, OUT = 12;

    @ParameterizedTest
    @CsvSource({"sm_75, FIRST", "sm_75, SECOND", "sm_80, FIRST", "sm_80, SECOND", "sm_86, FIRST", "sm_89, SECOND",
        "sm_90, FIRST", "sm_90, SECOND"})
    void bothCompilersCubinsComputeTheReference(String arch, Variant variant, @TempDir Path dir) throws Exception {
        boolean m8Only = arch.equals("sm_75");
        Path ptx = dir.resolve("mixed_sign_mma.ptx");
        Files.writeString(ptx, variant.ptx(arch, m8Only));
        int[] in = inputs(variant);
        int[] expected = reference(in, variant, m8Only);

        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, arch, false, false);
        for (String form : variant.forms(arch, m8Only)) {
            assertTrue(ours.sass().contains(form), form + " in\n" + ours.sass());
        }
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
        Launch launch = WarpKernelHarness.launch("sm_80", "mixed_sign_mma", in, 2 * 32 * OUT, dir);
        LaunchResult r = PtxInterpreter.load("mixed_sign_mma.ptx", variant.ptx("sm_80", false))
                .execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertEquals(List.of(), mismatches(WarpKernelHarness.output(launch), reference(in, variant, false)));
    }

    /**
     * Two halves (8-bit, 4-bit) of 32 lanes x 24 words (21 used): random A/B words; C small, except a .satfinite
     * multiply's, which starts near the s32 maximum (even lanes) or minimum (odd lanes), within reach of its products.
     */
    private static int[] inputs(Variant variant) {
        Random r = new Random(23);
        int[] in = new int[2 * 32 * IN];
        int[] first = {11, 15, 19}, count = {4, 4, 2};
        for (int half = 0; half < 2; half++) {
            for (int lane = 0; lane < 32; lane++) {
                int base = 32 * IN * half + IN * lane;
                for (int w = 0; w < 11; w++) {
                    in[base + w] = r.nextInt();
                }
                for (int w = 11; w < 21; w++) {
                    in[base + w] = r.nextInt(1 << 16) - (1 << 15);
                }
                for (int j = 0; j < 3; j++) {
                    for (int w = first[j]; variant.sat[3 * half + j] && w < first[j] + count[j]; w++) {
                        int bound = half == 0 ? 1 << 16 : 256;
                        in[base + w] = lane % 2 == 0 ? Integer.MAX_VALUE - r.nextInt(bound)
                                : Integer.MIN_VALUE + r.nextInt(bound);
                    }
                }
            }
        }
        return in;
    }

    /**
     * Both halves' D, with the PTX ISA's fragments (p elements per register): lane = 4g + t; A register j, element i
     * of the large m16 shape is A(g + 8 (j % 2), p t + i + 4p (j / 2)); of the small m16 shape A(g + 8j, p t + i); of
     * m8 A(g, p t + i). B register j, element i: B(p t + i + 4p j, g). C/D register e: (g + 8 (e / 2), 2t + e % 2)
     * for m16, (g, 2t + e) for m8. A multiply left out ({@code m8Only}) leaves D = C.
     */
    static int[] reference(int[] in, Variant variant, boolean m8Only) {
        int[] out = new int[2 * 32 * OUT];
        for (int half = 0; half < 2; half++) {
            int bits = half == 0 ? 8 : 4, p = 32 / bits, kBig = 8 * p, kSmall = 4 * p;
            boolean[] sa = new boolean[3], sat = new boolean[3];
            for (int j = 0; j < 3; j++) {
                sa[j] = variant.signedA[3 * half + j];
                sat[j] = variant.sat[3 * half + j];
            }
            long[][] a1 = new long[16][kBig], b1 = new long[kBig][8], a2 = new long[16][kSmall];
            long[][] b2 = new long[kSmall][8], a3 = new long[8][kSmall], b3 = new long[kSmall][8];
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4, base = 32 * IN * half + IN * lane;
                for (int i = 0; i < p; i++) {
                    for (int j = 0; j < 4; j++) {
                        a1[g + 8 * (j % 2)][p * t + i + 4 * p * (j / 2)] = element(in[base + j], i, bits, sa[0]);
                    }
                    for (int j = 0; j < 2; j++) {
                        a2[g + 8 * j][p * t + i] = element(in[base + 4 + j], i, bits, sa[1]);
                        b1[p * t + i + 4 * p * j][g] = element(in[base + 7 + j], i, bits, !sa[0]);
                    }
                    a3[g][p * t + i] = element(in[base + 6], i, bits, sa[2]);
                    b2[p * t + i][g] = element(in[base + 9], i, bits, !sa[1]);
                    b3[p * t + i][g] = element(in[base + 10], i, bits, !sa[2]);
                }
            }
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4, base = 32 * IN * half + IN * lane, o = 32 * OUT * half + OUT * lane;
                for (int e = 0; e < 4; e++) {
                    int row = g + 8 * (e / 2), col = 2 * t + e % 2;
                    long s1 = in[base + 11 + e], s2 = in[base + 15 + e];
                    for (int k = 0; k < kBig && !m8Only; k++) {
                        s1 += a1[row][k] * b1[k][col];
                    }
                    for (int k = 0; k < kSmall && !m8Only; k++) {
                        s2 += a2[row][k] * b2[k][col];
                    }
                    out[o + e] = clamp(s1, sat[0] && !m8Only);
                    out[o + 4 + e] = clamp(s2, sat[1] && !m8Only);
                }
                for (int e = 0; e < 2; e++) {
                    long s3 = in[base + 19 + e];
                    for (int k = 0; k < kSmall; k++) {
                        s3 += a3[g][k] * b3[k][2 * t + e];
                    }
                    out[o + 8 + e] = clamp(s3, sat[2]);
                }
            }
        }
        return out;
    }

    private static int[] run(byte[] cubin, String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.emulate(cubin, arch, WarpKernelHarness.launch(arch, "mixed_sign_mma", in,
                2 * 32 * OUT, dir));
    }
}
