package org.jptxas.cli.e2e;

import static org.jptxas.testing.kernels.KernelSuite.kernel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.function.IntBinaryOperator;
import java.util.function.LongBinaryOperator;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.testing.kernels.Check;
import org.jptxas.testing.kernels.Elem;
import org.jptxas.testing.kernels.KernelCase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bulk reductions and the tensor prefetch of issue 23 (sm_90a), run three ways (the PTX interpreter, the SASS
 * emulator on jptxas's cubin and on ptxas 13's), each against a CPU reference. Resource
 * {@code hopper/bulk_reductions.ptx}: {@code cp.reduce.async.bulk.global.shared::cta.bulk_group} (UBLKRED.G.S) with
 * add/min/max/inc/dec/and/or/xor on u32/s32/b32/f32, add/min/max/xor on u64/s64/b64 and add/min/max on f16/bf16.
 * Resource {@code hopper/tensor_reductions.ptx}: {@code cp.reduce.async.bulk.tensor.1d..5d} (UTMAREDG) with every
 * operation on u32, s32 and f32 tensor maps, boxes partly out of bounds and at negative coordinates, after
 * {@code cp.async.bulk.prefetch.tensor.1d..5d} (UTMAPF, no effect). Resource
 * {@code hopper/cluster_bulk_reductions.ptx}: {@code cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::
 * complete_tx::bytes} (UBLKRED.S.S) into the other block of a two-block cluster, whose barrier waits for every byte.
 * In each, three threads of one warp issue the same reductions: each counts (an add adds three times), so a lowering
 * that served equal operands once would be caught. {@code HopperAsyncFamiliesTest} holds the three kernels to
 * nvdisasm's reading and the hazard checker.
 */
class BulkReductionsEndToEndTest {
    private static final String ARCH = "sm_90a";
    /** Threads that issue each reduction. */
    private static final int ISSUERS = 3;

    private static final List<String> LINEAR_32 = List.of("add.u32", "add.s32", "min.u32", "min.s32", "max.u32",
            "max.s32", "inc.u32", "dec.u32", "and.b32", "or.b32", "xor.b32", "add.f32");
    private static final List<String> LINEAR_64 = List.of("add.u64", "min.s64", "max.u64", "xor.b64");
    /** Regions of 16-bit floats (two to a word), after the 32- and 64-bit ones. */
    private static final List<String> LINEAR_16 = List.of("add.f16", "add.bf16", "min.f16", "max.f16", "min.bf16",
            "max.bf16");

    private static int half(String form, int a, int b) {
        boolean bf16 = form.endsWith("bf16");
        float x = bf16 ? SmallFloats.bf16ToFloat(a) : SmallFloats.halfToFloat(a);
        float y = bf16 ? SmallFloats.bf16ToFloat(b) : SmallFloats.halfToFloat(b);
        float r = form.startsWith("add") ? x + y : form.startsWith("min") ? Math.min(x, y) : Math.max(x, y);
        return bf16 ? SmallFloats.toBf16(r) : SmallFloats.toHalf(r); // the sums of these small values are exact
    }

    private static IntBinaryOperator op32(String form) {
        return switch (form) {
            case "add.u32", "add.s32" -> Integer::sum;
            case "min.u32" -> (a, b) -> Integer.compareUnsigned(a, b) <= 0 ? a : b;
            case "min.s32" -> Math::min;
            case "max.u32" -> (a, b) -> Integer.compareUnsigned(a, b) >= 0 ? a : b;
            case "max.s32" -> Math::max;
            case "inc.u32" -> (a, b) -> Integer.compareUnsigned(a, b) >= 0 ? 0 : a + 1;
            case "dec.u32" -> (a, b) -> a == 0 || Integer.compareUnsigned(a, b) > 0 ? b : a - 1;
            case "and.b32" -> (a, b) -> a & b;
            case "or.b32" -> (a, b) -> a | b;
            case "xor.b32" -> (a, b) -> a ^ b;
            case "add.f32" -> (a, b) -> Float.floatToRawIntBits(Float.intBitsToFloat(a) + Float.intBitsToFloat(b));
            default -> throw new IllegalArgumentException(form);
        };
    }

