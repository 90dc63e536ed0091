package org.jptxas.cli.generality;

import java.util.Random;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.tables.ptx.PtxType;

/**
 * Operand values for the instruction-form suite: the edge cases of each type (zeros of both signs, NaNs quiet and
 * signalling, infinities, the smallest and largest denormals and normals, values halfway between integers, the
 * integer limits, shift counts around the width, ...) and random bits. Values are raw bits in the low bits of a
 * long.
 */
final class EdgeValues {
    private EdgeValues() {}

    private static final long[] F32 = {0x00000000L, 0x80000000L, 0x3f800000L, 0xbf800000L, 0x3f000000L, 0xbf000000L,
        0x3fc00000L, 0xbfc00000L, 0x40200000L, 0x7fc00000L, 0xffc00001L, 0x7f800001L, 0x7f800000L, 0xff800000L,
        0x00000001L, 0x007fffffL, 0x807fffffL, 0x00800000L, 0x80800000L, 0x7f7fffffL, 0xff7fffffL, 0x4b800001L,
        0x4effffffL, 0x4f000000L, 0xcf000000L, 0xcf000001L, 0x4f800000L, 0x5f000000L, 0xdf000000L, 0x3eaaaaabL,
        0x42c80000L, 0xc2c80000L, 0x3a83126fL, 0x41200000L, 0x4b000000L, 0x4b7fffffL, 0x40490fdbL, 0x3fb8aa3bL,
        0xc3160000L, 0x43000000L};

    private static final long[] F64 = {0L, 0x8000000000000000L, 0x3ff0000000000000L, 0xbff0000000000000L,
        0x3fe0000000000000L, 0xbfe0000000000000L, 0x3ff8000000000000L, 0x4004000000000000L, 0x7ff8000000000000L,
        0xfff8000000000001L, 0x7ff0000000000001L, 0x7ff0000000000000L, 0xfff0000000000000L, 0x0000000000000001L,
        0x000fffffffffffffL, 0x800fffffffffffffL, 0x0010000000000000L, 0x7fefffffffffffffL, 0xffefffffffffffffL,
        0x41dfffffffc00000L, 0x41e0000000000000L, 0xc1e0000000000000L, 0x41f0000000000000L, 0x43e0000000000000L,
        0xc3e0000000000000L, 0x43f0000000000000L, 0x3fd5555555555555L, 0x4059000000000000L, 0x36a0000000000000L,
        0x47efffffe0000000L, 0x3810000000000000L, 0x3e70000000000000L, 0x400921fb54442d18L, 0x4330000000000000L,
        0xc08f400000000000L, 0x4090000000000000L};

    private static final long[] F16 = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x3e00, 0x4100, 0x7c00, 0xfc00, 0x7e00,
        0xfe01, 0x7c01, 0x0001, 0x03ff, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x5640, 0x3555, 0x4900, 0x6400, 0xd800};

    private static final long[] BF16 = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x3f00, 0x3fc0, 0x4020, 0x7f80, 0xff80, 0x7fc0,
        0xffc1, 0x7f81, 0x0001, 0x007f, 0x807f, 0x0080, 0x7f7f, 0xff7f, 0x42c8, 0x3eab, 0x4f00, 0xcf00, 0x4b80};

    private static final long[] I8 = {0, 1, 2, 7, 8, 9, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x55, 0xaa};

    private static final long[] I16 = {0, 1, 2, 15, 16, 17, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0x8001, 0xfffe,
        0xffff, 0x5555, 0xaaaa};

    private static final long[] I32 = {0, 1, 2, 3, 7, 8, 24, 31, 32, 33, 63, 64, 65, 255, 256, 0x7f, 0x80, 0xff,
        0x7fff, 0x8000, 0xffff, 0x10000, 0xffffff, 0x1000000, 0x7fffffff, 0x80000000L, 0x80000001L, 0xfffffffeL,
        0xffffffffL, 0x55555555L, 0xaaaaaaaaL, 0x12345678L, 0xdeadbeefL, 0xffff8000L, 0x7fff8000L, 0x00800000L};

    private static final long[] I64 = {0, 1, 2, 31, 32, 33, 63, 64, 65, 0x7fffffffL, 0x80000000L, 0xffffffffL,
        0x100000000L, 0x100000001L, 0x7fffffffffffffffL, 0x8000000000000000L, 0x8000000000000001L, -2L, -1L,
        0xffffffff00000000L, 0x5555555555555555L, 0xaaaaaaaaaaaaaaaaL, 0x123456789abcdef0L, 0x00000000ffff8000L,
        0xffffffff80000000L, 0x0010000000000000L, 0x0020000000000001L, 0xffe0000000000000L};

    /** The edge values of a type (by its size and class). */
    static long[] edges(PtxType t) {
        return switch (t) {
            case F32, TF32 -> F32;
            case F64 -> F64;
            case F16 -> F16;
            case BF16 -> BF16;
            case F16X2 -> pairs(F16, 16);
            case BF16X2 -> pairs(BF16, 16);
            case PRED -> new long[] {0, 1};
            default -> switch (t.bits()) {
                case 1, 2, 4, 6, 8 -> I8;
                case 16 -> I16;
                case 64, 128 -> I64;
                default -> I32;
            };
        };
    }

    /** Two edge halves in one word, paired so that each half meets several others. */
    private static long[] pairs(long[] halves, int bits) {
        long[] out = new long[halves.length * 2];
        for (int i = 0; i < out.length; i++) {
            long lo = halves[i % halves.length], hi = halves[(i * 7 + 3) % halves.length];
            out[i] = lo | hi << bits;
        }
        return out;
    }

    static long mask(int bits) {
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /** The register width in bits that holds a value of type t. */
    static int width(PtxType t) {
        return t == PtxType.PRED ? 1 : Math.max(8, FormCatalog.registerType(t).bits());
    }

    /**
     * One value for type t: an edge value two times in three, else random bits (for floats half the time a
     * moderate random number instead, so arithmetic is not all NaN and infinity).
     */
    static long value(PtxType t, Random rnd) {
        long[] e = edges(t);
        int bits = Math.min(64, width(t));
        if (rnd.nextInt(3) > 0) {
            return e[rnd.nextInt(e.length)] & mask(bits);
        }
        if (t.typeClass() == PtxType.TypeClass.FLOAT && rnd.nextBoolean()) {
            double d = (rnd.nextDouble() - 0.5) * Math.pow(2, rnd.nextInt(40) - 20);
            return switch (t) {
                case F64 -> Double.doubleToRawLongBits(d);
                case F32, TF32 -> Float.floatToRawIntBits((float) d) & 0xffffffffL;
                case F16 -> SmallFloats.toHalf(d) & 0xffffL;
                case F16X2 -> (SmallFloats.toHalf(d) & 0xffffL)
                        | (SmallFloats.toHalf(d * 3) & 0xffffL) << 16;
                case BF16 -> (Float.floatToRawIntBits((float) d) >>> 16) & 0xffffL;
                case BF16X2 -> ((Float.floatToRawIntBits((float) d) >>> 16) & 0xffffL)
                        | ((Float.floatToRawIntBits((float) (d / 3)) >>> 16) & 0xffffL) << 16;
                default -> rnd.nextLong() & mask(bits);
            };
        }
        return rnd.nextLong() & mask(bits);
    }

    /** One edge value chosen by {@code index}, for immediates. */
    static long edge(PtxType t, int index) {
        long[] e = edges(t);
        return e[Math.floorMod(index, e.length)] & mask(Math.min(64, width(t)));
    }
}
