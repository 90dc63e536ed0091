package org.jptxas.testing.kernels;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jptxas.testing.Corpus;

/**
 * Launches for kernels of the shared corpus ({@code ../shared/corpus}): each case names its corpus file by its path
 * under the corpus (read where it is, never copied), the entry, a launch with deterministic inputs and a CPU
 * reference, so the kernel runs like a suite kernel (interpreter, emulator on ptxas's cubin and on ours). Only
 * kernels that are simple to launch and quick to emulate are here: elementwise kernels over pointers and a size, a
 * one-block scan, and the corpus's one-thread instruction tests. The lowest SM of a case is the corpus index's
 * {@code ptxas_arch} (the SM its {@code .target} allows).
 */
public final class CorpusKernels {
    private CorpusKernels() {}

    /** A case before the corpus is located: its file under the corpus and how to build it from the file's path. */
    record Spec(String file, Function<Path, KernelCaseBuilder> launch, Consumer<Io> reference) {}

    /** Every corpus case; skips the calling test (fails under CI) when the corpus is absent. */
    public static List<KernelCase> all() {
        Path dir = Corpus.assumeDir();
        Map<String, Corpus.Entry> index = Corpus.assumeEntries().stream()
                .collect(Collectors.toMap(e -> dir.relativize(e.file()).toString(), e -> e, (a, b) -> a));
        List<KernelCase> out = new ArrayList<>();
        for (Spec s : specs()) {
            Corpus.Entry e = index.get(s.file());
            if (e == null || !e.ptxasAccepts() || !Files.isRegularFile(e.file())) {
                throw new IllegalStateException("corpus file " + s.file() + " is missing or not accepted by ptxas");
            }
            out.add(s.launch().apply(e.file()).minSm(Integer.parseInt(e.arch().substring(3))).reference(s.reference()));
        }
        return List.copyOf(out);
    }

    /** {@code <source>.<file stem>[.<entry>]}: unique, and usable in a file name. */
    static KernelCaseBuilder kernel(String file, String entry, boolean namedByEntry, Path ptx) {
        String stem = file.substring(4, file.length() - 4).replace('/', '.');
        return KernelSuite.kernel(namedByEntry ? stem + "." + entry : stem).entry(entry).ptx(ptx);
    }

    private static List<Spec> specs() {
        List<Spec> s = new ArrayList<>();
        s.addAll(elementwise());
        s.addAll(CorpusInstructionKernels.specs());
        return s;
    }

    private static final int N = 1000;

    /** {@code c[i] = a[i] + b[i]} for i < n (f32), as most of the corpus's vector adds compute it. */
    private static void vadd(Io io, String a, String b, String c, int n) {
        float[] x = io.f32(a), y = io.f32(b), z = io.f32(c);
        for (int i = 0; i < n; i++) {
            z[i] = x[i] + y[i];
        }
    }

