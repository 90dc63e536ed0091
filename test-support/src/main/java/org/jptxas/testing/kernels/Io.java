package org.jptxas.testing.kernels;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a reference function sees: every buffer of the launch as a typed Java array (inputs filled, outputs at their
 * initial contents) and every scalar argument by name. The reference updates output arrays in place.
 */
public final class Io {
    private final Map<String, byte[]> buffers;
    private final Map<String, Long> scalars;
    private final Map<String, Object> views = new LinkedHashMap<>();

    Io(Map<String, byte[]> buffers, Map<String, Long> scalars) {
        this.buffers = buffers;
        this.scalars = scalars;
    }

    private ByteBuffer bytes(String name) {
        byte[] b = buffers.get(name);
        if (b == null) {
            throw new IllegalArgumentException("no buffer '" + name + "'");
        }
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    public float[] f32(String name) {
        return (float[]) views.computeIfAbsent(name, n -> {
            float[] a = new float[buffers.get(n).length / 4];
            bytes(n).asFloatBuffer().get(a);
            return a;
        });
    }

    public double[] f64(String name) {
        return (double[]) views.computeIfAbsent(name, n -> {
            double[] a = new double[buffers.get(n).length / 8];
            bytes(n).asDoubleBuffer().get(a);
            return a;
        });
    }

    public int[] i32(String name) {
        return (int[]) views.computeIfAbsent(name, n -> {
            int[] a = new int[buffers.get(n).length / 4];
            bytes(n).asIntBuffer().get(a);
            return a;
        });
    }

    public long[] i64(String name) {
        return (long[]) views.computeIfAbsent(name, n -> {
            long[] a = new long[buffers.get(n).length / 8];
            bytes(n).asLongBuffer().get(a);
            return a;
        });
    }

    /** 16-bit elements (f16, bf16, u16) as raw bits. */
    public short[] u16(String name) {
        return (short[]) views.computeIfAbsent(name, n -> {
            short[] a = new short[buffers.get(n).length / 2];
            bytes(n).asShortBuffer().get(a);
            return a;
        });
    }

    /** Bytes are shared, not copied. */
    public byte[] u8(String name) {
        return buffers.get(name);
    }

    public int scalarInt(String name) {
        return (int) (long) scalars.get(name);
    }

    public long scalarLong(String name) {
        return scalars.get(name);
    }

    public float scalarF32(String name) {
        return Float.intBitsToFloat(scalarInt(name));
    }

    public double scalarF64(String name) {
        return Double.longBitsToDouble(scalarLong(name));
    }

    /** Writes the typed views back into the byte arrays. */
    void flush() {
        views.forEach((name, view) -> {
            ByteBuffer b = bytes(name);
            if (view instanceof float[] a) {
                b.asFloatBuffer().put(a);
            } else if (view instanceof double[] a) {
                b.asDoubleBuffer().put(a);
            } else if (view instanceof int[] a) {
                b.asIntBuffer().put(a);
            } else if (view instanceof long[] a) {
                b.asLongBuffer().put(a);
            } else if (view instanceof short[] a) {
                b.asShortBuffer().put(a);
            }
        });
    }
}
