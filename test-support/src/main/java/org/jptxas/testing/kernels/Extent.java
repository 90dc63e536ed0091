package org.jptxas.testing.kernels;

/** A grid or block extent. */
public record Extent(int x, int y, int z) {
    public long count() {
        return (long) x * y * z;
    }

    String json() {
        return "[" + x + "," + y + "," + z + "]";
    }
}
