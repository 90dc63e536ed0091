package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.spi.BackendRegistry;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code mma.sp} and {@code mma.sp::ordered_metadata} (2:4-sparse A with metadata and a sparsity selector) for every
 * type family: one warp multiplies once, three ways (the emulator on jptxas's and on ptxas 13's cubin, the
 * interpreter), against a CPU reference that builds a sparse A, packs it (the kept elements in the dense fragment
 * layout of half the k, the kept positions into the selected lanes' metadata words; the other lanes' metadata words
 * are noise the multiply must not read) and multiplies the full matrices. Values are small integers, so every sum is
 * exact in every accumulator type.
 */
class SparseMmaEndToEndTest {
    private static final BackendRegistry REGISTRY =
            BackendRegistry.discover(SparseMmaEndToEndTest.class.getClassLoader());

    /** One multiply: its PTX name's tail, A's element type and bits, k, the selector and its SASS. */
    enum Form {
        F16_K16("sp", "m16n8k16.row.col.f32.f16.f16.f32", "f16", 16, 1, "HMMA.SP.16816.F32 "),
        F16_K32_F16("sp::ordered_metadata", "m16n8k32.row.col.f16.f16.f16.f16", "f16", 32, 0, "HMMA.SP.16832.F16 "),
        BF16_K16("sp::ordered_metadata", "m16n8k16.row.col.f32.bf16.bf16.f32", "bf16", 16, 3,
                "HMMA.SP.16816.F32.BF16 "),
        BF16_K32("sp", "m16n8k32.row.col.f32.bf16.bf16.f32", "bf16", 32, 1, "HMMA.SP.16832.F32.BF16 "),
        TF32_K8("sp", "m16n8k8.row.col.f32.tf32.tf32.f32", "tf32", 8, 2, "HMMA.SP.1688.F32.TF32 "),
        TF32_K16("sp::ordered_metadata", "m16n8k16.row.col.f32.tf32.tf32.f32", "tf32", 16, 1,
                "HMMA.SP.16816.F32.TF32 "),
        S8_K32("sp", "m16n8k32.row.col.satfinite.s32.s8.u8.s32", "s8u8", 32, 1, "IMMA.SP.16832.S8.U8.SAT "),
        U8_K64("sp::ordered_metadata", "m16n8k64.row.col.s32.u8.s8.s32", "u8s8", 64, 0, "IMMA.SP.16864.U8.S8 "),
        S4_K64("sp", "m16n8k64.row.col.s32.s4.u4.s32", "s4u4", 64, 1, "IMMA.SP.16864.S4.U4 "),
        U4_K128("sp::ordered_metadata", "m16n8k128.row.col.satfinite.s32.u4.s4.s32", "u4s4", 128, 0,
                "IMMA.SP.168128.U4.S4.SAT "),
        E4M3_K64("sp", "m16n8k64.row.col.f32.e4m3.e5m2.f32", "e4m3e5m2", 64, 0, "QMMA.SP.16864.F32.E4M3.E5M2 ");

        final String sparsity, name, type, sass;
        final int k, selector;

        Form(String sparsity, String name, String type, int k, int selector, String sass) {
            this.sparsity = sparsity;
            this.name = name;
            this.type = type;
            this.k = k;
            this.selector = selector;
            this.sass = sass;
        }

        int bits() {
            return switch (type) {
                case "f16", "bf16" -> 16;
                case "tf32" -> 32;
                case "s4u4", "u4s4" -> 4;
                default -> 8;
            };
        }

        boolean f16Accumulator() {
            return name.contains(".f16.f16.f16.f16");
        }

        int aRegs() {
            return 16 * k * bits() / 2 / 1024;
        }

        int bRegs() {
            return k * 8 * bits() / 1024;
        }

        int cRegs() {
            return f16Accumulator() ? 2 : 4;
        }

        boolean sat() {
            return name.contains("satfinite");
        }

