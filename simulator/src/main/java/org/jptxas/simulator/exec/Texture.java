package org.jptxas.simulator.exec;

import org.jptxas.simulator.launch.TexelFormat;
import org.jptxas.simulator.launch.TextureAddressMode;
import org.jptxas.simulator.memory.GlobalMemory;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * A texture as its header and sampler describe it ({@link TextureDescriptors}), and what a lookup returns: four
 * 32-bit words, float bits for a float result (float formats, or 8- and 16-bit integers read as normalized floats:
 * unsigned v / (2^n - 1), signed max(v / (2^(n-1) - 1), -1)) and integers otherwise (sign- or zero-extended).
 * Channels a texel lacks read as 0, 0 and 1 (1.0 for a float result), as CUDA's do.
 *
 * <p>Sampling ({@code tex} with float coordinates, TEX): a normalized coordinate is first scaled by the size
 * ({@code u * N} in float32). Point filtering reads texel {@code floor(x)}. Linear filtering, as CUDA's programming
 * guide describes it, takes {@code xb = x - 0.5} (float32), {@code i = floor(xb)} and the weight {@code a} of texel
 * i + 1 as the fraction {@code xb - i} held in 9-bit fixed point with 8 fraction bits: this model rounds it to the
 * nearest multiple of 1/256 (halves up), so it may be 1. The result is the sum over the 2^rank neighbours, dimension
 * 0 fastest ((i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)), of the product of the per-dimension weights
 * ({@code 1 - a} or {@code a}) times the texel, each product and each partial sum rounded to float32 in that order.
 * Each neighbour's index goes through the dimension's address mode ({@link TextureAddressMode#apply}): wrap and
 * mirror modulo the size (after the floor, not on the coordinate), clamp to the edge, border reads the border colour.
 * Fetching ({@code tex} with integer coordinates, TLD) reads texel (x, y, z) through the same address modes.
 * Gathering ({@code tld4}, TLD4) returns one channel of the four texels linear filtering would weigh, with i, j as
 * there: (i, j + 1), (i + 1, j + 1), (i + 1, j), (i, j) (the lower left first, counter-clockwise, the order of the
 * gather of other graphics interfaces), each through the address modes.
 * Mipmaps, layered and cube textures, and level-of-detail or gradient forms are not modelled.
 */
public record Texture(long address, TexelFormat format, int channels, int[] dims, long[] strides,
        boolean normalizedRead, boolean linear, TextureAddressMode[] modes, boolean normalizedCoords, int[] border) {

    /** Whether lookups return floats. */
    public boolean floatResult() {
        return format.floating() || normalizedRead;
    }

    public int rank() {
        return dims.length;
    }

    /** Samples at {@code coords} (at least {@link #rank} float coordinates; the rest are ignored). */
    public int[] sample(GlobalMemory global, float[] coords) {
        int rank = rank();
        long[] base = new long[rank];
        float[] weight = new float[rank];
        for (int d = 0; d < rank; d++) {
            float x = normalizedCoords ? coords[d] * dims[d] : coords[d];
            if (linear) {
                float xb = x - 0.5f;
                float fl = (float) Math.floor(xb);
                base[d] = index(fl);
                weight[d] = Math.round((xb - fl) * 256f) / 256f;
            } else {
                base[d] = index((float) Math.floor(x));
            }
        }
        if (!linear) {
            return texel(global, base);
        }
        float[] acc = new float[4];
        long[] at = new long[rank];
        for (int corner = 0; corner < 1 << rank; corner++) {
            float w = 1f;
            for (int d = 0; d < rank; d++) {
                boolean upper = (corner >>> d & 1) != 0;
                at[d] = base[d] + (upper ? 1 : 0);
                w *= upper ? weight[d] : 1f - weight[d];
            }
            int[] t = texel(global, at);
            for (int k = 0; k < 4; k++) {
                acc[k] += w * Float.intBitsToFloat(t[k]);
            }
        }
        int[] out = new int[4];
        for (int k = 0; k < 4; k++) {
            out[k] = Float.floatToRawIntBits(acc[k]);
        }
        return out;
    }

    /** The four texels a 2D linear lookup at {@code coords} weighs, channel {@code channel} of each (see above). */
    public int[] gather(GlobalMemory global, float[] coords, int channel) {
        if (rank() != 2) {
            throw new IllegalArgumentException("a gather of a " + rank() + "-dimensional texture");
        }
        long[] base = new long[2];
        for (int d = 0; d < 2; d++) {
            float x = normalizedCoords ? coords[d] * dims[d] : coords[d];
            base[d] = index((float) Math.floor(x - 0.5f));
        }
        long i = base[0];
        long j = base[1];
        return new int[] {texel(global, new long[] {i, j + 1})[channel], texel(global, new long[] {i + 1, j + 1})[channel],
            texel(global, new long[] {i + 1, j})[channel], texel(global, new long[] {i, j})[channel]};
    }

    /**
     * What a dimension query ({@code txq}/{@code suq} width, height, depth; TXQ TEX_HEADER_DIMENSION) returns: the
     * size in texels (elements of a surface) of each of the three dimensions, 1 for those the texture lacks, and
     * the number of mip levels, 1.
     */
    public int[] dimensions() {
        int[] out = {1, 1, 1, 1};
        for (int d = 0; d < rank(); d++) {
            out[d] = dims[d];
        }
        return out;
    }

    /** Fetches texel {@code coords} (at least {@link #rank} integer coordinates). */
    public int[] fetch(GlobalMemory global, int[] coords) {
        long[] at = new long[rank()];
        for (int d = 0; d < at.length; d++) {
            at[d] = coords[d];
        }
        return texel(global, at);
    }

    /** What a surface access outside the array does (PTX {@code .trap}, {@code .clamp}, {@code .zero}). */
    public enum OutOfBounds {
        /** The access faults. */
        TRAP,
        /** Each coordinate is clamped into the array: x to the row's last whole access, the others to the last element. */
        CLAMP,
        /** The access does nothing: a load reads zero, a store or reduction is dropped. */
        ZERO
    }

    /** {@link #surfaceAddress(int[], int, OutOfBounds)} with {@link OutOfBounds#TRAP}. */
    public long surfaceAddress(int[] coords, int size) {
        return surfaceAddress(coords, size, OutOfBounds.TRAP);
    }

    /**
     * The address of a surface access of {@code size} bytes at {@code coords} (x in bytes, then y, z in elements,
     * at least {@link #rank} of them; a layered surface is one dimension more, the layer last), as {@code suld.b}/
     * {@code sust.b} take them, or -1 for an access outside the array under {@link OutOfBounds#ZERO}; under
     * {@link OutOfBounds#TRAP} such an access throws. Alignment of x is not checked.
     */
    public long surfaceAddress(int[] coords, int size, OutOfBounds mode) {
        long rowBytes = strides[0] * dims[0];
        long x = coords[0];
        if (x < 0 || x + size > rowBytes) {
            switch (mode) {
                case TRAP -> throw new IllegalArgumentException("surface access of " + size + " bytes at x = " + x
                        + " bytes outside a row of " + rowBytes);
                case ZERO -> {
                    return -1;
                }
                case CLAMP -> x = Math.max(0, Math.min(x, rowBytes - size));
            }
        }
        long a = address + x;
        for (int d = 1; d < dims.length; d++) {
            long c = coords[d];
            if (c < 0 || c >= dims[d]) {
                switch (mode) {
                    case TRAP -> throw new IllegalArgumentException("surface access at coordinate " + d + " = " + c
                            + " outside [0, " + dims[d] + ")");
                    case ZERO -> {
                        return -1;
                    }
                    case CLAMP -> c = Math.max(0, Math.min(c, dims[d] - 1));
                }
            }
            a += c * strides[d];
        }
        return a;
    }

    /** A coordinate's texel index; NaN reads texel 0, infinities saturate. */
    private static long index(float floor) {
        return Float.isNaN(floor) ? 0 : (long) Math.max(-(1L << 40), Math.min(1L << 40, (double) floor));
    }

    /** The four result words of texel {@code at} after the address modes. */
    private int[] texel(GlobalMemory global, long[] at) {
        long a = address;
        for (int d = 0; d < at.length; d++) {
            int i = modes[d].apply(at[d], dims[d]);
            if (i < 0) {
                return border.clone();
            }
            a += i * strides[d];
        }
        int one = floatResult() ? Float.floatToRawIntBits(1f) : 1;
        int[] out = {0, 0, 0, one};
        for (int k = 0; k < channels; k++) {
            out[k] = channel(global.load(a + (long) k * format.bytes(), format.bytes()));
        }
        return out;
    }

    private int channel(long raw) {
        int bits = 8 * format.bytes();
        long v = format.signed() && bits < 64 ? raw << (64 - bits) >> (64 - bits) : raw;
        if (format == TexelFormat.F16) {
            return Float.floatToRawIntBits(SmallFloats.halfToFloat((int) raw));
        }
        if (format.floating() || !normalizedRead) {
            return (int) v;
        }
        float f = format.signed() ? Math.max(v / (float) ((1L << (bits - 1)) - 1), -1f) : v / (float) ((1L << bits) - 1);
        return Float.floatToRawIntBits(f);
    }
}
