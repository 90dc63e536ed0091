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
}
