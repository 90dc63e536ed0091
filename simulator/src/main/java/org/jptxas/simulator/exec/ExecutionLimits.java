package org.jptxas.simulator.exec;

/**
 * Bounds that keep a broken kernel from hanging the simulator: the total number of warp instructions, and the local
 * memory (stack) each thread may use.
 */
public record ExecutionLimits(long maxWarpInstructions, int localBytesPerThread) {
    public static final ExecutionLimits DEFAULT = new ExecutionLimits(2_000_000_000L, 64 * 1024);

    public ExecutionLimits {
        if (maxWarpInstructions < 1 || localBytesPerThread < 0) {
            throw new IllegalArgumentException("bad limits");
        }
    }

    public ExecutionLimits withMaxWarpInstructions(long n) {
        return new ExecutionLimits(n, localBytesPerThread);
    }
}
