package org.jptxas.simulator.exec;

import java.util.function.IntToDoubleFunction;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * The arithmetic of Hopper's warpgroup multiply ({@code wgmma.mma_async} / {@code HGMMA}, {@code QGMMA}), shared by
 * the PTX interpreter and the SASS emulator: D (64 x N) = A (64 x K) B (K x N) + C over a warpgroup, of which warp
 * {@code w} (its warp index in the CTA modulo 4) holds rows 16w..16w+15 and so computes its part alone.
 *
 * <p><b>Descriptors</b> (PTX ISA, "matrix descriptor"): bits 0-13 start address / 16 (a shared-window address),
 * 16-29 leading-dimension byte offset / 16, 32-45 stride-dimension byte offset / 16, 62-63 swizzle (0 none, 1 128 B,
 * 2 64 B, 3 32 B). Element (i, k) of a K-major operand (i the row of A or the column of B) lies at {@code start +
 * (i / 8) SBO + ...}: without swizzle in core matrices of 8 rows of 16 bytes, row i % 8 at 16 (i % 8), K chunks of
 * 16 bytes LBO apart; with swizzle in rows of the swizzle width (128/64/32 B), row i % 8 at width x (i % 8), then the
 * address's 16-byte chunk bits [6:4] XORed with bits [9:7] (masked to the width: the CUTLASS Swizzle<3,4,3>,
 * <2,4,3>, <1,4,3>). MN-major operands: rows along MN of 16 bytes (no swizzle) or the swizzle width, one row per k,
 * k % 8 rows per core block, blocks LBO apart along MN and SBO apart along K.
 *
 * <p><b>Accumulator fragment</b> (f32): for each 8-column slice j, register 4j holds (r, 8j + 2(l % 4)), 4j+1 the next
 * column, 4j+2 and 4j+3 the same columns of row r + 8, with r = l / 4 for lane l. A in registers (16-bit types):
 * four registers per lane as {@code mma.m16n8k16}'s A: (r, 2(l % 4)), (r + 8, ...), (r, 2(l % 4) + 8), (r + 8, ...),
 * two elements each, low half first.
 *
 * <p><b>Numerics</b>: every product exact (f16/bf16/tf32/fp8 inputs are exact in double), the products of one
 * instruction summed in k order in double, C added last, the sum rounded once to f32. Tensor cores align and
 * truncate, so the last bits may differ; chained instructions round once each.
 */
public final class WarpgroupMma {
    private WarpgroupMma() {}

    /**
     * The value of an element's bits for a type token as PTX ({@code f16}, {@code e4m3}) or SASS ({@code F16},
     * {@code E4M3}) spells it, or null for a type not modelled; also its size in bytes ({@link #elementBytes}).
     */
    public static IntToDoubleFunction decoder(String type) {
        return switch (type.toLowerCase(java.util.Locale.ROOT)) {
            case "f16" -> b -> SmallFloats.halfToFloat(b & 0xffff);
            case "bf16" -> b -> SmallFloats.bf16ToFloat(b & 0xffff);
            case "tf32" -> b -> Float.intBitsToFloat(b & 0xffffe000);
            case "e4m3" -> b -> SmallFloats.halfToFloat(SmallFloats.fp8ToHalfPair(b & 0xff, true, false) & 0xffff);
            case "e5m2" -> b -> SmallFloats.halfToFloat(SmallFloats.fp8ToHalfPair(b & 0xff, false, false) & 0xffff);
            case "s8" -> b -> (byte) b;
            case "u8", "b1" -> b -> b & 0xff; // b1: eight elements a byte, multiplied by AND.POPC (Accumulator.S32_POPC)
            default -> null;
        };
    }

    /** Bytes of one element of a type {@link #decoder} models. */
    public static int elementBytes(String type) {
        return switch (type.toLowerCase(java.util.Locale.ROOT)) {
            case "f16", "bf16" -> 2;
            case "tf32" -> 4;
            default -> 1;
        };
    }

    /**
     * The bits of element (i, k) of a descriptor's matrix: i is the M (A) or N (B) index, {@code mnMajor} the
     * transposed layout. See the class comment for the layouts.
     */
    public static int element(Region shared, long desc, int i, int k, int esize, boolean mnMajor) {
        long start = (desc & 0x3fff) << 4;
        long lbo = (desc >>> 16 & 0x3fff) << 4;
        long sbo = (desc >>> 32 & 0x3fff) << 4;
        int mode = (int) (desc >>> 62 & 3);
        int width = mode == 0 ? 16 : mode == 1 ? 128 : mode == 2 ? 64 : 32;
        long addr;
        if (!mnMajor) {
            int perRow = width / esize; // elements of one row along K
            long kBytes = (long) (k % perRow) * esize;
            addr = start + (i / 8) * sbo + (long) (i % 8) * width + (k / perRow) * lbo + kBytes;
        } else {
            int perRow = width / esize; // elements of one row along MN
            addr = start + (i / perRow) * lbo + (k / 8) * sbo + (long) (k % 8) * width + (long) (i % perRow) * esize;
        }
        if (mode != 0) {
            long bits = mode == 1 ? 7 : mode == 2 ? 3 : 1;
            addr ^= (addr >>> 7 & bits) << 4;
        }
        return esize == 1 ? shared.load8(addr) : esize == 2 ? shared.load16(addr) : shared.load32(addr);
    }

