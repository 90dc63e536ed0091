package org.jptxas.simulator.launch;

/** A CUDA dimension triple (grid, block or cluster extent); every component is at least 1. */
public record Dim3(int x, int y, int z) {
    public Dim3 {
        if (x < 1 || y < 1 || z < 1) {
            throw new IllegalArgumentException("dimensions must be at least 1: " + x + "," + y + "," + z);
        }
    }

    public static final Dim3 ONE = new Dim3(1, 1, 1);

    public static Dim3 of(int x) {
        return new Dim3(x, 1, 1);
    }

    /** Parses {@code X}, {@code X,Y} or {@code X,Y,Z} (missing components are 1). */
    public static Dim3 parse(String text) {
        String[] parts = text.trim().split("\\s*,\\s*", -1);
        if (parts.length < 1 || parts.length > 3) {
            throw new IllegalArgumentException("expected X[,Y[,Z]], got '" + text + "'");
        }
        int[] v = {1, 1, 1};
        for (int i = 0; i < parts.length; i++) {
            try {
                v[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected X[,Y[,Z]] with positive integers, got '" + text + "'");
            }
        }
        return new Dim3(v[0], v[1], v[2]);
    }

    /** Number of points, {@code x*y*z}. */
    public long count() {
        return (long) x * y * z;
    }

    /** The point with linear index {@code i} (x fastest). */
    public Dim3Point point(long i) {
        return new Dim3Point((int) (i % x), (int) (i / x % y), (int) (i / ((long) x * y)));
    }

    public long linear(Dim3Point p) {
        return p.x() + (long) x * (p.y() + (long) y * p.z());
    }

    @Override
    public String toString() {
        return x + "," + y + "," + z;
    }
}
