package org.jptxas.testing.kernels;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Fluent construction of a {@link KernelCase}; arguments are added in parameter order. */
public final class KernelCaseBuilder {
    private final String name;
    private String entry;
    private int minSm = 75;
    private Extent grid = new Extent(1, 1, 1);
    private Extent block = new Extent(1, 1, 1);
    private Extent cluster;
    private int dynamicShared;
    private String description = "";
    private java.nio.file.Path ptxFile;
    private final List<KernelCase.Arg> args = new ArrayList<>();

    KernelCaseBuilder(String name) {
        this.name = name;
        this.entry = name;
    }

    public KernelCaseBuilder describe(String d) {
        description = d;
        return this;
    }

    /** The entry to launch, when it is not named as the case is. */
    public KernelCaseBuilder entry(String e) {
        entry = e;
        return this;
    }

    /** A PTX file outside {@code kernels/} (a shared-corpus file, read where it is). */
    public KernelCaseBuilder ptx(java.nio.file.Path file) {
        ptxFile = file;
        return this;
    }

    public KernelCaseBuilder minSm(int sm) {
        minSm = sm;
        return this;
    }

    public KernelCaseBuilder grid(int x, int y, int z) {
        grid = new Extent(x, y, z);
        return this;
    }

    public KernelCaseBuilder grid(int x) {
        return grid(x, 1, 1);
    }

    public KernelCaseBuilder block(int x, int y, int z) {
        block = new Extent(x, y, z);
        return this;
    }

    public KernelCaseBuilder block(int x) {
        return block(x, 1, 1);
    }

    /** A thread-block cluster extent (sm_90): the launch spec's {@code "cluster"}. */
    public KernelCaseBuilder cluster(int x, int y, int z) {
        cluster = new Extent(x, y, z);
        return this;
    }

    public KernelCaseBuilder dynamicShared(int bytes) {
        dynamicShared = bytes;
        return this;
    }

    public KernelCaseBuilder u32(String n, long v) {
        args.add(new KernelCase.Scalar(n, "u32", v & 0xffffffffL, Long.toString(v & 0xffffffffL)));
        return this;
    }

    public KernelCaseBuilder s32(String n, int v) {
        args.add(new KernelCase.Scalar(n, "s32", v, Integer.toString(v)));
        return this;
    }

    public KernelCaseBuilder u16(String n, int v) {
        args.add(new KernelCase.Scalar(n, "u16", v & 0xffffL, Long.toString(v & 0xffffL)));
        return this;
    }

    public KernelCaseBuilder u64(String n, long v) {
        args.add(new KernelCase.Scalar(n, "u64", v, Long.toUnsignedString(v)));
        return this;
    }

    public KernelCaseBuilder f64(String n, double v) {
        args.add(new KernelCase.Scalar(n, "f64", Double.doubleToRawLongBits(v), Double.toString(v)));
        return this;
    }

    public KernelCaseBuilder f32(String n, float v) {
        args.add(new KernelCase.Scalar(n, "f32", Float.floatToRawIntBits(v) & 0xffffffffL, Float.toString(v)));
        return this;
    }

    /** A 2-D tensor map of the f32 buffer {@code of} (rows of {@code dims[0]} floats), boxes of box[0] x box[1]. */
    public KernelCaseBuilder tensorMapF32(String n, String of, int cols, int rows, int boxCols, int boxRows) {
        return tensorMap2d(n, of, 7, 4, cols, rows, boxCols, boxRows, 0);
    }

    /**
     * A tensor map of any rank (1 to 5) over the dense f32 buffer {@code of}, dimension 0 fastest: {@code dims} in
     * elements, boxes of {@code box}.
     */
    public KernelCaseBuilder tensorMapF32(String n, String of, List<Integer> dims, List<Integer> box) {
        return tensorMap(n, of, 7, 4, dims, box);
    }