    /**
     * {@code rows} x {@code k} values of a descriptor's matrix from row {@code first} (A: the warp's 16 rows from
     * 16w; B: its N columns from 0), times {@code sign}.
     */
    public static double[][] operand(Region shared, long desc, int first, int rows, int k, String type,
            boolean mnMajor, double sign) {
        IntToDoubleFunction value = decoder(type);
        int esize = elementBytes(type);
        double[][] m = new double[rows][k];
        for (int i = 0; i < rows; i++) {
            for (int q = 0; q < k; q++) {
                m[i][q] = sign * value.applyAsDouble(element(shared, desc, first + i, q, esize, mnMajor));
            }
        }
        return m;
    }

    /**
     * A warp's 16 x K part of A from its lanes' four registers each ({@code regs[lane][0..3]}), as {@code mma}'s A
     * fragment: register r of lane l holds row l / 4 (+ 8 for odd r) and K elements from {@code e (l % 4)} (+ K / 2
     * for r >= 2), {@code e} = 4 / element bytes of them, the lowest bits first.
     */
    public static double[][] registerA(int[][] regs, String type, double sign) {
        IntToDoubleFunction value = decoder(type);
        int bytes = elementBytes(type);
        int perRegister = 4 / bytes;
        int k = 8 * perRegister;
        double[][] a = new double[16][k];
        for (int l = 0; l < 32; l++) {
            for (int r = 0; r < 4; r++) {
                int row = l / 4 + (r % 2 == 1 ? 8 : 0);
                int col = perRegister * (l % 4) + (r >= 2 ? k / 2 : 0);
                for (int e = 0; e < perRegister; e++) {
                    int bitsOf = bytes == 4 ? regs[l][r] : regs[l][r] >>> (8 * bytes * e) & ((1 << (8 * bytes)) - 1);
                    a[row][col + e] = sign * value.applyAsDouble(bitsOf);
                }
            }
        }
        return a;
    }

    /** Row and column of accumulator register {@code r} of lane {@code l} in the warp's 16 x N part. */
    public static int row(int l, int r) {
        return l / 4 + ((r & 2) != 0 ? 8 : 0);
    }

    public static int column(int l, int r) {
        return 8 * (r / 4) + 2 * (l % 4) + (r & 1);
    }

    /** One accumulator element: the products of row {@code i} of a and column {@code j} of b in k order, then c. */
    public static int dot(double[][] a, double[][] b, int i, int j, Float c) {
        double sum = sum(a, b, i, j);
        if (c != null) {
            sum += c;
        }
        return Float.floatToRawIntBits((float) sum);
    }

    /** How an accumulator register holds its elements: one f32, two packed f16, or one s32 (wrapping or saturating). */
    public enum Accumulator {
        F32, F16, S32, S32_SATURATING, S32_POPC;

        /** Accumulator registers per lane of a 64 x N multiply. */
        public int registers(int n) {
            return this == F16 ? n / 4 : n / 2;
        }

        /**
         * Register {@code r} of lane {@code l}: the products of a and b (bytes ANDed and counted for
         * {@link #S32_POPC}), plus the register's bits {@code c} when {@code accumulate}. Packed f16: elements 2r
         * (low half) and 2r + 1 of the f32 layout, each summed in double and rounded once to f16.
         */
        public int element(double[][] a, double[][] b, int l, int r, boolean accumulate, int c) {
            switch (this) {
                case F32:
                    return dot(a, b, row(l, r), column(l, r), accumulate ? Float.intBitsToFloat(c) : null);
                case F16: {
                    int out = 0;
                    for (int h = 0; h < 2; h++) {
                        int e = 2 * r + h;
                        double sum = sum(a, b, row(l, e), column(l, e));
                        if (accumulate) {
                            sum += SmallFloats.halfToFloat(c >>> 16 * h & 0xffff);
                        }
                        out |= SmallFloats.toHalf(sum) << 16 * h;
                    }
                    return out;
                }
                default: {
                    long sum = accumulate ? c : 0;
                    int i = row(l, r);
                    int j = column(l, r);
                    for (int q = 0; q < a[i].length; q++) {
                        sum += this == S32_POPC ? Integer.bitCount((int) a[i][q] & (int) b[j][q])
                                : (long) a[i][q] * (long) b[j][q];
                    }
                    if (this == S32_SATURATING) {
                        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, sum));
                    }
                    return (int) sum;
                }
            }
        }
    }

    /** The products of row {@code i} of a and column {@code j} of b, summed in k order in double. */
    private static double sum(double[][] a, double[][] b, int i, int j) {
        double sum = 0;
        for (int q = 0; q < a[i].length; q++) {
            sum += a[i][q] * b[j][q];
        }
        return sum;
    }
}
