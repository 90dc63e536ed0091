package org.jptxas.testing.kernels;

import static org.jptxas.testing.kernels.KernelSuite.kernel;

import java.util.List;

/** Kernels about textures and surfaces: sampling through texture objects, reading and writing surface objects. */
final class TextureKernels {
    private TextureKernels() {}

    static List<KernelCase> all() {
        return List.of(texture2dLinear(), surfaceRmw());
    }

    static final int SAMPLES = 200;

    /**
     * 200 threads (2 blocks of 128, the rest idle) sample four 2D textures at coordinates in [-0.3, 1.3): f32 16x8
     * linear clamp, f32 12x6 linear wrap, u8 10x8 read as normalized floats, linear, mirror (normalized coordinates),
     * and s16 16x8 point-sampled at texel coordinates (16 u, 8 v) with border addressing (border -7). The reference
     * is the simulator's documented texture model ({@code org.jptxas.simulator.exec.Texture}): 8-bit weight fractions
     * rounded to the nearest 1/256, float32 products and sums in neighbour order.
     */
    static KernelCase texture2dLinear() {
        Gen g = new Gen("texture_2d_linear");
        float[] clamp = g.floats(16 * 8, -10, 10);
        float[] wrap = g.floats(12 * 6, -10, 10);
        int[] mirror = g.ints(10 * 8, 0, 255);
        int[] border = g.ints(16 * 8, -30000, 30000);
        float[] coords = g.floats(2 * SAMPLES, -0.3, 1.3);
        byte[] mirrorBytes = new byte[mirror.length];
        short[] borderShorts = new short[border.length];
        for (int k = 0; k < mirror.length; k++) {
            mirrorBytes[k] = (byte) mirror[k];
        }
        for (int k = 0; k < border.length; k++) {
            borderShorts[k] = (short) border[k];
        }
        List<Integer> zero = List.of(0, 0, 0, 0);
        return kernel("texture_2d_linear").describe("tex.2d through texture objects: linear filtering with clamp, wrap"
                        + " and mirror addressing, normalized-float 8-bit texels, point sampling with a border")
                .grid(2).block(128)
                .texture(new KernelCase.TextureArg("clamp_tex", Bytes.of(clamp), "f32", 1, List.of(16, 8), false, true,
                        List.of("clamp", "clamp"), true, zero))
                .texture(new KernelCase.TextureArg("wrap_tex", Bytes.of(wrap), "f32", 1, List.of(12, 6), false, true,
                        List.of("wrap", "wrap"), true, zero))
                .texture(new KernelCase.TextureArg("mirror_tex", mirrorBytes, "u8", 1, List.of(10, 8), true, true,
                        List.of("mirror", "mirror"), true, zero))
                .texture(new KernelCase.TextureArg("border_tex", Bytes.of(borderShorts), "s16", 1, List.of(16, 8),
                        false, false, List.of("border", "border"), false, List.of(-7, 0, 0, 1)))
                .in("coords", coords)
                .out("out_clamp", Elem.F32, SAMPLES).out("out_wrap", Elem.F32, SAMPLES)
                .out("out_mirror", Elem.F32, SAMPLES).out("out_border", Elem.I32, SAMPLES)
                .s32("n", SAMPLES)
                .reference(io -> {
                    float[] mirrorFloats = new float[mirror.length];
                    for (int k = 0; k < mirror.length; k++) {
                        mirrorFloats[k] = mirror[k] / 255f;
                    }
                    float[] outClamp = io.f32("out_clamp");
                    float[] outWrap = io.f32("out_wrap");
                    float[] outMirror = io.f32("out_mirror");
                    int[] outBorder = io.i32("out_border");
                    for (int i = 0; i < SAMPLES; i++) {
                        float u = coords[2 * i];
                        float v = coords[2 * i + 1];
                        outClamp[i] = bilinear(clamp, 16, 8, 'c', u, v);
                        outWrap[i] = bilinear(wrap, 12, 6, 'w', u, v);
                        outMirror[i] = bilinear(mirrorFloats, 10, 8, 'm', u, v);
                        int x = (int) Math.floor(u * 16f);
                        int y = (int) Math.floor(v * 8f);
                        outBorder[i] = x < 0 || x >= 16 || y < 0 || y >= 8 ? -7 : border[y * 16 + x];
                    }
                });
    }

