package org.jptxas.testing.kernels;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Little-endian byte images of typed arrays (the raw file format of launch-spec buffers). */
public final class Bytes {
    private Bytes() {}

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    public static byte[] of(int[] a) {
        ByteBuffer b = le(4 * a.length);
        b.asIntBuffer().put(a);
        return b.array();
    }

    public static byte[] of(float[] a) {
        ByteBuffer b = le(4 * a.length);
        b.asFloatBuffer().put(a);
        return b.array();
    }

    public static byte[] of(long[] a) {
        ByteBuffer b = le(8 * a.length);
        b.asLongBuffer().put(a);
        return b.array();
    }

    public static byte[] of(double[] a) {
        ByteBuffer b = le(8 * a.length);
        b.asDoubleBuffer().put(a);
        return b.array();
    }

    public static byte[] of(short[] a) {
        ByteBuffer b = le(2 * a.length);
        b.asShortBuffer().put(a);
        return b.array();
    }
}