    private static LongBinaryOperator op64(String form) {
        return switch (form) {
            case "add.u64" -> Long::sum;
            case "min.s64" -> Math::min;
            case "max.u64" -> (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b;
            case "xor.b64" -> (a, b) -> a ^ b;
            default -> throw new IllegalArgumentException(form);
        };
    }

    /** 384 words of {@code in} and of the accumulator: small values where inc/dec wrap and float adds are exact. */
    private static int[] words(int seed) {
        int[] w = new int[384];
        long x = seed;
        for (int i = 0; i < w.length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            int region = i / 16;
            String form = region < LINEAR_32.size() ? LINEAR_32.get(region) : "";
            int r16 = region - LINEAR_32.size() - LINEAR_64.size();
            boolean halves = r16 >= 0 && r16 < LINEAR_16.size();
            boolean bf16 = halves && LINEAR_16.get(r16).endsWith("bf16");
            int lo = (int) ((x >>> 33) % 64) - 32;
            int hi = (int) ((x >>> 45) % 64) - 32;
            w[i] = halves ? (bf16 ? SmallFloats.toBf16(hi / 4.0) << 16 | SmallFloats.toBf16(lo / 4.0)
                    : SmallFloats.toHalf(hi / 4.0) << 16 | SmallFloats.toHalf(lo / 4.0))
                    : form.startsWith("inc") || form.startsWith("dec") ? (int) ((x >>> 33) % 9)
                    : form.equals("add.f32") ? Float.floatToRawIntBits((int) ((x >>> 33) % 64) / 4f - 3)
                    : (int) (x >>> 32);
        }
        return w;
    }

    private static KernelCase linearCase(Path ptx) {
        int[] in = words(11);
        return kernel("bulk_reductions").describe("cp.reduce.async.bulk, every operation (sm_90a)").ptx(ptx)
                .minSm(90).grid(1).block(96).in("in", in).inOut("acc", words(23), Check.EXACT)
                .reference(io -> {
                    int[] acc = io.i32("acc");
                    for (int r = 0; r < LINEAR_32.size(); r++) {
                        IntBinaryOperator f = op32(LINEAR_32.get(r));
                        for (int i = 16 * r; i < 16 * r + 16; i++) {
                            for (int k = 0; k < ISSUERS; k++) {
                                acc[i] = f.applyAsInt(acc[i], in[i]);
                            }
                        }
                    }
                    for (int r = 0; r < LINEAR_64.size(); r++) {
                        LongBinaryOperator f = op64(LINEAR_64.get(r));
                        for (int i = 16 * (LINEAR_32.size() + r); i < 16 * (LINEAR_32.size() + r + 1); i += 2) {
                            long b = Integer.toUnsignedLong(in[i]) | (long) in[i + 1] << 32;
                            long a = Integer.toUnsignedLong(acc[i]) | (long) acc[i + 1] << 32;
                            for (int k = 0; k < ISSUERS; k++) {
                                a = f.applyAsLong(a, b);
                            }
                            acc[i] = (int) a;
                            acc[i + 1] = (int) (a >>> 32);
                        }
                    }
                    for (int r = 0; r < LINEAR_16.size(); r++) {
                        String form = LINEAR_16.get(r);
                        int first = 16 * (LINEAR_32.size() + LINEAR_64.size() + r);
                        for (int i = first; i < first + 16; i++) {
                            int a = acc[i];
                            for (int k = 0; k < ISSUERS; k++) {
                                a = half(form, a >>> 16, in[i] >>> 16) << 16 | half(form, a & 0xffff, in[i] & 0xffff);
                            }
                            acc[i] = a;
                        }
                    }
                });
    }

    private static final List<String> CLUSTER = List.of("add.u32", "min.s32", "max.u32", "inc.u32", "dec.u32", "or.b32",
            "xor.b32", "add.u64");

    /** Each block's half of 128 words: small values in the inc/dec regions (words 48-79), any bits elsewhere. */
    private static int[] clusterWords(int seed) {
        int[] w = new int[256];
        long x = seed;
        for (int i = 0; i < w.length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            int word = i % 128;
            w[i] = word >= 48 && word < 80 ? (int) ((x >>> 33) % 9) : (int) (x >>> 32);
        }
        return w;
    }

    private static KernelCase clusterCase(Path ptx) {
        int[] in = clusterWords(31);
        int[] init = clusterWords(37);
        return kernel("cluster_bulk_reductions").describe("cp.reduce.async.bulk into shared::cluster (sm_90a)")
                .ptx(ptx).minSm(90).grid(2).block(64).cluster(2, 1, 1).in("in", in).in("init", init)
                .out("out", Elem.I32, 256).reference(io -> {
                    int[] out = io.i32("out");
                    for (int rank = 0; rank < 2; rank++) {
                        int mine = 128 * rank;
                        int peer = 128 * (rank ^ 1); // the other block's sources reduce into this one
                        for (int r = 0; r < CLUSTER.size(); r++) {
                            String form = CLUSTER.get(r);
                            for (int i = 16 * r; i < 16 * r + 16; i += form.endsWith("64") ? 2 : 1) {
                                if (form.endsWith("64")) {
                                    long a = Integer.toUnsignedLong(init[mine + i]) | (long) init[mine + i + 1] << 32;
                                    long b = Integer.toUnsignedLong(in[peer + i]) | (long) in[peer + i + 1] << 32;
                                    a += ISSUERS * b;
                                    out[mine + i] = (int) a;
                                    out[mine + i + 1] = (int) (a >>> 32);
                                    continue;
                                }
                                int a = init[mine + i];
                                for (int k = 0; k < ISSUERS; k++) {
                                    a = op32(form).applyAsInt(a, in[peer + i]);
                                }
                                out[mine + i] = a;
                            }
                        }
                    }
                });
    }

    /** One tensor reduction of the kernel: the map's buffer, its dims and box, the coordinates, the operation. */
    private record Box(String buffer, int[] dims, int[] box, int[] at, String form, int from) {
        Box(String buffer, int[] dims, int[] box, int[] at, String form) {
            this(buffer, dims, box, at, form, 0);
        }

        /** Reduces the box's in-bounds elements (source elements from {@code from}, dimension 0 fastest) into acc. */
        void apply(int[] acc, int[] src) {
            IntBinaryOperator f = op32(form);
            int count = 1;
            for (int b : box) {
                count *= b;
            }
            for (int e = 0; e < count; e++) {
                int rest = e;
                int linear = 0;
                int scale = 1;
                boolean inside = true;
                for (int d = 0; d < dims.length; d++) {
                    int c = at[d] + rest % box[d];
                    rest /= box[d];
                    inside &= c >= 0 && c < dims[d];
                    linear += c * scale;
                    scale *= dims[d];
                }
                for (int k = 0; inside && k < ISSUERS; k++) {
                    acc[linear] = f.applyAsInt(acc[linear], src[from + e]);
                }
            }
        }
    }

    private static final int[] U1 = {64};
    private static final int[] S1 = {40};
    private static final int[] U2 = {16, 8};
    private static final int[] S3 = {8, 4, 4};
    private static final int[] U4 = {4, 4, 2, 2};
    private static final int[] F5 = {4, 2, 2, 2, 2};

    private static final List<Box> BOXES = List.of(
            new Box("u1", U1, new int[] {16}, new int[] {0}, "and.b32"),
            new Box("u1", U1, new int[] {16}, new int[] {16}, "or.b32"),
            new Box("u1", U1, new int[] {16}, new int[] {32}, "xor.b32"),
            new Box("u1", U1, new int[] {16}, new int[] {48}, "dec.u32"),
            new Box("s1", S1, new int[] {16}, new int[] {30}, "add.s32"),
            new Box("s1", S1, new int[] {16}, new int[] {0}, "min.s32"),
            new Box("u2", U2, new int[] {8, 4}, new int[] {12, 6}, "max.u32"),
            new Box("u2", U2, new int[] {8, 4}, new int[] {0, 0}, "inc.u32", 32),
            new Box("s3", S3, new int[] {4, 2, 2}, new int[] {2, 1, 1}, "max.s32"),
            new Box("s3", S3, new int[] {4, 2, 2}, new int[] {-2, -1, -1}, "min.s32"),
            new Box("u4", U4, new int[] {4, 2, 2, 1}, new int[] {0, 2, 0, 1}, "add.u32"),
            new Box("f5", F5, new int[] {4, 2, 1, 2, 1}, new int[] {0, 0, 1, 0, 1}, "add.f32", 32));

    private static int[] initial(String buffer, int n, int seed) {
        int[] w = new int[n];
        long x = seed;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            w[i] = buffer.equals("f5") ? Float.floatToRawIntBits((int) ((x >>> 33) % 64) / 8f - 2)
                    : buffer.equals("u2") ? (int) ((x >>> 33) % 7) // inc wraps within the source's values
                    : buffer.equals("u1") && i >= 48 ? (int) ((x >>> 33) % 7) : (int) (x >>> 32);
        }
        return w;
    }

