package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.Arrays;
import java.util.List;

/** Kernels about memory and parallel patterns: reductions, scans, GEMM, stencils, sorting, atomics, calls. */
final class MemoryKernels {
    private MemoryKernels() {}

    static List<KernelCase> all() {
        return List.of(saxpy(), vecAdd(), reduceSum(), reduceAtomic(), scanBlock(), gemmTile(), gemmF64(), stencil1d(),
                stencil2d(), bitonicSort(), rankSort(), histogram(), atomicCasFmax(), atomicMix(), atomicAddF64(),
                dynamicShared(), transposeTile(), localArray(), callFunc(), callOutlined(), callWide(), callRecursive(), callDeepLocal(), callIndirect(), constantMem(), collatz(),
                callDiverge());
    }

    static KernelCase saxpy() {
        Gen g = new Gen("saxpy");
        int n = 1000;
        return kernel("saxpy").describe("fma.rn.f32 per element").grid(4).block(256)
                .u32("n", n).f32("a", 2.5f).in("x", g.floats(n, -10, 10)).inOut("y", g.floats(n, -10, 10), Check.FLOAT)
                .reference(io -> {
                    float a = io.scalarF32("a");
                    float[] x = io.f32("x"), y = io.f32("y");
                    for (int i = 0; i < n; i++) {
                        y[i] = Math.fma(a, x[i], y[i]);
                    }
                });
    }

    static KernelCase vecAdd() {
        Gen g = new Gen("vec_add_i32");
        int n = 1000;
        return kernel("vec_add_i32").describe("grid-stride loop").grid(2).block(128)
                .in("a", g.bits32(n)).in("b", g.bits32(n)).out("c", Elem.I32, n).s32("n", n)
                .reference(io -> {
                    int[] a = io.i32("a"), b = io.i32("b"), c = io.i32("c");
                    for (int i = 0; i < n; i++) {
                        c[i] = a[i] + b[i];
                    }
                });
    }

    static KernelCase reduceSum() {
        Gen g = new Gen("reduce_sum_f32");
        return kernel("reduce_sum_f32").describe("shared-memory tree reduction").grid(4).block(256)
                .in("in", g.integralFloats(1024, -100, 100)).out("out", Elem.F32, 4)
                .reference(io -> {
                    float[] in = io.f32("in"), out = io.f32("out");
                    for (int b = 0; b < 4; b++) {
                        float s = 0;
                        for (int t = 0; t < 256; t++) {
                            s += in[b * 256 + t];
                        }
                        out[b] = s;
                    }
                });
    }

    static KernelCase reduceAtomic() {
        Gen g = new Gen("reduce_atomic_i32");
        int n = 1000;
        return kernel("reduce_atomic_i32").describe("atom.global.add.u32").grid(4).block(256)
                .in("in", g.ints(n, -100000, 100000)).inOut("out", new int[] {5}, Check.EXACT).s32("n", n)
                .reference(io -> {
                    int[] out = io.i32("out");
                    for (int v : io.i32("in")) {
                        out[0] += v;
                    }
                });
    }

