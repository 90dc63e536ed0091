package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/** Surface kernels outside {@link KernelSuite#all()}, run three ways by their own end-to-end test. */
final class SurfaceKernels {
    private SurfaceKernels() {}

    static final int THREADS = 128;

    /**
     * Every surface geometry, access width and out-of-bounds mode ({@code suld.b}/{@code sust.b} .1d/.2d/.3d/.a1d/
     * .a2d, .b8/.b16/.b32/.b64/.v2.b32/.v4.b32/.v2.b64, .trap/.clamp/.zero; {@code sured.b} 64-bit add, min, max;
     * outside {@link KernelSuite#all()}, run three ways by cli's {@code SurfaceShapesEndToEndTest}). Thread i of 128
     * reads a 64-element u32 line at element i mod 64, clamped and zeroed at i - 32, as pairs, quads and 64-bit
     * values; copies byte (31 - i mod 32, 4 + i / 32) + 1 of a 32x9 u8 array to (i mod 32, i / 32) (thread 0 also
     * stores out of bounds: dropped under .zero, clamped to (31, 8)); updates element i of an 8x4x4 s32 volume to
     * 3 v + 1 and of a 16-wide 8-layer u16 array to v ^ 0x5a5a; threads below 32 replace a pair (e0, e1) of a 4x4
     * 8-layer array of 64-bit elements by (e0 + e1, e0 ^ e1), threads 32..63 element 64 + j by 5 e + 3; and reduces
     * 64-bit counters: adds ((i + 1) << 33 | i) to counter i mod 8, the signed maximum with 37 i mod 101 - 50 at
     * counter 8 + i mod 6, the unsigned minimum with (29 i mod 53) << 31 at byte 1000 (clamped: counter 15), and an
     * add at byte -8 that .zero drops.
     */
    static KernelCase surfaceShapes() {
        Gen g = new Gen("surface_shapes");
        int[] line = g.bits32(64);
        int[] byteValues = g.ints(32 * 9, 0, 256);
        byte[] bytes = new byte[byteValues.length];
        for (int k = 0; k < bytes.length; k++) {
            bytes[k] = (byte) byteValues[k];
        }
        int[] vol = g.bits32(128);
        int[] halfValues = g.ints(128, 0, 1 << 16);
        short[] halves = new short[halfValues.length];
        for (int k = 0; k < halves.length; k++) {
            halves[k] = (short) halfValues[k];
        }
        long[] wide = g.bits64(128);
        long[] counters = g.bits64(16);
        int[] signed = g.ints(6, -60, 60);
        for (int k = 0; k < 6; k++) {
            counters[8 + k] = signed[k];
        }
        return kernel("surface_shapes").describe("suld/sust of every geometry, width and bounds mode, 64-bit sured")
                .grid(2).block(64)
                .surface("line", Elem.U32, List.of(64), Bytes.of(line), Check.EXACT)
                .surface("bytes", Elem.U8, List.of(32, 9), bytes, Check.EXACT)
                .surface("vol", Elem.I32, List.of(8, 4, 4), Bytes.of(vol), Check.EXACT)
                .surface("layers1d", Elem.U16, List.of(16, 8), Bytes.of(halves), Check.EXACT)
                .surface("layers2d", Elem.U64, List.of(4, 4, 8), Bytes.of(wide), Check.EXACT)
                .surface("counters", Elem.U64, List.of(16), Bytes.of(counters), Check.EXACT)
                .out("out", Elem.U32, 6 * THREADS)
                .s32("n", THREADS)
                .reference(io -> {
                    int[] out = io.i32("out");
                    for (int i = 0; i < THREADS; i++) {
                        int p = 2 * (i % 32);
                        int q = 4 * (i % 16);
                        out[6 * i] = line[i % 64];
                        out[6 * i + 1] = line[Math.max(0, Math.min(63, i - 32))];
                        out[6 * i + 2] = i - 32 >= 0 && i - 32 < 64 ? line[i - 32] : 0;
                        out[6 * i + 3] = line[p] ^ line[p + 1];
                        out[6 * i + 4] = line[q] + line[q + 1] * 3 + line[q + 2] * 5 + line[q + 3] * 7;
                        out[6 * i + 5] = (int) ((Integer.toUnsignedLong(line[p]) | (long) line[p + 1] << 32) >>> 17);
                    }
                    System.arraycopy(line, 0, io.i32("line"), 0, line.length);
                    byte[] b = io.u8("bytes");
                    System.arraycopy(bytes, 0, b, 0, bytes.length);
                    for (int i = 0; i < THREADS; i++) {
                        b[i / 32 * 32 + i % 32] = (byte) (bytes[(4 + i / 32) * 32 + 31 - i % 32] + 1);
                    }
                    b[8 * 32 + 31] = 0x66;
                    int[] v = io.i32("vol");
                    short[] h = io.u16("layers1d");
                    for (int i = 0; i < THREADS; i++) {
                        v[i] = vol[i] * 3 + 1;
                        h[i] = (short) (halves[i] ^ 0x5a5a);
                    }
                    long[] e = io.i64("layers2d");
                    System.arraycopy(wide, 0, e, 0, wide.length);
                    for (int i = 0; i < 32; i++) {
                        int k = i / 8 * 16 + i / 2 % 4 * 4 + i % 2 * 2;
                        e[k] = wide[k] + wide[k + 1];
                        e[k + 1] = wide[k] ^ wide[k + 1];
                        e[64 + i] = wide[64 + i] * 5 + 3;
                    }
                    long[] c = io.i64("counters");
                    System.arraycopy(counters, 0, c, 0, counters.length);
                    for (int i = 0; i < THREADS; i++) {
                        c[i % 8] += (long) (i + 1) << 33 | i;
                        c[8 + i % 6] = Math.max(c[8 + i % 6], i * 37 % 101 - 50);
                        long small = (long) (i * 29 % 53) << 31;
                        c[15] = Long.compareUnsigned(c[15], small) <= 0 ? c[15] : small;
                    }
                });
    }
}