        String ptx(String arch) {
            String version = "8.5"; // ::ordered_metadata needs 8.5
            StringBuilder body = new StringBuilder();
            body.append("  ld.global.v4.b32 {a0, a1, a2, a3}, [ri];\n");
            body.append("  ld.global.v4.b32 {b0, b1, b2, b3}, [ri+16];\n");
            body.append("  ld.global.v4.b32 {c0, c1, c2, c3}, [ri+32];\n");
            body.append("  ld.global.b32 e, [ri+48];\n");
            body.append("  mma.").append(sparsity).append(".sync.aligned.").append(name).append(' ')
                    .append(list("c", cRegs())).append(", ").append(list("a", aRegs())).append(", ")
                    .append(list("b", bRegs())).append(", ").append(list("c", cRegs())).append(", e, ")
                    .append(selector).append(";\n");
            body.append("  st.global.v4.b32 [ro], {c0, c1, c2, c3};\n");
            return ".version " + version + "\n.target " + arch + "\n.address_size 64\n"
                    + ".visible .entry sparse_mma(.param .u64 pin, .param .u64 pout)\n{\n"
                    + "  .reg .b32 a<4>, b<4>, c<4>, e, lane;\n  .reg .u64 ri, ro, off;\n"
                    + "  ld.param.u64 ri, [pin];\n  ld.param.u64 ro, [pout];\n  mov.u32 lane, %laneid;\n"
                    + "  mul.wide.u32 off, lane, 64;\n  add.u64 ri, ri, off;\n"
                    + "  mul.wide.u32 off, lane, 16;\n  add.u64 ro, ro, off;\n" + body + "  ret;\n}\n";
        }

        private static String list(String prefix, int n) {
            StringBuilder s = new StringBuilder("{");
            for (int i = 0; i < n; i++) {
                s.append(i == 0 ? "" : ", ").append(prefix).append(i);
            }
            return s.append('}').toString();
        }
    }

