package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.spi.IrObserver;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.CompileOptions;
import org.jptxas.isel.codegen.FamilyBackend;
import org.jptxas.spi.TestTargets;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.sass.SassEmulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FMA contraction's numerics end to end: {@code mul} + {@code add} (f32 and f64, no rounding modifier) compiled by
 * jptxas and run in the SASS emulator. With {@code --fmad=true} (the default) every result is the fused
 * {@code Math.fma(a, b, c)}, bit for bit, as ptxas's FFMA/DFMA gives it; with {@code --fmad=false} every result is the
 * PTX interpreter's (a rounded product, then a rounded sum). The inputs make the two differ for most elements
 * ({@code c} close to {@code -a*b}), so the test sees which code ran. {@code mul.rn} keeps the multiply apart either
 * way.
 */
class FmaContractionEndToEndTest {
    static final int N = 256;

    static final String PTX = String.join("\n", ".version 8.0", ".target sm_75", ".address_size 64",
            ".visible .entry muladd(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po,",
            "    .param .u64 pda, .param .u64 pdb, .param .u64 pdc, .param .u64 pdo, .param .u64 prn)", "{",
            "  .reg .f32 %f<8>; .reg .f64 %fd<6>; .reg .b32 %r<3>; .reg .b64 %rd<24>;",
            "  mov.u32 %r1, %tid.x;", "  mul.wide.u32 %rd1, %r1, 4;", "  mul.wide.u32 %rd2, %r1, 8;",
            "  ld.param.u64 %rd3, [pa];", "  ld.param.u64 %rd4, [pb];", "  ld.param.u64 %rd5, [pc];",
            "  ld.param.u64 %rd6, [po];", "  ld.param.u64 %rd7, [pda];", "  ld.param.u64 %rd8, [pdb];",
            "  ld.param.u64 %rd9, [pdc];", "  ld.param.u64 %rd10, [pdo];", "  ld.param.u64 %rd11, [prn];",
            "  add.s64 %rd12, %rd3, %rd1;", "  add.s64 %rd13, %rd4, %rd1;", "  add.s64 %rd14, %rd5, %rd1;",
            "  add.s64 %rd15, %rd6, %rd1;", "  add.s64 %rd16, %rd7, %rd2;", "  add.s64 %rd17, %rd8, %rd2;",
            "  add.s64 %rd18, %rd9, %rd2;", "  add.s64 %rd19, %rd10, %rd2;", "  add.s64 %rd20, %rd11, %rd1;",
            "  ld.global.f32 %f1, [%rd12];", "  ld.global.f32 %f2, [%rd13];", "  ld.global.f32 %f3, [%rd14];",
            "  mul.f32 %f4, %f1, %f2;", "  add.f32 %f5, %f4, %f3;", "  st.global.f32 [%rd15], %f5;",
            "  mul.rn.f32 %f6, %f1, %f2;", "  add.f32 %f7, %f6, %f3;", "  st.global.f32 [%rd20], %f7;",
            "  ld.global.f64 %fd1, [%rd16];", "  ld.global.f64 %fd2, [%rd17];", "  ld.global.f64 %fd3, [%rd18];",
            "  mul.f64 %fd4, %fd1, %fd2;", "  add.f64 %fd5, %fd4, %fd3;", "  st.global.f64 [%rd19], %fd5;",
            "  ret;", "}", "");

    record Inputs(float[] a, float[] b, float[] c, double[] da, double[] db, double[] dc) {}

    static Inputs inputs() {
        Random r = new Random(21);
        float[] a = new float[N];
        float[] b = new float[N];
        float[] c = new float[N];
        double[] da = new double[N];
        double[] db = new double[N];
        double[] dc = new double[N];
        for (int i = 0; i < N; i++) {
            a[i] = (float) (r.nextDouble() * 4 - 2);
            b[i] = (float) (r.nextDouble() * 4 - 2);
            // close to -a*b: the unrounded product's low bits decide the sum
            c[i] = -a[i] * b[i] * (1 + (float) (r.nextGaussian() * 1e-6));
            da[i] = r.nextDouble() * 4 - 2;
            db[i] = r.nextDouble() * 4 - 2;
            dc[i] = -da[i] * db[i] * (1 + r.nextGaussian() * 1e-14);
        }
        return new Inputs(a, b, c, da, db, dc);
    }

    /** The launch spec with its input files in {@code dir}. */
    static Path spec(Path dir, Inputs in) throws Exception {
        Files.createDirectories(dir);
        write(dir.resolve("a.bin"), in.a());
        write(dir.resolve("b.bin"), in.b());
        write(dir.resolve("c.bin"), in.c());
        write(dir.resolve("da.bin"), in.da());
        write(dir.resolve("db.bin"), in.db());
        write(dir.resolve("dc.bin"), in.dc());
        String json = "{\"entry\": \"muladd\", \"grid\": [1,1,1], \"block\": [" + N + ",1,1], "
                + "\"dynamic_shared_bytes\": 0, \"params\": ["
                + "{\"type\": \"ptr\", \"bytes\": " + 4 * N + ", \"in\": \"a.bin\"},"
                + "{\"type\": \"ptr\", \"bytes\": " + 4 * N + ", \"in\": \"b.bin\"},"
                + "{\"type\": \"ptr\", \"bytes\": " + 4 * N + ", \"in\": \"c.bin\"},"
                + "{\"type\": \"ptr\", \"bytes\": " + 4 * N + ", \"out\": \"o.bin\"},"
                + "{\"type\": \"ptr\", \"bytes\": " + 8 * N + ", \"in\": \"da.bin\"},"
                + "{\"type\": \"ptr\", \"bytes\": " + 8 * N + ", \"in\": \"db.bin\"},"
                + "{\"type\": \"ptr\", \"bytes\": " + 8 * N + ", \"in\": \"dc.bin\"},"
                + "{\"type\": \"ptr\", \"bytes\": " + 8 * N + ", \"out\": \"do.bin\"},"
                + "{\"type\": \"ptr\", \"bytes\": " + 4 * N + ", \"out\": \"rn.bin\"}]}";
        Path p = dir.resolve("launch.json");
        Files.writeString(p, json);
        return p;
    }

