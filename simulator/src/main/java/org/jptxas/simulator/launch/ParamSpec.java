package org.jptxas.simulator.launch;

import java.nio.file.Path;
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
}