    static KernelCase scanBlock() {
        Gen g = new Gen("scan_block_i32");
        return kernel("scan_block_i32").describe("Hillis-Steele scan in shared memory").grid(2).block(256)
                .in("in", g.ints(512, -50, 50)).out("out", Elem.I32, 512)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int b = 0; b < 2; b++) {
                        int s = 0;
                        for (int t = 0; t < 256; t++) {
                            s += in[b * 256 + t];
                            out[b * 256 + t] = s;
                        }
                    }
                });
    }

    static KernelCase gemmTile() {
        return gemmTile(32, "gemm_tile_f32", "16x16 shared tiles");
    }

    /** The tiled GEMM on {@code n} x {@code n} matrices ({@code n} a multiple of 16), inputs seeded by {@code seed}. */
    static KernelCase gemmTile(int n, String seed, String description) {
        Gen g = new Gen(seed);
        return kernel("gemm_tile_f32").describe(description).grid(n / 16, n / 16, 1).block(16, 16, 1)
                .in("A", g.integralFloats(n * n, -8, 8)).in("B", g.integralFloats(n * n, -8, 8))
                .out("C", Elem.F32, n * n).s32("N", n)
                .reference(io -> {
                    float[] a = io.f32("A"), b = io.f32("B"), c = io.f32("C");
                    for (int r = 0; r < n; r++) {
                        for (int col = 0; col < n; col++) {
                            float acc = 0;
                            for (int k = 0; k < n; k++) {
                                acc = Math.fma(a[r * n + k], b[k * n + col], acc);
                            }
                            c[r * n + col] = acc;
                        }
                    }
                });
    }

    static KernelCase gemmF64() {
        Gen g = new Gen("gemm_naive_f64");
        int m = 20, n = 24, k = 16;
        return kernel("gemm_naive_f64").describe("fma.rn.f64 chains, bounds checks").grid(3, 3, 1).block(8, 8, 1)
                .in("A", g.doubles(m * k, -1, 1)).in("B", g.doubles(k * n, -1, 1)).out("C", Elem.F64, m * n)
                .s32("M", m).s32("N", n).s32("K", k)
                .reference(io -> {
                    double[] a = io.f64("A"), b = io.f64("B"), c = io.f64("C");
                    for (int r = 0; r < m; r++) {
                        for (int col = 0; col < n; col++) {
                            double acc = 0;
                            for (int x = 0; x < k; x++) {
                                acc = Math.fma(a[r * k + x], b[x * n + col], acc);
                            }
                            c[r * n + col] = acc;
                        }
                    }
                });
    }

    static KernelCase stencil1d() {
        Gen g = new Gen("stencil_1d");
        int n = 300;
        return kernel("stencil_1d").describe("shared-memory halo").grid(3).block(128)
                .in("in", g.ints(n, -100, 100)).out("out", Elem.I32, n).s32("n", n)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        int acc = 0;
                        for (int k = -3; k <= 3; k++) {
                            int j = i + k;
                            acc += (k + 4) * (j >= 0 && j < n ? in[j] : 0);
                        }
                        out[i] = acc;
                    }
                });
    }

    static KernelCase stencil2d() {
        Gen g = new Gen("stencil_2d_f32");
        int w = 40, h = 24;
        return kernel("stencil_2d_f32").describe("5-point Jacobi step").grid(3, 3, 1).block(16, 8, 1)
                .in("in", g.floats(w * h, 0, 1)).out("out", Elem.F32, w * h).s32("W", w).s32("H", h)
                .reference(io -> {
                    float[] in = io.f32("in"), out = io.f32("out");
                    for (int y = 0; y < h; y++) {
                        for (int x = 0; x < w; x++) {
                            int i = y * w + x;
                            if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
                                out[i] = in[i];
                            } else {
                                out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
                            }
                        }
                    }
                });
    }

    static KernelCase bitonicSort() {
        Gen g = new Gen("bitonic_sort");
        return kernel("bitonic_sort").describe("bitonic network in shared memory").grid(2).block(256)
                .inOut("data", g.bits32(512), Check.EXACT)
                .reference(io -> {
                    int[] d = io.i32("data");
                    Arrays.sort(d, 0, 256);
                    Arrays.sort(d, 256, 512);
                });
    }

    static KernelCase rankSort() {
        Gen g = new Gen("rank_sort");
        int n = 200;
        int[] keys = new int[n];
        int[] pool = g.bits32(n);
        for (int i = 0; i < n; i++) {
            keys[i] = (pool[i] & ~0xff) | i; // distinct by construction
        }
        return kernel("rank_sort").describe("unsigned compare loops").grid(4).block(64)
                .in("keys", Elem.U32, Bytes.of(keys)).out("sorted", Elem.U32, n).s32("n", n)
                .reference(io -> {
                    int[] k = io.i32("keys").clone(), s = io.i32("sorted");
                    long[] u = new long[n];
                    for (int i = 0; i < n; i++) {
                        u[i] = Integer.toUnsignedLong(k[i]);
                    }
                    Arrays.sort(u);
                    for (int i = 0; i < n; i++) {
                        s[i] = (int) u[i];
                    }
                });
    }

    static KernelCase histogram() {
        Gen g = new Gen("histogram_shared");
        int n = 3000;
        int[] v = g.ints(n, 0, 255);
        byte[] data = new byte[n];
        for (int i = 0; i < n; i++) {
            data[i] = (byte) v[i];
        }
        return kernel("histogram_shared").describe("shared and global atomics").grid(4).block(128)
                .in("data", Elem.U8, data).out("bins", Elem.U32, 64).s32("n", n)
                .reference(io -> {
                    int[] bins = io.i32("bins");
                    for (byte b : io.u8("data")) {
                        bins[b & 63]++;
                    }
                });
    }

    static KernelCase atomicCasFmax() {
        Gen g = new Gen("atomic_cas_fmax");
        int n = 500;
        return kernel("atomic_cas_fmax").describe("atom.cas retry loop").grid(2).block(256)
                .in("in", g.floats(n, -1000, 1000)).inOut("out", new float[] {-1e30f}, Check.FLOAT).s32("n", n)
                .reference(io -> {
                    float[] out = io.f32("out");
                    for (float v : io.f32("in")) {
                        out[0] = Math.max(out[0], v);
                    }
                });
    }

    static KernelCase atomicMix() {
        Gen g = new Gen("atomic_mix");
        int n = 300;
        int[] init = {0, 0, Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 0, 0, 0, -1, 0};
        return kernel("atomic_mix").describe("every integer atomic operation").grid(2).block(256)
                .in("in", g.bits32(n)).inOut("r", init, Check.EXACT).inOut("r64", Elem.U64, new byte[8], Check.EXACT)
                .s32("n", n)
                .reference(io -> {
                    int[] r = io.i32("r");
                    long[] r64 = io.i64("r64");
                    for (int v : io.i32("in")) {
                        r[0] += v;
                        r[1] -= v;
                        r[2] = Math.min(r[2], v);
                        r[3] = Math.max(r[3], v);
                        r[4] &= v | 0x0f0f0000;
                        r[5] |= v & 0x00f0f0ff;
                        r[6] ^= v;
                        r[7] = Integer.compareUnsigned(r[7], 100) >= 0 ? 0 : r[7] + 1;
                        r[8] = Integer.compareUnsigned(r[8], v) <= 0 ? r[8] : v;
                        r[9] = Integer.compareUnsigned(r[9], v) >= 0 ? r[9] : v;
                        r64[0] += (long) v * 0x100000001L;
                    }
                });
    }

    static KernelCase atomicAddF64() {
        Gen g = new Gen("atomic_add_f64");
        int n = 256;
        int[] k = g.ints(n, -100, 100);
        double[] in = new double[n];
        for (int i = 0; i < n; i++) {
            in[i] = k[i] / 8.0;
        }
        return kernel("atomic_add_f64").describe("atom.add.f64 and atom.add.f32").grid(1).block(256)
                .in("in", in).out("bins", Elem.F64, 9).s32("n", n)
                .reference(io -> {
                    double[] bins = io.f64("bins");
                    double[] x = io.f64("in");
                    for (int i = 0; i < n; i++) {
                        bins[i & 7] += x[i];
                    }
                    bins[8] = Double.longBitsToDouble(Float.floatToRawIntBits((float) n) & 0xffffffffL);
                });
    }

    static KernelCase dynamicShared() {
        Gen g = new Gen("dynamic_shared");
        return kernel("dynamic_shared").describe("extern __shared__").grid(3).block(64).dynamicShared(256)
                .inOut("data", g.bits32(192), Check.EXACT)
                .reference(io -> {
                    int[] d = io.i32("data");
                    for (int b = 0; b < 3; b++) {
                        int[] s = Arrays.copyOfRange(d, b * 64, b * 64 + 64);
                        for (int t = 0; t < 64; t++) {
                            d[b * 64 + t] = s[63 - t];
                        }
                    }
                });
    }

    static KernelCase transposeTile() {
        Gen g = new Gen("transpose_tile");
        int w = 64, h = 48;
        return kernel("transpose_tile").describe("padded shared tile, 2-D grid").grid(2, 2, 1).block(32, 8, 1)
                .in("in", g.floats(w * h, -1, 1)).out("out", Elem.F32, w * h).s32("W", w).s32("H", h)
                .reference(io -> {
                    float[] in = io.f32("in"), out = io.f32("out");
                    for (int y = 0; y < h; y++) {
                        for (int x = 0; x < w; x++) {
                            out[x * h + y] = in[y * w + x];
                        }
                    }
                });
    }

    static KernelCase localArray() {
        Gen g = new Gen("local_array");
        return kernel("local_array").describe("dynamically indexed local array").grid(1).block(32)
                .in("in", g.ints(32 * 16, -1000, 1000)).out("out", Elem.I32, 32 * 17).s32("stride", 3)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int i = 0; i < 32; i++) {
                        int[] buf = Arrays.copyOfRange(in, i * 16, i * 16 + 16);
                        Arrays.sort(buf);
                        int acc = 0;
                        for (int k = 0; k < 16; k += 3) {
                            acc = acc * 3 + buf[k];
                        }
                        System.arraycopy(buf, 0, out, i * 17, 16);
                        out[i * 17 + 16] = acc;
                    }
                });
    }

    static int mix(int a, int b) {
        return (a * 31) ^ (b >> 3);
    }

    static KernelCase callFunc() {
        Gen g = new Gen("call_func");
        int n = 64;
        return kernel("call_func").describe(".func calls with scalar and pointer arguments").grid(1).block(64)
                .in("a", g.bits32(n)).in("f", g.floats(n, -100, 100)).out("out", Elem.I32, n).out("fout", Elem.F32, n)
                .s32("n", n)
                .reference(io -> {
                    int[] a = io.i32("a"), out = io.i32("out");
                    float[] f = io.f32("f"), fout = io.f32("fout");
                    for (int i = 0; i < n; i++) {
                        out[i] = mix(a[i], mix(i, a[n - 1 - i]));
                        fout[i] = Math.fma(f[i], 0.5f, 1.0f);
                    }
                });
    }

    static int roundMix(int x, int k) {
        for (int r = 0; r < 24; r++) {
            x = (x ^ (x >>> 7)) * 0x9e3779b1 + k;
            k = Integer.rotateLeft(k, 5);
            x ^= k * (r + 1);
        }
        return x;
    }

    static KernelCase callOutlined() {
        Gen g = new Gen("call_outlined");
        int n = 96;
        return kernel("call_outlined").describe("a large .func called from three sites, one divergent").grid(2).block(64)
                .in("in", g.bits32(n)).out("out", Elem.U32, 2 * n).s32("n", n)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        int v = in[i];
                        int a = roundMix(v, 1);
                        if ((v & 1) != 0) {
                            a = roundMix(a, v);
                        }
                        out[2 * i] = a;
                        out[2 * i + 1] = roundMix(a ^ 0x55, i) + v;
                    }
                });
    }

    /** {@code call_wide}'s {@code mix}: two eight-word states and a 64-bit value. */
    static int mixWide(int[] a, long p, int[] b) {
        int x = (int) p ^ (int) (p >>> 32);
        for (int r = 0; r < 8; r++) {
            x = (x ^ a[r]) * 0x9e3779b1 + b[7 - r];
            x ^= x >>> 13;
        }
        return x;
    }

    static KernelCase callWide() {
        Gen g = new Gen("call_wide");
        int n = 96;
        return kernel("call_wide").describe("a .func taking twenty argument words, called from two sites, one divergent")
                .grid(2).block(64).in("in", g.bits32(n)).out("out", Elem.U32, n).s32("n", n)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        int v = in[i];
                        int[] a = new int[8], b = new int[8];
                        for (int k = 0; k < 8; k++) {
                            a[k] = v + k * 0x1234567;
                            b[k] = v * (2 * k + 1);
                        }
                        long p = (long) v << 32 | Integer.toUnsignedLong(i);
                        int r = mixWide(a, p, b);
                        if ((v & 1) != 0) {
                            b[3] = r;
                            r = mixWide(b, p + Integer.toUnsignedLong(r), a);
                        }
                        out[i] = r;
                    }
                });
    }

    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static int ackermann(int m, int n) {
        if (m == 0) {
            return n + 1;
        }
        if (n == 0) {
            return ackermann(m - 1, 1);
        }
        return ackermann(m - 1, ackermann(m, n - 1));
    }

    static KernelCase callRecursive() {
        Gen g = new Gen("call_recursive");
        int n = 32;
        return kernel("call_recursive").describe("recursive .func calls (stack in local memory)").grid(1).block(32)
                .in("in", Elem.U32, Bytes.of(g.ints(n, 0, 1000))).out("out", Elem.U32, 2 * n).s32("n", n)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        out[2 * i] = fib(in[i] % 12);
                        out[2 * i + 1] = ackermann(in[i] % 3, in[i] % 4);
                    }
                });
    }

    /** The CUDA source's {@code walk}: a local buffer per level, live across the recursive call. */
    static int walk(int x, int depth) {
        int[] buf = new int[8];
        for (int k = 0; k < 8; k++) {
            buf[k] = x * (2 * k + 1) + depth;
        }
        if (depth == 0) {
            return buf[x & 7];
        }
        int r = walk(buf[(x >>> 3) & 7] ^ (x >>> 1), depth - 1);
        return r + buf[(r + depth) & 7];
    }

    static KernelCase callDeepLocal() {
        Gen g = new Gen("call_deep_local");
        int n = 64;
        return kernel("call_deep_local").describe("deep recursion with a local array in every frame").grid(1).block(64)
                .in("in", Elem.U32, Bytes.of(g.bits32(n)))
                .out("out", Elem.U32, n).s32("n", n)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        out[i] = walk(in[i], 8 + (in[i] & 15));
                    }
                });
    }

    static KernelCase callIndirect() {
        Gen g = new Gen("call_indirect");
        int n = 64;
        java.util.List<java.util.function.IntBinaryOperator> ops = java.util.List.of((a, b) -> a + b,
                (a, b) -> a * b + 1, (a, b) -> (a ^ b) >>> 1, (a, b) -> (a << 3) - b);
        return kernel("call_indirect").describe("calls through a table of function addresses").grid(1).block(64)
                .in("in", Elem.U32, Bytes.of(g.bits32(n))).out("out", Elem.U32, n).s32("n", n)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    for (int i = 0; i < n; i++) {
                        int acc = in[i];
                        for (int k = 0; k < 3; k++) {
                            acc = ops.get((in[i] >>> (2 * k)) & 3).applyAsInt(acc, in[i] + k);
                        }
                        out[i] = acc;
                    }
                });
    }

    /** The CUDA source's {@code rec}: diverges around its own recursive call. */
    static int divergingRec(int x, int d) {
        int r;
        if (((x >>> d) & 1) != 0) {
            r = d > 0 ? divergingRec(x * 3 + d, d - 1) + 1 : x ^ 5;
        } else {
            r = (x >>> 1) + d;
        }
        return r * 7 + d;
    }

    static KernelCase callDiverge() {
        Gen g = new Gen("call_diverge");
        int n = 64;
        return kernel("call_diverge")
                .describe("a recursive call inside a divergent region whose callee diverges too, then a full-warp shuffle")
                .grid(1).block(64)
                .in("in", Elem.U32, Bytes.of(g.bits32(n))).out("out", Elem.U32, n)
                .reference(io -> {
                    int[] in = io.i32("in"), out = io.i32("out");
                    int[] r = new int[n];
                    for (int i = 0; i < n; i++) {
                        r[i] = (in[i] & 2) != 0 ? divergingRec(in[i], (in[i] >>> 2) & 7) : in[i];
                    }
                    for (int i = 0; i < n; i++) {
                        out[i] = r[i ^ 1] + r[i];
                    }
                });
    }

    static KernelCase constantMem() {
        Gen g = new Gen("constant_mem");
        int n = 64;
        float[] coeffs = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f, 0.125f, 4.0f, 3.0f};
        int[] offsets = {10, 20, 30, 40};
        return kernel("constant_mem").describe("initialised .const and .global module variables").grid(1).block(64)
                .in("x", g.floats(n, -1, 1)).out("y", Elem.F32, n).out("z", Elem.I32, n).s32("n", n)
                .reference(io -> {
                    float[] x = io.f32("x"), y = io.f32("y");
                    int[] z = io.i32("z");
                    for (int i = 0; i < n; i++) {
                        float acc = 0;
                        for (int k = 7; k >= 0; k--) {
                            acc = Math.fma(acc, x[i], coeffs[k]);
                        }
                        y[i] = acc;
                        z[i] = offsets[i & 3] + i;
                    }
                });
    }

    static KernelCase collatz() {
        Gen g = new Gen("collatz");
        int n = 64;
        int[] in = g.ints(n, 1, 10000);
        in[0] = 0; // never reaches 1: hits the cap
        in[1] = 1;
        return kernel("collatz").describe("divergent loops").grid(1).block(64)
                .in("in", Elem.U32, Bytes.of(in)).out("steps", Elem.U32, n).s32("n", n)
                .reference(io -> {
                    int[] src = io.i32("in"), steps = io.i32("steps");
                    for (int i = 0; i < n; i++) {
                        long v = Integer.toUnsignedLong(src[i]);
                        int s = 0;
                        while (v != 1 && s < 1000) {
                            v = (v & 1) != 0 ? 3 * v + 1 : v >>> 1;
                            s++;
                        }
                        steps[i] = s;
                    }
                });
    }
}