    static void write(Path p, float[] v) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : v) {
            b.putFloat(x);
        }
        Files.write(p, b.array());
    }

    static void write(Path p, double[] v) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) {
            b.putDouble(x);
        }
        Files.write(p, b.array());
    }

    /** Output buffers (o, do, rn) of a launch after running. */
    record Outputs(float[] o, double[] d, float[] rn) {}

    static Outputs outputs(Launch launch) {
        ByteBuffer o = ByteBuffer.wrap(launch.arguments().get(3).buffer().orElseThrow().bytes())
                .order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer d = ByteBuffer.wrap(launch.arguments().get(7).buffer().orElseThrow().bytes())
                .order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer rn = ByteBuffer.wrap(launch.arguments().get(8).buffer().orElseThrow().bytes())
                .order(ByteOrder.LITTLE_ENDIAN);
        float[] fo = new float[N];
        double[] dd = new double[N];
        float[] fr = new float[N];
        for (int i = 0; i < N; i++) {
            fo[i] = o.getFloat(4 * i);
            dd[i] = d.getDouble(8 * i);
            fr[i] = rn.getFloat(4 * i);
        }
        return new Outputs(fo, dd, fr);
    }

    static byte[] compile(Path ptx, String arch, boolean fmad) throws Exception {
        Target target = Target.of(arch);
        PtxFrontEnd.CheckedModule checked = TestFrontEnds.of(target).check("muladd.ptx", Files.readString(ptx));
        BackendRegistry registry = BackendRegistry.discover(FmaContractionEndToEndTest.class.getClassLoader());
        FamilyBackend backend = (FamilyBackend) registry.forTarget(target);
        CompileOptions o = new CompileOptions(3, OptionalInt.empty(), false, false, false, false, false, fmad);
        return new ModuleCodegen(backend.requirePipeline(target)).compile(checked.lower(), target, o, IrObserver.NONE,
                false).cubin();
    }

    static Outputs emulate(byte[] cubin, String arch, Path launchJson) throws Exception {
        Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(launchJson));
        LaunchResult r = SassEmulator.fromCubin(TestTargets.of(arch), cubin).execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.fault().isEmpty(), () -> r.fault().get().describe());
        return outputs(launch);
    }

    @Test
    void contractedResultsAreFusedAndUncontractedOnesAreTheInterpreters(@TempDir Path dir) throws Exception {
        Inputs in = inputs();
        Path ptx = dir.resolve("muladd.ptx");
        Files.writeString(ptx, PTX);
        Launch reference = Launch.prepare(Target.of("sm_80"), LaunchSpecReader.read(spec(dir.resolve("ref"), in)));
        LaunchResult rr = PtxInterpreter.load("muladd.ptx", PTX).execute(reference, ExecutionLimits.DEFAULT);
        assertTrue(rr.fault().isEmpty());
        Outputs interpreter = outputs(reference);
        int fusedDiffers = 0;
        for (int i = 0; i < N; i++) {
            if (Float.floatToRawIntBits(interpreter.o()[i])
                    != Float.floatToRawIntBits(Math.fma(in.a()[i], in.b()[i], in.c()[i]))) {
                fusedDiffers++;
            }
        }
        assertTrue(fusedDiffers > N / 2, "inputs where fused and unfused sums differ: " + fusedDiffers);
        List<String> problems = new ArrayList<>();
        for (String arch : List.of("sm_75", "sm_80", "sm_89", "sm_90")) {
            Outputs fused = emulate(compile(ptx, arch, true), arch, spec(dir.resolve(arch + "-on"), in));
            Outputs apart = emulate(compile(ptx, arch, false), arch, spec(dir.resolve(arch + "-off"), in));
            for (int i = 0; i < N; i++) {
                float f = Math.fma(in.a()[i], in.b()[i], in.c()[i]);
                double d = Math.fma(in.da()[i], in.db()[i], in.dc()[i]);
                check(problems, arch + " fmad=true f32[" + i + "]", Float.floatToRawIntBits(f),
                        Float.floatToRawIntBits(fused.o()[i]));
                check(problems, arch + " fmad=true f64[" + i + "]", Double.doubleToRawLongBits(d),
                        Double.doubleToRawLongBits(fused.d()[i]));
                check(problems, arch + " fmad=false f32[" + i + "]", Float.floatToRawIntBits(interpreter.o()[i]),
                        Float.floatToRawIntBits(apart.o()[i]));
                check(problems, arch + " fmad=false f64[" + i + "]", Double.doubleToRawLongBits(interpreter.d()[i]),
                        Double.doubleToRawLongBits(apart.d()[i]));
                // mul.rn: never contracted
                check(problems, arch + " mul.rn f32[" + i + "]", Float.floatToRawIntBits(interpreter.rn()[i]),
                        Float.floatToRawIntBits(fused.rn()[i]));
            }
        }
        problems.stream().limit(10).forEach(System.out::println);
        assertEquals(List.of(), problems.stream().limit(10).toList(), problems.size() + " problems");
    }

    private static void check(List<String> problems, String what, long want, long got) {
        if (want != got) {
            problems.add(what + ": expected 0x" + Long.toHexString(want) + ", got 0x" + Long.toHexString(got));
        }
    }
}