    private static KernelCase tensorCase(Path ptx) {
        // words 0-31: any bits (the integer boxes); 32-47: small floats (the f32 box, and the bounds of the 2d inc's
        // first half); 48-63: small integers (the 2d inc's second half, which wraps)
        int[] in = new int[64];
        long x = 5;
        for (int i = 0; i < in.length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            in[i] = i < 32 ? (int) (x >>> 32) : i < 48 ? Float.floatToRawIntBits((int) ((x >>> 33) % 32) / 4f - 3)
                    : (int) ((x >>> 33) % 6);
        }
        return kernel("tensor_reductions").describe("cp.reduce.async.bulk.tensor 1d-5d, prefetch.tensor (sm_90a)")
                .ptx(ptx).minSm(90).grid(1).block(64).in("in", in)
                .inOut("u1", initial("u1", 64, 1), Check.EXACT).inOut("s1", initial("s1", 40, 2), Check.EXACT)
                .inOut("u2", initial("u2", 128, 3), Check.EXACT).inOut("s3", initial("s3", 128, 4), Check.EXACT)
                .inOut("u4", initial("u4", 64, 5), Check.EXACT).inOut("f5", initial("f5", 64, 6), Check.EXACT)
                .tensorMap("tu1", "u1", 2, 4, List.of(64), List.of(16))
                .tensorMap("ts1", "s1", 3, 4, List.of(40), List.of(16))
                .tensorMap("tu2", "u2", 2, 4, List.of(16, 8), List.of(8, 4))
                .tensorMap("ts3", "s3", 3, 4, List.of(8, 4, 4), List.of(4, 2, 2))
                .tensorMap("tu4", "u4", 2, 4, List.of(4, 4, 2, 2), List.of(4, 2, 2, 1))
                .tensorMap("tf5", "f5", 7, 4, List.of(4, 2, 2, 2, 2), List.of(4, 2, 1, 2, 1))
                .reference(io -> {
                    for (Box b : BOXES) {
                        b.apply(io.i32(b.buffer()), in);
                    }
                });
    }