    private static List<Spec> elementwise() {
        List<Spec> s = new ArrayList<>();
        // vectorAdd(const float* a, const float* b, float* c, int n), bounds-checked
        s.add(vaddN("ptx/zluda/vectorAdd_11.ptx", "_Z9vectorAddPKfS0_Pfi"));
        s.add(vaddN("ptx/zluda/vectorAdd_kernel64.ptx", "VecAdd_kernel"));
        s.add(vaddN("ptx/gpuocelot/data__vectorAdd.ptx", "VecAdd"));
        // vadd(a, b, c) without a bound: exactly one thread per element
        for (String[] f : new String[][] {{"ptx/cuda_jl/test__core__ptx__vadd.ptx", "vadd"},
                {"ptx/cuda_jl/examples__driver__vadd.ptx", "kernel_vadd"}}) {
            s.add(new Spec(f[0], p -> {
                Gen g = new Gen(f[0]);
                return kernel(f[0], f[1], false, p).describe("c[i] = a[i] + b[i], no bound").grid(4).block(256)
                        .in("a", g.floats(1024, -100, 100)).in("b", g.floats(1024, -100, 100))
                        .out("c", Elem.F32, 1024);
            }, io -> vadd(io, "a", "b", "c", 1024)));
        }
        // sum(a, b, c, n): grid-stride loop
        s.add(new Spec("ptx/rust_cuda_nvvm/cust_add.ptx", p -> {
            Gen g = new Gen("cust_add");
            return kernel("ptx/rust_cuda_nvvm/cust_add.ptx", "sum", false, p).describe("grid-stride f32 add")
                    .grid(2).block(128).in("a", g.floats(N, -100, 100)).in("b", g.floats(N, -100, 100))
                    .out("c", Elem.F32, N).u32("n", N);
        }, io -> vadd(io, "a", "b", "c", N)));
        // add(a, n, b, m, out): Rust's bounds check traps when i >= m
        s.add(new Spec("ptx/rust_cuda_nvvm/add.ptx", p -> {
            Gen g = new Gen("rust_add");
            return kernel("ptx/rust_cuda_nvvm/add.ptx", "add", false, p).describe("ld.global.nc f32 add, checked")
                    .grid(4).block(256).in("a", g.floats(N, -100, 100)).u64("n", N)
                    .in("b", g.floats(N, -100, 100)).u64("m", N).out("c", Elem.F32, N);
        }, io -> vadd(io, "a", "b", "c", N)));
        // vector_add_scalar(double* v, double s, int n): v[i] += s
        s.add(new Spec("ptx/ptx90parser_samples/vector_add_scalar.ptx", p -> {
            Gen g = new Gen("vector_add_scalar");
            return kernel("ptx/ptx90parser_samples/vector_add_scalar.ptx", "vector_add_scalar", false, p)
                    .describe("f64 in place").grid(4).block(256)
                    .buffer("v", Elem.F64, Bytes.of(g.doubles(N, -100, 100)), true, Check.FLOAT)
                    .f64("s", 3.25).u32("n", N);
        }, io -> {
            double[] v = io.f64("v");
            for (int i = 0; i < N; i++) {
                v[i] += io.scalarF64("s");
            }
        }));
        // k0(a, out, n, _, y, z): out[i] = z, out[n + i] = y, out[2n + i] = a[i] + 99 (one block)
        s.add(new Spec("ptx/nvcc_misc/capybara-club_ptx_runner__test.ptx", p -> {
            Gen g = new Gen("capybara");
            return kernel("ptx/nvcc_misc/capybara-club_ptx_runner__test.ptx", "k0", false, p)
                    .describe("three strided stores per thread").grid(1).block(256)
                    .in("a", g.floats(256, -100, 100)).out("out", Elem.F32, 3 * 256).u64("n", 256)
                    .f32("x", 1.5f).f32("y", -2.75f).f32("z", 8.125f);
        }, io -> {
            float[] a = io.f32("a"), o = io.f32("out");
            for (int i = 0; i < 256; i++) {
                o[i] = io.scalarF32("z");
                o[256 + i] = io.scalarF32("y");
                o[512 + i] = a[i] + 99f;
            }
        }));
        // write_float_sum(out, short s, float f): out[0] = s + f, both also stored to dynamic shared memory
        s.add(new Spec("ptx/librecuda/dynamic_shared_mem__write_float.ptx", p ->
                kernel("ptx/librecuda/dynamic_shared_mem__write_float.ptx", "write_float_sum", false, p)
                        .describe("one thread, dynamic shared store").dynamicShared(8192)
                        .out("out", Elem.F32, 1).u16("s", -37).f32("f", 0.625f),
                io -> io.f32("out")[0] = (short) io.scalarInt("s") + io.scalarF32("f")));
        // cudarc: sin_kernel(out, in, n) and custom_kernels' division and sin kernels (out first, size last, u64)
        s.add(new Spec("ptx/cudarc/sin.ptx", p -> {
            Gen g = new Gen("cudarc_sin");
            return kernel("ptx/cudarc/sin.ptx", "sin_kernel", false, p).describe("sinf").grid(4).block(256)
                    .out("out", Elem.F32, N, Check.within(2e-6, 2e-6)).in("in", g.floats(N, -50, 50)).u32("n", N);
        }, CorpusKernels::sin));
        String custom = "ptx/cudarc/custom_kernels.ptx";
        s.add(new Spec(custom, p -> {
            Gen g = new Gen("division_f32");
            return kernel(custom, "division_f32", true, p).describe("div.rn.f32").grid(4).block(256)
                    .out("out", Elem.F32, N).in("a", g.floats(N, -100, 100)).in("b", g.floats(N, 0.5, 50))
                    .u64("n", N);
        }, io -> {
            float[] a = io.f32("a"), b = io.f32("b"), o = io.f32("out");
            for (int i = 0; i < N; i++) {
                o[i] = a[i] / b[i];
            }
        }));
        s.add(new Spec(custom, p -> {
            Gen g = new Gen("division_f64");
            return kernel(custom, "division_f64", true, p).describe("div.rn.f64").grid(4).block(256)
                    .out("out", Elem.F64, N).in("a", g.doubles(N, -100, 100)).in("b", g.doubles(N, 0.5, 50))
                    .u64("n", N);
        }, io -> {
            double[] a = io.f64("a"), b = io.f64("b"), o = io.f64("out");
            for (int i = 0; i < N; i++) {
                o[i] = a[i] / b[i];
            }
        }));
        s.add(new Spec(custom, p -> {
            Gen g = new Gen("division_with_scale_f32");
            return kernel(custom, "division_with_scale_f32", true, p).describe("two div.rn.f32 and a scale")
                    .grid(4).block(256).out("out", Elem.F32, N).in("a", g.floats(N, -100, 100))
                    .in("x", new float[] {7.5f}).in("b", g.floats(N, 0.5, 50)).in("y", new float[] {-1.25f})
                    .u64("n", N);
        }, io -> {
            float[] a = io.f32("a"), b = io.f32("b"), o = io.f32("out");
            float scale = io.f32("x")[0] / io.f32("y")[0];
            for (int i = 0; i < N; i++) {
                o[i] = scale * a[i] / b[i];
            }
        }));
        s.add(new Spec(custom, p -> {
            Gen g = new Gen("sin_f32");
            return kernel(custom, "sin_f32", true, p).describe("sinf").grid(4).block(256)
                    .out("out", Elem.F32, N, Check.within(2e-6, 2e-6)).in("in", g.floats(N, -50, 50)).u64("n", N);
        }, CorpusKernels::sin));
        // scan_best(out, in, n): the CUDA SDK's work-efficient exclusive scan of n elements by one block of n / 2
        // threads in padded dynamic shared memory (integral inputs: every summation order gives the same sums)
        String scan = "ptx/gpuocelot/sdk2.2__scan_best_kernel.ptx";
        s.add(new Spec(scan, p -> {
            Gen g = new Gen("scan_best");
            return kernel(scan, "_Z9scan_bestPfS_i", false, p).describe("Blelloch scan, shared memory").grid(1)
                    .block(256).dynamicShared(4096).out("out", Elem.F32, 512).in("in", g.integralFloats(512, -100, 100))
                    .s32("n", 512);
        }, io -> {
            float[] in = io.f32("in"), o = io.f32("out");
            float sum = 0;
            for (int i = 0; i < 512; i++) {
                o[i] = sum;
                sum += in[i];
            }
        }));
        return s;
    }

    private static void sin(Io io) {
        float[] in = io.f32("in"), o = io.f32("out");
        for (int i = 0; i < N; i++) {
            o[i] = (float) Math.sin(in[i]);
        }
    }

    private static Spec vaddN(String file, String entry) {
        return new Spec(file, p -> {
            Gen g = new Gen(file);
            return kernel(file, entry, false, p).describe("c[i] = a[i] + b[i] for i < n").grid(4).block(256)
                    .in("a", g.floats(N, -100, 100)).in("b", g.floats(N, -100, 100)).out("c", Elem.F32, N)
                    .s32("n", N);
        }, io -> vadd(io, "a", "b", "c", N));
    }
}
