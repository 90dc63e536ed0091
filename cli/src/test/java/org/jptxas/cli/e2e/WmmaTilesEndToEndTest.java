package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.jptxas.frontend.ptx.isa.WmmaFragment;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.spi.BackendRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code wmma.mma} of the forms {@link org.jptxas.frontend.ptx.isa.WmmaTiles} describes (s8/u8, bf16, f16 of the
 * rectangular shapes with any accumulator types, f64 m8n8k4, s4/u4 m8n8k32, b1 m8n8k128), between {@code wmma.load} of A, B and C in the layouts
 * a case names and {@code wmma.store} of D: small integers, so every sum is exact and the interpreter, the emulator on
 * jptxas's cubin (read back by nvdisasm 12.5 as its {@code --out-sass}) and on ptxas 13's agree bit for bit with the
 * CPU reference.
 */
class WmmaTilesEndToEndTest {
    static final String KERNEL = """
            .version 7.8
            .target %TARGET%
            .address_size 64
            .visible .entry wmma_tiles(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 a<8>, b<8>, c<8>, d<8>;
              .reg .s32 s<8>, t<8>;
              .reg .f32 f<8>, g<8>;
              .reg .f64 x<1>, y<1>, z<2>, w<2>;
              .reg .u64 ri, ro;
              ld.param.u64 ri, [pin];
              ld.param.u64 ro, [pout];
              cvta.to.global.u64 ri, ri;
              cvta.to.global.u64 ro, ro;
              wmma.load.a.sync.aligned.%AL%.%SHAPE%.global.%IN% {%A%}, [ri];
              wmma.load.b.sync.aligned.%BL%.%SHAPE%.global.%IN% {%B%}, [ri+2048];
              wmma.load.c.sync.aligned.%CL%.%SHAPE%.global.%C% {%CR%}, [ri+4096];
              wmma.mma.sync.aligned.%AL%.%BL%.%SHAPE%%TYPES% {%DR%}, {%A%}, {%B%}, {%CR%};
              wmma.store.d.sync.aligned.%DL%.%SHAPE%.global.%D% [ro], {%DR%};
              ret;
            }
            """;

    private static final BackendRegistry REGISTRY =
            BackendRegistry.discover(WmmaTilesEndToEndTest.class.getClassLoader());

    private static final int IN = 1537, OUT = 1024;

    /** One case: the shape, input type, D and C types, the mma's extra modifiers ("sat", "xor", "and" or "-"). */
    record Case(String shape, String in, String d, String c, String extra, String al, String bl, String cl, String dl) {
        int m() {
            return shape.equals("m32n8k16") ? 32 : shape.startsWith("m8") ? 8 : 16;
        }

        int n() {
            return shape.equals("m8n32k16") ? 32 : shape.startsWith("m8n8") || shape.equals("m32n8k16") ? 8 : 16;
        }

        int k() {
            return Integer.parseInt(shape.substring(shape.indexOf('k') + 1));
        }

        String types() {
            return switch (in) {
                case "f16" -> "." + d + "." + c;
                case "b1" -> ".s32.b1.b1.s32." + extra + ".popc";
                default -> (extra.equals("sat") ? ".satfinite" : "") + "." + d + "." + in + "." + in + "." + c;
            };
        }

        String ptx(String arch) {
            return KERNEL.replace("%TARGET%", arch).replace("%SHAPE%", shape).replace("%IN%", in)
                    .replace("%C%", c).replace("%D%", d).replace("%TYPES%", types()).replace("%AL%", al)
                    .replace("%BL%", bl).replace("%CL%", cl).replace("%DL%", dl)
                    .replace("%A%", regs(in.equals("f64") ? "x" : "a", fragment("a", al, in).registers()))
                    .replace("%B%", regs(in.equals("f64") ? "y" : "b", fragment("b", bl, in).registers()))
                    .replace("%CR%", regs(accumulatorRegister(c, "c", "s", "f", "z"), fragment("c", cl, c).registers()))
                    .replace("%DR%", regs(accumulatorRegister(d, "d", "t", "g", "w"), fragment("c", dl, d).registers()));
        }