    /**
     * A tensor map of any rank (1 to 5) over the dense buffer {@code of} of CUtensorMapDataType {@code dataType}
     * ({@code bytes} each), dimension 0 fastest: {@code dims} in elements, boxes of {@code box}.
     */
    public KernelCaseBuilder tensorMap(String n, String of, int dataType, int bytes, List<Integer> dims,
            List<Integer> box) {
        List<Long> sizes = new ArrayList<>();
        List<Long> strides = new ArrayList<>();
        long stride = bytes;
        for (int d = 0; d < dims.size(); d++) {
            sizes.add((long) dims.get(d));
            if (d > 0) {
                strides.add(stride);
            }
            stride *= dims.get(d);
        }
        args.add(new KernelCase.TensorMapArg(n, of, dataType, sizes, strides, List.copyOf(box), 0));
        return this;
    }

    /**
     * A 2D tensor map of a dense row-major matrix: CUtensorMapDataType {@code dataType} of {@code bytes} each,
     * CUtensorMapSwizzle {@code swizzle}.
     */
    public KernelCaseBuilder tensorMap2d(String n, String of, int dataType, int bytes, int cols, int rows,
            int boxCols, int boxRows, int swizzle) {
        args.add(new KernelCase.TensorMapArg(n, of, dataType, List.of((long) cols, (long) rows),
                List.of((long) bytes * cols), List.of(boxCols, boxRows), swizzle));
        return this;
    }

    /** A texture object over {@code texels} ({@link KernelCase.TextureArg}). */
    public KernelCaseBuilder texture(KernelCase.TextureArg t) {
        args.add(t);
        return this;
    }

    /** A surface object over a w x h array of 32-bit {@code elem}s, read and written by the kernel. */
    public KernelCaseBuilder surface(String n, Elem elem, int w, int h, byte[] initial, Check check) {
        return surface(n, elem, List.of(w, h), initial, check);
    }

    /** A surface object over an array of {@code dims} elements (1 to 3; a layered surface's layers last). */
    public KernelCaseBuilder surface(String n, Elem elem, List<Integer> dims, byte[] initial, Check check) {
        args.add(new KernelCase.Buffer(n, elem, initial, true, check, dims));
        return this;
    }

    public KernelCaseBuilder buffer(String n, Elem elem, byte[] initial, boolean input, Check check) {
        args.add(new KernelCase.Buffer(n, elem, initial, input, check));
        return this;
    }

    public KernelCaseBuilder in(String n, int[] v) {
        return buffer(n, Elem.I32, Bytes.of(v), true, null);
    }

    public KernelCaseBuilder in(String n, float[] v) {
        return buffer(n, Elem.F32, Bytes.of(v), true, null);
    }

    public KernelCaseBuilder in(String n, double[] v) {
        return buffer(n, Elem.F64, Bytes.of(v), true, null);
    }

    public KernelCaseBuilder in(String n, long[] v) {
        return buffer(n, Elem.I64, Bytes.of(v), true, null);
    }

    public KernelCaseBuilder in(String n, Elem elem, byte[] v) {
        return buffer(n, elem, v, true, null);
    }

    public KernelCaseBuilder inOut(String n, int[] v, Check c) {
        return buffer(n, Elem.I32, Bytes.of(v), true, c);
    }

    public KernelCaseBuilder inOut(String n, float[] v, Check c) {
        return buffer(n, Elem.F32, Bytes.of(v), true, c);
    }

    public KernelCaseBuilder inOut(String n, Elem elem, byte[] v, Check c) {
        return buffer(n, elem, v, true, c);
    }

    /** A zero-filled output buffer of {@code count} elements. */
    public KernelCaseBuilder out(String n, Elem elem, int count, Check c) {
        return buffer(n, elem, new byte[count * elem.size()], false, c);
    }

    public KernelCaseBuilder out(String n, Elem elem, int count) {
        return out(n, elem, count, elem.floating() ? Check.FLOAT : Check.EXACT);
    }

    public KernelCase reference(Consumer<Io> reference) {
        return new KernelCase(name, entry, minSm, grid, block, cluster, dynamicShared, args, reference, description,
                ptxFile);
    }
}
