package org.jptxas.testing.kernels;

import java.util.Random;

/**
 * Deterministic input generator: seeded from the kernel's name with {@link Random}, whose algorithm the Java
 * specification fixes, so every JVM produces the same inputs.
 */
public final class Gen {
    private final Random random;

    public Gen(String seed) {
        this.random = new Random(seed.hashCode() * 0x9E3779B97F4A7C15L);
    }

    /** Uniform ints in [lo, hi]. */
    public int[] ints(int n, int lo, int hi) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = (int) (lo + (long) (random.nextDouble() * ((long) hi - lo + 1)));
        }
        return a;
    }

    /** Uniformly random 32-bit patterns. */
    public int[] bits32(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = random.nextInt();
        }
        return a;
    }

    public long[] bits64(int n) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = random.nextLong();
        }
        return a;
    }

    /** Uniform floats in [lo, hi). */
    public float[] floats(int n, double lo, double hi) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = (float) (lo + random.nextDouble() * (hi - lo));
        }
        return a;
    }

    /** Small integers in [lo, hi] as floats: sums of them are exact in any order. */
    public float[] integralFloats(int n, int lo, int hi) {
        int[] v = ints(n, lo, hi);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = v[i];
        }
        return a;
    }

    public double[] doubles(int n, double lo, double hi) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = lo + random.nextDouble() * (hi - lo);
        }
        return a;
    }

    /** Floats with random sign and binary exponent in [minExp, maxExp] and a random significand. */
    public float[] wideFloats(int n, int minExp, int maxExp) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            float m = 1 + random.nextFloat();
            int e = minExp + random.nextInt(maxExp - minExp + 1);
            a[i] = (random.nextBoolean() ? -1 : 1) * Math.scalb(m, e);
        }
        return a;
    }

    public double[] wideDoubles(int n, int minExp, int maxExp) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            double m = 1 + random.nextDouble();
            int e = minExp + random.nextInt(maxExp - minExp + 1);
            a[i] = (random.nextBoolean() ? -1 : 1) * Math.scalb(m, e);
        }
        return a;
    }

    public int nextInt(int bound) {
        return random.nextInt(bound);
    }
}