    /** Linear filtering at normalized (u, v) of a w x h texture; {@code mode} 'c' clamp, 'w' wrap, 'm' mirror. */
    private static float bilinear(float[] texels, int w, int h, char mode, float u, float v) {
        float xb = u * w - 0.5f;
        float yb = v * h - 0.5f;
        int x0 = (int) Math.floor(xb);
        int y0 = (int) Math.floor(yb);
        float a = Math.round((xb - x0) * 256f) / 256f;
        float b = Math.round((yb - y0) * 256f) / 256f;
        float sum = 0f;
        sum += (1f - a) * (1f - b) * texels[wrapIndex(y0, h, mode) * w + wrapIndex(x0, w, mode)];
        sum += a * (1f - b) * texels[wrapIndex(y0, h, mode) * w + wrapIndex(x0 + 1, w, mode)];
        sum += (1f - a) * b * texels[wrapIndex(y0 + 1, h, mode) * w + wrapIndex(x0, w, mode)];
        sum += a * b * texels[wrapIndex(y0 + 1, h, mode) * w + wrapIndex(x0 + 1, w, mode)];
        return sum;
    }

    private static int wrapIndex(int i, int n, char mode) {
        return switch (mode) {
            case 'c' -> i < 0 ? 0 : i >= n ? n - 1 : i;
            case 'w' -> ((i % n) + n) % n;
            default -> {
                int period = ((i % (2 * n)) + 2 * n) % (2 * n);
                yield period < n ? period : 2 * n - 1 - period;
            }
        };
    }
    static final int SURFACE_W = 24;
    static final int SURFACE_H = 10;

    /**
     * A 2D s32 surface of {@value #SURFACE_W}x{@value #SURFACE_H} elements read and written in place through a
     * surface object ({@code suld.b.2d.b32.trap}, {@code sust.b.2d.b32.trap}, x in bytes): element (x, y) becomes
     * {@code 3 v + 7} (wrapping), by a 2x2 grid of 16x8 blocks (threads beyond the surface idle).
     */
    static KernelCase surfaceRmw() {
        Gen g = new Gen("surface_rmw");
        int[] v = g.bits32(SURFACE_W * SURFACE_H);
        return kernel("surface_rmw").describe("suld.b.2d / sust.b.2d read-modify-write through a surface object")
                .grid(2, 2, 1).block(16, 8, 1)
                .surface("surf", Elem.I32, SURFACE_W, SURFACE_H, Bytes.of(v), Check.EXACT)
                .s32("width", SURFACE_W).s32("height", SURFACE_H).s32("scale", 3).s32("offset", 7)
                .reference(io -> {
                    int[] out = io.i32("surf");
                    for (int k = 0; k < out.length; k++) {
                        out[k] = v[k] * 3 + 7;
                    }
                });
    }

    static final int GATHER_W = 8;
    static final int GATHER_H = 6;
    static final int REDUCE_W = 16;
    static final int REDUCE_H = 8;