    @Test
    void jptxasWritesPtxasForms(@TempDir Path dir) throws Exception {
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        String linear = OracleAcceptanceTest.compilePtx(registry, AsyncGapFormsEndToEndTest.resource(dir,
                "bulk_reductions"), ARCH, false, false).sass();
        for (String form : List.of("UBLKRED.G.S.ADD [", "UBLKRED.G.S.ADD.S32 [", "UBLKRED.G.S.MIN [",
                "UBLKRED.G.S.MIN.S32 [", "UBLKRED.G.S.MAX [", "UBLKRED.G.S.MAX.S32 [", "UBLKRED.G.S.INC [",
                "UBLKRED.G.S.DEC [", "UBLKRED.G.S.AND [", "UBLKRED.G.S.OR [", "UBLKRED.G.S.XOR [",
                "UBLKRED.G.S.ADD.F32.RN [", "UBLKRED.G.S.ADD.U64 [", "UBLKRED.G.S.MIN.S64 [",
                "UBLKRED.G.S.MAX.U64 [", "UBLKRED.G.S.XOR.U64 [", "UBLKRED.G.S.ADD.F16.RN [",
                "UBLKRED.G.S.ADD.BF16.RN [", "UBLKRED.G.S.MIN.F16.RN [", "UBLKRED.G.S.MAX.F16.RN [",
                "UBLKRED.G.S.MIN.BF16.RN [", "UBLKRED.G.S.MAX.BF16.RN [")) {
            assertTrue(linear.contains(form), form + " missing:\n" + linear);
        }
        String tensor = OracleAcceptanceTest.compilePtx(registry, AsyncGapFormsEndToEndTest.resource(dir,
                "tensor_reductions"), ARCH, false, false).sass();
        for (String form : List.of("UTMAPF.L2.1D [", "UTMAPF.L2.2D [", "UTMAPF.L2.3D [", "UTMAPF.L2.4D [",
                "UTMAPF.L2.5D [", "UTMAREDG.1D.AND [", "UTMAREDG.1D.OR [", "UTMAREDG.1D.XOR [", "UTMAREDG.1D.DEC [",
                "UTMAREDG.1D.ADD [", "UTMAREDG.1D.MIN [", "UTMAREDG.2D.MAX [", "UTMAREDG.2D.INC [",
                "UTMAREDG.3D.MAX [", "UTMAREDG.3D.MIN [", "UTMAREDG.4D.ADD [", "UTMAREDG.5D.ADD [")) {
            assertTrue(tensor.contains(form), form + " missing:\n" + tensor);
        }
    }

