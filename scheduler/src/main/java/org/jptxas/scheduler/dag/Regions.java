package org.jptxas.scheduler.dag;

import java.util.ArrayList;
import java.util.List;

/**
 * Size limits that keep scheduling near-linear on huge kernels, as in ptxas: a block longer than
 * {@link #MAX_BLOCK} instructions is split into independently scheduled regions, and a function longer than
 * {@link #MAX_CHUNK} instructions is scheduled chunk by chunk (chunks end at block boundaries).
 */
public final class Regions {
    /** Largest region scheduled as one DAG (ptxas: 4095). */
    public static final int MAX_BLOCK = 4095;
    /** Largest group of blocks handled at once (ptxas: 16383). */
    public static final int MAX_CHUNK = 16383;

    private Regions() {}

    /** A half-open range {@code [start, end)} of instruction or block indices. */
    public record Range(int start, int end) {
        public int size() {
            return end - start;
        }
    }

    /** Splits a block of {@code n} instructions into regions of at most {@code max} instructions. */
    public static List<Range> splitBlock(int n, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max " + max);
        }
        List<Range> out = new ArrayList<>();
        for (int s = 0; s < n; s += max) {
            out.add(new Range(s, Math.min(n, s + max)));
        }
        if (out.isEmpty()) {
            out.add(new Range(0, 0));
        }
        return out;
    }

    public static List<Range> splitBlock(int n) {
        return splitBlock(n, MAX_BLOCK);
    }

    /**
     * Groups consecutive blocks (sizes in {@code blockSizes}) into chunks of at most {@code max} instructions; a block
     * larger than {@code max} forms a chunk of its own (it is split further by {@link #splitBlock}).
     */
    public static List<Range> chunkBlocks(int[] blockSizes, int max) {
        List<Range> out = new ArrayList<>();
        int start = 0;
        int size = 0;
        for (int b = 0; b < blockSizes.length; b++) {
            if (size > 0 && size + blockSizes[b] > max) {
                out.add(new Range(start, b));
                start = b;
                size = 0;
            }
            size += blockSizes[b];
        }
        if (start < blockSizes.length) {
            out.add(new Range(start, blockSizes.length));
        }
        return out;
    }

    public static List<Range> chunkBlocks(int[] blockSizes) {
        return chunkBlocks(blockSizes, MAX_CHUNK);
    }
}