        WmmaFragment fragment(String which, String layout, String type) {
            return WmmaFragment.of(List.of(("load." + which + ".sync.aligned." + layout + "." + shape + "." + type)
                    .split("\\.")));
        }

        private static String accumulatorRegister(String type, String f16, String s32, String f32, String f64) {
            return switch (type) {
                case "f16" -> f16;
                case "s32" -> s32;
                case "f32" -> f32;
                default -> f64;
            };
        }

        private static String regs(String prefix, int n) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) {
                sb.append(i == 0 ? "" : ", ").append(prefix).append(i);
            }
            return sb.toString();
        }
    }

    @ParameterizedTest
    @CsvSource({
        "sm_75, m16n16k16, s8, s32, s32, -, row, col, row, col", "sm_80, m16n16k16, u8, s32, s32, sat, col, row, col, row",
        "sm_86, m32n8k16, s8, s32, s32, sat, row, row, row, col", "sm_75, m32n8k16, u8, s32, s32, -, col, col, col, row",
        "sm_89, m8n32k16, u8, s32, s32, -, col, col, row, row", "sm_75, m8n32k16, s8, s32, s32, -, row, col, col, col",
        "sm_80, m16n16k16, bf16, f32, f32, -, row, col, col, row", "sm_90, m32n8k16, bf16, f32, f32, -, col, row, row, row",
        "sm_86, m8n32k16, bf16, f32, f32, -, row, row, col, col",
        "sm_80, m32n8k16, f16, f32, f32, -, row, col, row, col", "sm_75, m32n8k16, f16, f16, f16, -, col, row, col, row",
        "sm_90, m8n32k16, f16, f16, f16, -, row, row, row, col", "sm_75, m8n32k16, f16, f32, f32, -, col, col, row, row",
        "sm_80, m32n8k16, f16, f32, f16, -, row, row, col, row", "sm_75, m8n32k16, f16, f16, f32, -, col, row, row, col",
        "sm_90, m32n8k16, f16, f16, f32, -, row, col, row, row", "sm_86, m8n32k16, f16, f32, f16, -, col, col, col, col",
        "sm_75, m32n8k16, f16, f32, f16, -, row, col, row, col",
        "sm_80, m8n8k4, f64, f64, f64, -, row, col, row, col", "sm_90, m8n8k4, f64, f64, f64, -, col, row, col, row",
        "sm_75, m8n8k32, s4, s32, s32, -, row, col, row, col", "sm_80, m8n8k32, u4, s32, s32, sat, row, col, col, row",
        "sm_90, m8n8k32, s4, s32, s32, -, row, col, col, col",
        "sm_75, m8n8k128, b1, s32, s32, xor, row, col, row, row", "sm_80, m8n8k128, b1, s32, s32, and, row, col, col, row",
        "sm_90, m8n8k128, b1, s32, s32, xor, row, col, row, col"})
    void bothCompilersCubinsComputeTheProduct(String arch, String shape, String in, String d, String c, String extra,
            String al, String bl, String cl, String dl, @TempDir Path dir) throws Exception {
        Case k = new Case(shape, in, d, c, extra, al, bl, cl, dl);
        Path ptx = dir.resolve("wmma_tiles.ptx");
        Files.writeString(ptx, k.ptx(arch));
        int[] input = inputs(k);
        int[] expected = reference(k, input);

        WarpKernelHarness.assertThreeWays(REGISTRY, ptx, arch, k.ptx("sm_80"), "wmma_tiles", input, expected, dir);
    }

    /** The reference depends on the product: a zero A would hide a wrong multiply. */
    @Test
    void theProductMatters() {
        Case k = new Case("m16n16k16", "s8", "s32", "s32", "-", "row", "col", "row", "row");
        int[] in = inputs(k);
        int[] zeroA = in.clone();
        java.util.Arrays.fill(zeroA, 0, 512, 0);
        assertFalse(java.util.Arrays.equals(reference(k, in), reference(k, zeroA)));
    }

    /** Element (r, c) of a rows x cols matrix in {@code layout} with the default stride. */
    private static int at(String layout, int r, int c, int rows, int cols) {
        return layout.equals("row") ? r * cols + c : c * rows + r;
    }

    private static int bits(String type) {
        return switch (type) {
            case "b1" -> 1;
            case "s4", "u4" -> 4;
            case "s8", "u8" -> 8;
            case "f16", "bf16" -> 16;
            case "f64" -> 64;
            default -> 32;
        };
    }

    /** A (m x k) at byte 0, B (k x n) at 2048, C (m x n) at 4096: small integers in their types and layouts. */
    private static int[] inputs(Case k) {
        Random rnd = new Random(29);
        int[] in = new int[IN];
        for (int r = 0; r < k.m(); r++) {
            for (int i = 0; i < k.k(); i++) {
                put(in, 0, k.in(), at(k.al(), r, i, k.m(), k.k()), small(rnd, k.in()));
            }
        }
        for (int i = 0; i < k.k(); i++) {
            for (int c = 0; c < k.n(); c++) {
                put(in, 2048, k.in(), at(k.bl(), i, c, k.k(), k.n()), small(rnd, k.in()));
            }
        }
        for (int r = 0; r < k.m(); r++) {
            for (int c = 0; c < k.n(); c++) {
                put(in, 4096, k.c(), at(k.cl(), r, c, k.m(), k.n()), rnd.nextInt(17) - 8);
            }
        }
        return in;
    }

    private static int small(Random rnd, String type) {
        return switch (type) {
            case "b1" -> rnd.nextInt(2);
            case "u4", "u8" -> rnd.nextInt(type.equals("u4") ? 16 : 40);
            case "s4" -> rnd.nextInt(16) - 8;
            case "s8" -> rnd.nextInt(80) - 40;
            default -> rnd.nextInt(7) - 3;
        };
    }

    private static void put(int[] words, int byteBase, String type, int element, double v) {
        int bits = bits(type);
        long raw = switch (type) {
            case "f16" -> SmallFloats.toHalf(v);
            case "bf16" -> Float.floatToRawIntBits((float) v) >>> 16;
            case "f32" -> Float.floatToRawIntBits((float) v);
            case "f64" -> Double.doubleToRawLongBits(v);
            default -> (long) v;
        };
        long bit = 8L * byteBase + (long) element * bits;
        for (int b = 0; b < bits; b++) {
            long at = bit + b;
            int word = (int) (at / 32);
            words[word] = (int) (words[word] & ~(1 << at % 32) | ((raw >>> b) & 1) << at % 32);
        }
    }

    private static double get(int[] words, int byteBase, String type, int element) {
        int bits = bits(type);
        long bit = 8L * byteBase + (long) element * bits, raw = 0;
        for (int b = 0; b < bits; b++) {
            long at = bit + b;
            raw |= (long) (words[(int) (at / 32)] >>> at % 32 & 1) << b;
        }
        return switch (type) {
            case "f16" -> SmallFloats.halfToFloat((int) raw);
            case "bf16" -> Float.intBitsToFloat((int) raw << 16);
            case "f32" -> Float.intBitsToFloat((int) raw);
            case "f64" -> Double.longBitsToDouble(raw);
            case "s4" -> raw >= 8 ? raw - 16 : raw;
            case "s8" -> (byte) raw;
            case "s32" -> (int) raw;
            default -> raw;
        };
    }

    /** D = A B + C (b1: the count of the k where A and B's bits XOR or AND to 1), at D's layout from byte 0. */
    static int[] reference(Case k, int[] in) {
        int[] out = new int[OUT];
        for (int r = 0; r < k.m(); r++) {
            for (int c = 0; c < k.n(); c++) {
                double sum = get(in, 4096, k.c(), at(k.cl(), r, c, k.m(), k.n()));
                for (int i = 0; i < k.k(); i++) {
                    double x = get(in, 0, k.in(), at(k.al(), r, i, k.m(), k.k()));
                    double y = get(in, 2048, k.in(), at(k.bl(), i, c, k.k(), k.n()));
                    sum += k.in().equals("b1") ? (k.extra().equals("xor") ? (int) x ^ (int) y : (int) x & (int) y)
                            : x * y;
                }
                put(out, 0, k.d(), at(k.dl(), r, c, k.m(), k.n()), sum);
            }
        }
        return out;
    }

}