    @ParameterizedTest
    @CsvSource({"F16_K16, sm_80", "F16_K16, sm_90", "F16_K32_F16, sm_80", "F16_K32_F16, sm_89", "BF16_K16, sm_86",
        "BF16_K32, sm_90", "TF32_K8, sm_80", "TF32_K16, sm_90", "S8_K32, sm_80", "S8_K32, sm_90", "U8_K64, sm_86",
        "U8_K64, sm_90", "S4_K64, sm_80", "U4_K128, sm_89", "E4M3_K64, sm_89"})
    void threeWaysAgreeWithTheReference(Form form, String arch, @TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("sparse_mma.ptx");
        Files.writeString(ptx, form.ptx(arch));
        Problem p = new Problem(form, new Random(form.ordinal() * 31 + 7));
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, arch, false, false);
        assertTrue(ours.sass().contains(form.sass), form.sass + "in\n" + ours.sass());
        String interpreted = form.ptx(form.type.startsWith("e") ? "sm_89" : "sm_80");
        WarpKernelHarness.assertThreeWays(REGISTRY, ptx, arch, interpreted, "sparse_mma", p.in, p.expected, dir);
    }

    /** A random sparse problem packed into 32 lanes x 16 input words (A, B, C, metadata) and its 32 x 4 result. */
    static final class Problem {
        final int[] in = new int[32 * 16];
        final int[] expected = new int[32 * 4];

        Problem(Form f, Random r) {
            int k = f.k, bits = f.bits();
            long[][] a = new long[16][k], b = new long[k][8];
            // A: per chunk of four units two kept, ascending (valid for ::ordered_metadata too)
            int unitBits = bits == 4 ? 8 : bits == 32 ? 16 : bits, perUnit = Math.max(1, unitBits / bits);
            int chunks = k * bits / unitBits / 4, perSet = Math.max(1, chunks / 4);
            for (int lane = 0; lane < 32; lane++) {
                in[16 * lane + 12] = r.nextInt(); // noise: only the selected lanes' words are metadata
            }
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4;
                for (int q = 0; q < 4; q++) {
                    int l = 4 * g + q;
                    boolean selected = q >= (f.selector * perSet) % 4 && q < (f.selector * perSet) % 4 + perSet;
                    if (selected) {
                        in[16 * l + 12] = 0;
                    }
                }
            }
            long[][] stored = new long[16][k / 2];
            for (int row = 0; row < 16; row++) {
                for (int ch = 0; ch < chunks; ch++) {
                    int i0, i1;
                    if (bits == 32) {
                        int keep = r.nextInt(2);
                        i0 = 2 * keep;
                        i1 = 2 * keep + 1;
                    } else {
                        i0 = r.nextInt(3);
                        i1 = i0 + 1 + r.nextInt(3 - i0);
                    }
                    int lane = 4 * (row % 8) + (f.selector * perSet) % 4 + ch / 4;
                    in[16 * lane + 12] |= (i0 | i1 << 2) << 16 * (row / 8) + 4 * (ch % 4);
                    if (bits == 32) {
                        long v = value(f, r, true);
                        a[row][2 * ch + i0 / 2] = v;
                        stored[row][ch] = v;
                        continue;
                    }
                    int[] kept = {i0, i1};
                    for (int u = 0; u < 2; u++) {
                        for (int h = 0; h < perUnit; h++) {
                            long v = value(f, r, true);
                            a[row][(4 * ch + kept[u]) * perUnit + h] = v;
                            stored[row][(2 * ch + u) * perUnit + h] = v;
                        }
                    }
                }
            }
            int p = 32 / bits;
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4;
                // A: the dense fragment of half the k
                for (int e = 0; e < 16 * k / 2 / 32; e++) {
                    int row = g + 8 * ((e / p) % 2), col = p * t + e % p + 4 * p * (e / (2 * p));
                    in[16 * lane + e / p] |= encode(f, stored[row][col], true) << bits * (e % p);
                }
                for (int e = 0; e < k * 8 / 32; e++) {
                    int row = p * t + e % p + 4 * p * (e / p);
                    long v = value(f, r, false);
                    b[row][g] = v;
                    in[16 * lane + 4 + e / p] |= encode(f, v, false) << bits * (e % p);
                }
            }
            for (int lane = 0; lane < 32; lane++) {
                int g = lane / 4, t = lane % 4;
                for (int e = 0; e < 4; e++) {
                    int row = g + 8 * (e / 2), col = 2 * t + e % 2;
                    long c = f.sat() ? (lane % 2 == 0 ? Integer.MAX_VALUE - r.nextInt(1 << 12)
                            : Integer.MIN_VALUE + r.nextInt(1 << 12)) : r.nextInt(17) - 8;
                    long sum = c;
                    for (int q = 0; q < k; q++) {
                        sum += a[row][q] * b[q][col];
                    }
                    if (f.type.startsWith("s") || f.type.startsWith("u")) {
                        in[16 * lane + 8 + e] = (int) c;
                        expected[4 * lane + e] = f.sat()
                                ? (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, sum)) : (int) sum;
                    } else if (f.f16Accumulator()) {
                        in[16 * lane + 8 + e / 2] |= (SmallFloats.toHalf(c) & 0xffff) << 16 * (e % 2);
                        expected[4 * lane + e / 2] |= (SmallFloats.toHalf(sum) & 0xffff) << 16 * (e % 2);
                    } else {
                        in[16 * lane + 8 + e] = Float.floatToRawIntBits(c);
                        expected[4 * lane + e] = Float.floatToRawIntBits(sum);
                    }
                }
                if (f.f16Accumulator()) {
                    expected[4 * lane + 2] = in[16 * lane + 10];
                    expected[4 * lane + 3] = in[16 * lane + 11];
                }
            }
        }

        /** A value of A's ({@code a}) or B's element type: any integer of its range, else a small integer. */
        private static long value(Form f, Random r, boolean a) {
            if (!f.type.matches("[su][48][su][48]")) {
                return r.nextInt(7) - 3;
            }
            boolean signed = f.type.charAt(a ? 0 : 2) == 's';
            int bits = f.bits();
            return signed ? r.nextInt(1 << bits) - (1 << bits - 1) : r.nextInt(1 << bits);
        }

        /** The bits of A's ({@code a}) or B's element {@code v}. */
        private static int encode(Form f, long v, boolean a) {
            return switch (f.type) {
                case "f16" -> SmallFloats.toHalf(v) & 0xffff;
                case "bf16" -> Float.floatToRawIntBits(v) >>> 16;
                case "tf32" -> Float.floatToRawIntBits(v);
                case "e4m3e5m2" -> a ? e4m3(v) : e5m2(v);
                default -> (int) v & (1 << f.bits()) - 1;
            };
        }

        private static int e4m3(long v) {
            int[] mag = {0x00, 0x38, 0x40, 0x44};
            return mag[(int) Math.abs(v)] | (v < 0 ? 0x80 : 0);
        }

        private static int e5m2(long v) {
            int[] mag = {0x00, 0x3c, 0x40, 0x42};
            return mag[(int) Math.abs(v)] | (v < 0 ? 0x80 : 0);
        }
    }
}
