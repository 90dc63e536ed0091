package org.jptxas.simulator.launch;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What to launch: the entry, grid and block extents, an optional cluster extent (sm_90+), the dynamic shared memory
 * size and the kernel arguments. Read from JSON by {@link LaunchSpecReader}; command-line flags override fields
 * with the {@code with...} methods.
 */
public record LaunchSpec(Optional<String> entry, Dim3 grid, Dim3 block, Optional<Dim3> cluster, int dynamicSharedBytes,
                         List<ParamSpec> params) {
    public LaunchSpec {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(block, "block");
        Objects.requireNonNull(cluster, "cluster");
        params = List.copyOf(params);
        if (dynamicSharedBytes < 0) {
            throw new IllegalArgumentException("dynamic_shared_bytes must not be negative");
        }
    }

    public LaunchSpec withEntry(String e) {
        return new LaunchSpec(Optional.of(e), grid, block, cluster, dynamicSharedBytes, params);
    }

    public LaunchSpec withGrid(Dim3 g) {
        return new LaunchSpec(entry, g, block, cluster, dynamicSharedBytes, params);
    }

    public LaunchSpec withBlock(Dim3 b) {
        return new LaunchSpec(entry, grid, b, cluster, dynamicSharedBytes, params);
    }
}