    /**
     * Gathers, size queries and surface reductions ({@code tld4}, {@code txq}, {@code suq}, {@code sured}; outside
     * {@link KernelSuite#all()}, run three ways by cli's {@code TextureGatherQueryEndToEndTest}): 200 threads gather
     * the red channel and the alpha channel (x and w kept) of the 2x2 footprint at normalized (u, v) in [-0.3, 1.3)
     * of an f32 4-channel 8x6 texture, clamped in u and wrapped in v; the first four store the texture's width and
     * height and the {@value #REDUCE_W}x{@value #REDUCE_H} s32 surface's; thread i adds i + 1 to element
     * (i mod 16, (i / 16) mod 4) and takes the signed maximum of element (7 i mod 16, 4 + (i / 16) mod 4) and
     * 37 i mod 101 - 50. The gather's order is the simulator's ({@code org.jptxas.simulator.exec.Texture#gather}):
     * (i, j + 1), (i + 1, j + 1), (i + 1, j), (i, j) of the lower-left texel (i, j) of the footprint.
     */
    public static KernelCase gatherQuery() {
        Gen g = new Gen("texture_gather_query");
        float[] texels = g.floats(GATHER_W * GATHER_H * 4, -10, 10);
        int[] surface = g.ints(REDUCE_W * REDUCE_H, -100, 100);
        float[] coords = g.floats(2 * SAMPLES, -0.3, 1.3);
        return kernel("texture_gather_query").describe("tld4 gathers, txq/suq sizes and sured add/max through texture"
                        + " and surface objects")
                .grid(2).block(128)
                .texture(new KernelCase.TextureArg("tex", Bytes.of(texels), "f32", 4, List.of(GATHER_W, GATHER_H),
                        false, false, List.of("clamp", "wrap"), true, List.of(0, 0, 0, 0)))
                .surface("surf", Elem.I32, REDUCE_W, REDUCE_H, Bytes.of(surface), Check.EXACT)
                .in("coords", coords)
                .out("out_r", Elem.F32, 4 * SAMPLES).out("out_a", Elem.F32, 2 * SAMPLES).out("sizes", Elem.I32, 4)
                .s32("n", SAMPLES)
                .reference(io -> {
                    float[] outR = io.f32("out_r");
                    float[] outA = io.f32("out_a");
                    for (int i = 0; i < SAMPLES; i++) {
                        float[] r = gather(texels, 0, coords[2 * i], coords[2 * i + 1]);
                        float[] a = gather(texels, 3, coords[2 * i], coords[2 * i + 1]);
                        System.arraycopy(r, 0, outR, 4 * i, 4);
                        outA[2 * i] = a[0];
                        outA[2 * i + 1] = a[3];
                    }
                    int[] sizes = io.i32("sizes");
                    sizes[0] = GATHER_W;
                    sizes[1] = GATHER_H;
                    sizes[2] = REDUCE_W;
                    sizes[3] = REDUCE_H;
                    int[] out = io.i32("surf");
                    System.arraycopy(surface, 0, out, 0, out.length);
                    int half = REDUCE_H / 2;
                    for (int i = 0; i < SAMPLES; i++) {
                        int y = i / REDUCE_W % half;
                        out[y * REDUCE_W + i % REDUCE_W] += i + 1;
                        int m = (half + y) * REDUCE_W + i * 7 % REDUCE_W;
                        out[m] = Math.max(out[m], i * 37 % 101 - 50);
                    }
                });
    }

    /**
     * Gathers of every channel with all four results read ({@code tld4.r/.g/.b/.a}, none narrowed by a write mask;
     * outside {@link KernelSuite#all()}, run three ways by cli's {@code TextureGatherQueryEndToEndTest}): 200 threads
     * gather each channel of the 2x2 footprint at normalized (u, v) in [-0.3, 1.3) of an f32 4-channel 8x6 texture,
     * clamped in u and wrapped in v, in the order of {@link #gatherQuery}, and store the four texels of each.
     */
    public static KernelCase gatherChannels() {
        Gen g = new Gen("texture_gather_channels");
        float[] texels = g.floats(GATHER_W * GATHER_H * 4, -10, 10);
        float[] coords = g.floats(2 * SAMPLES, -0.3, 1.3);
        List<String> outs = List.of("out_r", "out_g", "out_b", "out_a");
        KernelCaseBuilder b = kernel("texture_gather_channels").describe("tld4.r/.g/.b/.a gathers with every"
                        + " channel read through a texture object")
                .grid(2).block(128)
                .texture(new KernelCase.TextureArg("tex", Bytes.of(texels), "f32", 4, List.of(GATHER_W, GATHER_H),
                        false, false, List.of("clamp", "wrap"), true, List.of(0, 0, 0, 0)))
                .in("coords", coords);
        for (String out : outs) {
            b = b.out(out, Elem.F32, 4 * SAMPLES);
        }
        return b.s32("n", SAMPLES)
                .reference(io -> {
                    for (int c = 0; c < outs.size(); c++) {
                        float[] out = io.f32(outs.get(c));
                        for (int i = 0; i < SAMPLES; i++) {
                            System.arraycopy(gather(texels, c, coords[2 * i], coords[2 * i + 1]), 0, out, 4 * i, 4);
                        }
                    }
                });
    }

    /** Channel {@code c} of the 2x2 footprint at normalized (u, v): clamp in u, wrap in v (see {@link #gatherQuery}). */
    private static float[] gather(float[] texels, int c, float u, float v) {
        int i = (int) Math.floor(u * GATHER_W - 0.5f);
        int j = (int) Math.floor(v * GATHER_H - 0.5f);
        int[][] at = {{i, j + 1}, {i + 1, j + 1}, {i + 1, j}, {i, j}};
        float[] out = new float[4];
        for (int k = 0; k < 4; k++) {
            int x = wrapIndex(at[k][0], GATHER_W, 'c');
            int y = wrapIndex(at[k][1], GATHER_H, 'w');
            out[k] = texels[4 * (y * GATHER_W + x) + c];
        }
        return out;
    }
}
