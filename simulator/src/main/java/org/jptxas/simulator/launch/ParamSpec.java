package org.jptxas.simulator.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** One kernel argument of a launch spec. */
public sealed interface ParamSpec {
    /** Size in bytes of the argument in the parameter area. */
    int size();

    /** A scalar passed by value; {@code bits} holds its little-endian bit pattern in the low {@code type.size()} bytes. */
    record Scalar(ScalarType type, long bits) implements ParamSpec {
        @Override
        public int size() {
            return type.size();
        }
    }

    /**
     * An aggregate passed by value ({@code .param .align A .b8 p[N]}, e.g. the 16 bytes {@code ld.param.b128} reads):
     * its bytes in parameter order. Scalars hold at most 8 bytes; this holds any number.
     */
    record Bytes(byte[] value) implements ParamSpec {
        public Bytes {
            value = value.clone();
        }

        @Override
        public byte[] value() {
            return value.clone();
        }

        @Override
        public int size() {
            return value.length;
        }

        /** The natural alignment: the largest power of two up to 16 that divides the size. */
        public int align() {
            return value.length == 0 ? 1 : Math.min(16, Integer.lowestOneBit(value.length));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes b && java.util.Arrays.equals(value, b.value);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "Bytes" + java.util.HexFormat.of().formatHex(value);
        }
    }

    /**
     * The 64-bit device address of a fresh global buffer of {@code bytes} bytes, filled from {@code in} (else zeros)
     * and written to {@code out} after the launch. Paths are already resolved against the spec's folder.
     */
    record Pointer(long bytes, Optional<Path> in, Optional<Path> out) implements ParamSpec {
        @Override
        public int size() {
            return 8;
        }
    }

    /**
     * The 64-bit device address of a fresh 128-byte tensor map ({@code org.jptxas.simulator.exec.TensorMap}'s
     * layout) describing the buffer of the earlier pointer parameter {@code of}: data type (CUtensorMapDataType),
     * dimensions in elements (dimension 0 contiguous), strides in bytes of dimensions 1.., box sizes and element
     * strides (all 1 when empty), swizzle (CUtensorMapSwizzle: 0 none, 1 32 B, 2 64 B, 3 128 B). Tile mode, no
     * interleave or NaN fill.
     */
    record TensorMapOf(int of, int dataType, List<Long> dims, List<Long> strides, List<Integer> box,
            List<Integer> elementStrides, int swizzle) implements ParamSpec {
        public TensorMapOf {
            dims = List.copyOf(dims);
            strides = List.copyOf(strides);
            box = List.copyOf(box);
            elementStrides = List.copyOf(elementStrides);
        }

        @Override
        public int size() {
            return 8;
        }
    }
    /**
     * A texture object: the 32-bit handle (in a 64-bit parameter, high word zero) of a texture header and sampler the
     * launch writes into its descriptor pools ({@code org.jptxas.simulator.exec.TextureDescriptors}), over a fresh
     * array of {@code dims} texels (dimension 0 contiguous, no row padding) filled from {@code in} (else zeros). Each
     * texel has {@code channels} (1, 2 or 4) channels of {@code format}; {@code normalizedRead} reads 8- and 16-bit
     * integers as floats in [0, 1] ([-1, 1] signed). The sampler: linear or point filtering, an address mode per
     * dimension, normalized or texel coordinates, and the border colour's four 32-bit patterns.
     */
    record Texture(Optional<Path> in, TexelFormat format, int channels, List<Integer> dims, boolean normalizedRead,
            boolean linear, List<TextureAddressMode> address, boolean normalizedCoords, List<Integer> border)
            implements ParamSpec {
        public Texture {
            dims = List.copyOf(dims);
            address = List.copyOf(address);
            border = List.copyOf(border);
        }

        /** Bytes of the texel array. */
        public long bytes() {
            long n = (long) format.bytes() * channels;
            for (int d : dims) {
                n *= d;
            }
            return n;
        }

        @Override
        public int size() {
            return 8;
        }
    }
    /**
     * A surface object: a handle as a {@link Texture}'s (header and a point/clamp sampler in the launch's pools) over a
     * fresh array of {@code dims} elements of {@code channels} x {@code format}, filled from {@code in} (else zeros)
     * and written to {@code out} after the launch. {@code suld.b}/{@code sust.b} address it in bytes along x.
     */
    record Surface(Optional<Path> in, Optional<Path> out, TexelFormat format, int channels, List<Integer> dims)
            implements ParamSpec {
        public Surface {
            dims = List.copyOf(dims);
        }

        /** The same array seen as a point-sampled, clamped texture (what its header holds). */
        public Texture asTexture() {
            return new Texture(in, format, channels, dims, false, false,
                    java.util.Collections.nCopies(dims.size(), TextureAddressMode.CLAMP), false, List.of(0, 0, 0, 0));
        }

        @Override
        public int size() {
            return 8;
        }
    }
}