    @Test
    void bulkReductionsComputeTheReferenceThreeWays(@TempDir Path dir) throws Exception {
        Path ptx = AsyncGapFormsEndToEndTest.resource(dir, "bulk_reductions");
        assertEquals(List.of(), AsyncGapFormsEndToEndTest.threeWays(linearCase(ptx), ptx, dir.resolve("run")));
    }

    @Test
    void clusterReductionsComputeTheReferenceThreeWays(@TempDir Path dir) throws Exception {
        Path ptx = AsyncGapFormsEndToEndTest.resource(dir, "cluster_bulk_reductions");
        String sass = OracleAcceptanceTest.compilePtx(BackendRegistry.discover(getClass().getClassLoader()), ptx, ARCH,
                false, false).sass();
        for (String form : List.of("UBLKRED.S.S.ADD [", "UBLKRED.S.S.MIN.S32 [", "UBLKRED.S.S.MAX [",
                "UBLKRED.S.S.INC [", "UBLKRED.S.S.DEC [", "UBLKRED.S.S.OR [", "UBLKRED.S.S.XOR [",
                "UBLKRED.S.S.ADD.U64 [")) {
            assertTrue(sass.contains(form), form + " missing:\n" + sass);
        }
        assertEquals(List.of(), AsyncGapFormsEndToEndTest.threeWays(clusterCase(ptx), ptx, dir.resolve("run")));
    }

    @Test
    void tensorReductionsComputeTheReferenceThreeWays(@TempDir Path dir) throws Exception {
        Path ptx = AsyncGapFormsEndToEndTest.resource(dir, "tensor_reductions");
        assertEquals(List.of(), AsyncGapFormsEndToEndTest.threeWays(tensorCase(ptx), ptx, dir.resolve("run")));
    }
}
