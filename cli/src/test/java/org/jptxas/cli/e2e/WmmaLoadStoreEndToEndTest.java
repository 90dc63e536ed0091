package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.jptxas.frontend.ptx.isa.WmmaFragment;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.spi.BackendRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code wmma.load} and {@code wmma.store} around {@code wmma.mma}: A (global), B (generic address) and C (global)
 * loaded in the layouts a case names with a stride read at run time (24 elements), the product stored to shared
 * memory (the default stride), read back from there and stored to global memory with the stride; the f16 kernel also
 * stores an f16 result through a generic address. Two kernels: m16n16k16 with f16 inputs (f16 C, f32 and f16 D) and
 * m16n16k8 tf32 (f32 C and D). The inputs are small integers, so every sum is exact: the interpreter, the emulator on
 * jptxas's cubin (read back by nvdisasm 12.5 as its {@code --out-sass}) and on ptxas 13's agree bit for bit with
 * the CPU reference.
 */
class WmmaLoadStoreEndToEndTest {
    static final String F16 = """
            .version 7.8
            .target %TARGET%
            .address_size 64
            .shared .align 16 .b8 tile[1024];
            .visible .entry wmma_mem(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 a<8>, b<8>, hc<4>, hd<4>, ld, sh;
              .reg .f32 fd<8>, fe<8>;
              .reg .u64 ri, ro, gi, go;
              ld.param.u64 gi, [pin];
              ld.param.u64 go, [pout];
              cvta.to.global.u64 ri, gi;
              cvta.to.global.u64 ro, go;
              ld.global.u32 ld, [ri+6144];
              wmma.load.a.sync.aligned.%AL%.m16n16k16.global.f16 {a0, a1, a2, a3, a4, a5, a6, a7}, [ri], ld;
              wmma.load.b.sync.aligned.%BL%.m16n16k16.f16 {b0, b1, b2, b3, b4, b5, b6, b7}, [gi+2048], ld;
              wmma.load.c.sync.aligned.%CL%.m16n16k16.global.f16 {hc0, hc1, hc2, hc3}, [ri+4096], ld;
              wmma.mma.sync.aligned.%AL%.%BL%.m16n16k16.f32.f16 {fd0, fd1, fd2, fd3, fd4, fd5, fd6, fd7},
                  {a0, a1, a2, a3, a4, a5, a6, a7}, {b0, b1, b2, b3, b4, b5, b6, b7}, {hc0, hc1, hc2, hc3};
              mov.u32 sh, tile;
              wmma.store.d.sync.aligned.%DL%.m16n16k16.shared.f32 [sh], {fd0, fd1, fd2, fd3, fd4, fd5, fd6, fd7};
              wmma.load.c.sync.aligned.%DL%.m16n16k16.shared.f32 {fe0, fe1, fe2, fe3, fe4, fe5, fe6, fe7}, [sh];
              wmma.store.d.sync.aligned.%DL%.m16n16k16.global.f32 [ro], {fe0, fe1, fe2, fe3, fe4, fe5, fe6, fe7}, ld;
              wmma.mma.sync.aligned.%AL%.%BL%.m16n16k16.f16.f16 {hd0, hd1, hd2, hd3},
                  {a0, a1, a2, a3, a4, a5, a6, a7}, {b0, b1, b2, b3, b4, b5, b6, b7}, {hc0, hc1, hc2, hc3};
              wmma.store.d.sync.aligned.%CL%.m16n16k16.f16 [go+2048], {hd0, hd1, hd2, hd3}, ld;
              ret;
            }
            """;

    static final String TF32 = """
            .version 7.8
            .target %TARGET%
            .address_size 64
            .shared .align 16 .b8 tile[1024];
            .visible .entry wmma_mem(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 a<4>, b<4>, ld, sh;
              .reg .f32 fc<8>, fd<8>, fe<8>;
              .reg .u64 ri, ro, gi;
              ld.param.u64 gi, [pin];
              ld.param.u64 ro, [pout];
              cvta.to.global.u64 ri, gi;
              cvta.to.global.u64 ro, ro;
              ld.global.u32 ld, [ri+6144];
              wmma.load.a.sync.aligned.%AL%.m16n16k8.global.tf32 {a0, a1, a2, a3}, [ri], ld;
              wmma.load.b.sync.aligned.%BL%.m16n16k8.tf32 {b0, b1, b2, b3}, [gi+2048], ld;
              wmma.load.c.sync.aligned.%CL%.m16n16k8.global.f32 {fc0, fc1, fc2, fc3, fc4, fc5, fc6, fc7}, [ri+4096], ld;
              wmma.mma.sync.aligned.%AL%.%BL%.m16n16k8.f32.tf32.tf32.f32 {fd0, fd1, fd2, fd3, fd4, fd5, fd6, fd7},
                  {a0, a1, a2, a3}, {b0, b1, b2, b3}, {fc0, fc1, fc2, fc3, fc4, fc5, fc6, fc7};
              mov.u32 sh, tile;
              wmma.store.d.sync.aligned.%DL%.m16n16k8.shared.f32 [sh], {fd0, fd1, fd2, fd3, fd4, fd5, fd6, fd7};
              wmma.load.c.sync.aligned.%DL%.m16n16k8.shared.f32 {fe0, fe1, fe2, fe3, fe4, fe5, fe6, fe7}, [sh];
              wmma.store.d.sync.aligned.%DL%.m16n16k8.global.f32 [ro], {fe0, fe1, fe2, fe3, fe4, fe5, fe6, fe7}, ld;
              ret;
            }
            """;

    private static final BackendRegistry REGISTRY =
            BackendRegistry.discover(WmmaLoadStoreEndToEndTest.class.getClassLoader());

    /** The stride of every matrix in memory, in elements; input words (A, B, C at bytes 0, 2048, 4096; the stride). */
    private static final int LD = 24, IN = 1537, OUT = 1024;

    @ParameterizedTest
    @CsvSource({
        "sm_75, f16, row, col, row, row", "sm_75, f16, col, row, col, col",
        "sm_80, f16, row, col, row, col", "sm_80, f16, col, row, col, row", "sm_80, f16, row, row, col, col",
        "sm_80, tf32, row, col, row, row", "sm_80, tf32, col, row, col, col", "sm_80, tf32, col, col, row, col",
        "sm_86, f16, col, col, row, row", "sm_89, tf32, row, row, col, row",
        "sm_90, f16, row, col, col, row", "sm_90, f16, col, row, row, col", "sm_90, tf32, row, col, row, row"})
    void bothCompilersCubinsComputeTheProduct(String arch, String type, String al, String bl, String cl, String dl,
            @TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("wmma_mem.ptx");
        Files.writeString(ptx, kernel(type, al, bl, cl, dl).replace("%TARGET%", arch));
        int[] in = inputs(type, al, bl, cl);
        int[] expected = reference(type, in, al, bl, cl, dl);

        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, arch, false, false);
        boolean movm = type.equals("f16") && (al.equals("col") || bl.equals("row") || cl.equals("col"));
        assertEquals(movm, ours.sass().contains("MOVM.16.MT88"), ours.sass());
        assertArrayEquals(expected, run(ours.cubin(), arch, in, dir.resolve("jptxas")), "jptxas's cubin");

        WarpKernelHarness.assertReadByNvdisasmAndHazardFree(ours, arch, dir);

        byte[] theirs = WarpKernelHarness.ptxas13Cubin(ptx, arch);
        assertArrayEquals(expected, run(theirs, arch, in, dir.resolve("ptxas")), "ptxas's cubin");
    }

    @ParameterizedTest
    @CsvSource({"f16, row, col, row, row", "f16, col, row, col, col", "tf32, col, col, row, col"})
    void theInterpreterComputesTheProduct(String type, String al, String bl, String cl, String dl, @TempDir Path dir)
            throws Exception {
        int[] in = inputs(type, al, bl, cl);
        Launch launch = WarpKernelHarness.launch("sm_80", "wmma_mem", in, OUT, dir);
        LaunchResult r = PtxInterpreter.load("wmma_mem.ptx", kernel(type, al, bl, cl, dl).replace("%TARGET%", "sm_80"))
                .execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertArrayEquals(reference(type, in, al, bl, cl, dl), WarpKernelHarness.output(launch));
    }

    /** The reference depends on the layouts: a row-major and a column-major reading of one buffer differ. */
    @Test
    void theLayoutsMatter() {
        int[] in = inputs("f16", "row", "col", "row");
        assertTrue(!java.util.Arrays.equals(reference("f16", in, "row", "col", "row", "row"),
                reference("f16", in, "col", "col", "row", "row")));
    }

    static final String DUMP = """
            .version 7.8
            .target %TARGET%
            .address_size 64
            .visible .entry wmma_dump(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 x<8>, ld, lane;
              .reg .f64 y<2>;
              .reg .u64 ri, ro, off;
              ld.param.u64 ri, [pin];
              ld.param.u64 ro, [pout];
              cvta.to.global.u64 ri, ri;
              cvta.to.global.u64 ro, ro;
              ld.global.u32 ld, [ri+6144];
              wmma.load.%FORM% {%REGS%}, [ri], ld;
              mov.u32 lane, %laneid;
              mul.wide.u32 off, lane, 32;
              add.u64 ro, ro, off;
            %STORES%
              ret;
            }
            """;

    /**
     * The fragments of other shapes and types than the multiplies above (m32n8k16, m8n32k16, bf16), each register stored as
     * loaded: lane t's register i at word 8t + i, against the elements {@link WmmaFragment#position} names.
     */
    @ParameterizedTest
    @CsvSource({"sm_75, a.sync.aligned.col.m32n8k16.global.f16", "sm_80, b.sync.aligned.row.m32n8k16.global.f16",
        "sm_80, c.sync.aligned.row.m32n8k16.global.f16", "sm_80, c.sync.aligned.col.m32n8k16.global.f32",
        "sm_86, a.sync.aligned.row.m16n16k16.global.bf16", "sm_90, b.sync.aligned.row.m16n16k16.global.bf16",
        "sm_89, a.sync.aligned.col.m32n8k16.global.bf16", "sm_90, b.sync.aligned.col.m32n8k16.global.bf16",
        "sm_75, a.sync.aligned.row.m8n32k16.global.f16", "sm_80, b.sync.aligned.row.m8n32k16.global.f16",
        "sm_86, c.sync.aligned.row.m8n32k16.global.f16", "sm_90, c.sync.aligned.col.m8n32k16.global.f32",
        "sm_80, a.sync.aligned.col.m8n32k16.global.bf16", "sm_89, c.sync.aligned.row.m8n32k16.global.f32",
        "sm_75, a.sync.aligned.row.m16n16k16.global.s8", "sm_80, a.sync.aligned.col.m16n16k16.global.u8",
        "sm_86, b.sync.aligned.row.m16n16k16.global.s8", "sm_90, b.sync.aligned.col.m16n16k16.global.u8",
        "sm_80, a.sync.aligned.row.m32n8k16.global.s8", "sm_89, b.sync.aligned.row.m32n8k16.global.u8",
        "sm_80, a.sync.aligned.col.m8n32k16.global.u8", "sm_90, b.sync.aligned.row.m8n32k16.global.s8",
        "sm_75, c.sync.aligned.row.m16n16k16.global.s32", "sm_80, c.sync.aligned.col.m32n8k16.global.s32",
        "sm_86, c.sync.aligned.row.m8n32k16.global.s32",
        "sm_75, a.sync.aligned.row.m8n8k32.global.s4", "sm_80, b.sync.aligned.col.m8n8k32.global.u4",
        "sm_89, c.sync.aligned.col.m8n8k32.global.s32", "sm_80, a.sync.aligned.row.m8n8k128.global.b1",
        "sm_86, b.sync.aligned.col.m8n8k128.global.b1", "sm_80, c.sync.aligned.row.m8n8k128.global.s32",
        "sm_80, a.sync.aligned.row.m8n8k4.global.f64", "sm_86, a.sync.aligned.col.m8n8k4.global.f64",
        "sm_89, b.sync.aligned.row.m8n8k4.global.f64", "sm_90, b.sync.aligned.col.m8n8k4.global.f64",
        "sm_80, c.sync.aligned.row.m8n8k4.global.f64", "sm_90, c.sync.aligned.col.m8n8k4.global.f64"})
    void bothCompilersCubinsLoadTheFragment(String arch, String form, @TempDir Path dir) throws Exception {
        WmmaFragment f = WmmaFragment.of(List.of(("load." + form).split("\\.")));
        Path ptx = dir.resolve("wmma_dump.ptx");
        Files.writeString(ptx, dump(form, f).replace("%TARGET%", arch));
        int[] in = new Random(32).ints(IN, 0, 1 << 30).toArray();
        in[IN - 1] = LD;
        int[] expected = fragments(f, in);
        String sm80 = dump(form, f).replace("%TARGET%", "sm_80");
        WarpKernelHarness.assertThreeWays(REGISTRY, ptx, arch, sm80, "wmma_dump", in, expected, dir);
    }

    /** The dump kernel of {@code form}: 32-bit registers x, or f64 registers y for an f64 fragment. */
    private static String dump(String form, WmmaFragment f) {
        StringBuilder regs = new StringBuilder(), stores = new StringBuilder();
        String reg = f.wideRegisters() ? "y" : "x", type = f.wideRegisters() ? "f64" : "b32";
        int bytes = f.wideRegisters() ? 8 : 4;
        for (int i = 0; i < f.registers(); i++) {
            regs.append(i == 0 ? "" : ", ").append(reg).append(i);
            stores.append("  st.global.").append(type).append(" [ro+").append(bytes * i).append("], ").append(reg)
                    .append(i).append(";\n");
        }
        return DUMP.replace("%FORM%", form).replace("%REGS%", regs).replace("%STORES%", stores);
    }

    /**
     * Lane t's register i at word 8t + i (an f64 register at words 8t + 2i, 8t + 2i + 1): the elements at the
     * fragment's positions, the lowest bits first; a sub-byte register is the word its first element starts.
     */
    private static int[] fragments(WmmaFragment f, int[] in) {
        int[] out = new int[256];
        int bits = f.element().bits();
        for (int lane = 0; lane < 32; lane++) {
            for (int r = 0; r < f.registers(); r++) {
                if (bits == 64) {
                    int at = (int) f.offset(lane, r, 0, LD) * 2;
                    out[8 * lane + 2 * r] = in[at];
                    out[8 * lane + 2 * r + 1] = in[at + 1];
                    continue;
                }
                if (bits < 8) {
                    out[8 * lane + r] = in[(int) f.offset(lane, r, 0, LD) / f.elementsPerRegister()];
                    continue;
                }
                int word = 0;
                for (int e = 0; e < f.elementsPerRegister(); e++) {
                    int at = (int) f.offset(lane, r, e, LD) * bits / 8;
                    int v = bits == 32 ? in[at / 4] : in[at / 4] >>> 8 * (at % 4) & (1 << bits) - 1;
                    word |= v << bits * e;
                }
                out[8 * lane + r] = word;
            }
        }
        return out;
    }

    static final String COPY = """
            .version 7.8
            .target %TARGET%
            .address_size 64
            .shared .align 16 .b8 tile[2048];
            .visible .entry wmma_copy(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 ld, sh;
              .reg .%T% x<8>;
              .reg .u64 ri, ro;
              ld.param.u64 ri, [pin];
              ld.param.u64 ro, [pout];
              cvta.to.global.u64 ri, ri;
              cvta.to.global.u64 ro, ro;
              ld.global.u32 ld, [ri+6144];
              mov.u32 sh, tile;
              wmma.load.c.sync.aligned.%CL%.%SHAPE%.global.%T% {%REGS%}, [ri], ld;
              wmma.store.d.sync.aligned.%DL%.%SHAPE%.shared.%T% [sh], {%REGS%};
              wmma.load.c.sync.aligned.%DL%.%SHAPE%.shared.%T% {%REGS%}, [sh];
              wmma.store.d.sync.aligned.%DL%.%SHAPE%.%T% [ro], {%REGS%}, ld;
              ret;
            }
            """;

    /**
     * s32 and f64 accumulators loaded in one layout (global, stride read at run time), stored to shared memory in
     * another (default stride), read back and stored through a generic address with the stride: the output is the
     * input matrix moved to the second layout.
     */
    @ParameterizedTest
    @CsvSource({"sm_75, m16n16k16, s32, row, col", "sm_80, m32n8k16, s32, col, row", "sm_86, m8n32k16, s32, col, col",
        "sm_80, m8n8k32, s32, col, row", "sm_89, m8n8k128, s32, row, col", "sm_80, m8n8k4, f64, row, col",
        "sm_90, m8n8k4, f64, col, col"})
    void accumulatorsStoreWhatTheyLoaded(String arch, String shape, String type, String cl, String dl,
            @TempDir Path dir) throws Exception {
        WmmaFragment f = WmmaFragment.of(List.of(("load.c.sync.aligned." + cl + "." + shape + "." + type).split("\\.")));
        StringBuilder regs = new StringBuilder();
        for (int i = 0; i < f.registers(); i++) {
            regs.append(i == 0 ? "" : ", ").append("x").append(i);
        }
        String text = COPY.replace("%SHAPE%", shape).replace("%T%", type).replace("%CL%", cl).replace("%DL%", dl)
                .replace("%REGS%", regs);
        Path ptx = dir.resolve("wmma_copy.ptx");
        Files.writeString(ptx, text.replace("%TARGET%", arch));
        int[] in = new Random(33).ints(IN, 0, 1 << 30).toArray();
        in[IN - 1] = LD;
        int words = type.equals("f64") ? 2 : 1;
        int[] expected = new int[OUT];
        for (int r = 0; r < f.rows(); r++) {
            for (int c = 0; c < f.columns(); c++) {
                for (int w = 0; w < words; w++) {
                    expected[words * at(dl, r, c) + w] = in[words * at(cl, r, c) + w];
                }
            }
        }
        WarpKernelHarness.assertThreeWays(REGISTRY, ptx, arch, text.replace("%TARGET%", "sm_80"), "wmma_copy", in,
                expected, dir);
    }

    private static String kernel(String type, String al, String bl, String cl, String dl) {
        return (type.equals("f16") ? F16 : TF32).replace("%AL%", al).replace("%BL%", bl).replace("%CL%", cl)
                .replace("%DL%", dl);
    }

    private static int k(String type) {
        return type.equals("f16") ? 16 : 8;
    }

    /** Element offset of (r, c) in a matrix of {@code layout} with stride {@link #LD}. */
    private static int at(String layout, int r, int c) {
        return layout.equals("row") ? r * LD + c : c * LD + r;
    }

    /** A (16 x k), B (k x 16), C (16 x 16): small integers at their layouts' places, f16 or f32; then the stride. */
    private static int[] inputs(String type, String al, String bl, String cl) {
        Random rnd = new Random(23);
        int[] in = new int[IN];
        boolean f16 = type.equals("f16");
        int kk = k(type);
        for (int r = 0; r < 16; r++) {
            for (int c = 0; c < 16; c++) {
                if (c < kk) {
                    put(in, 0, f16, at(al, r, c), rnd.nextInt(7) - 3);
                }
                if (r < kk) {
                    put(in, 2048, f16, at(bl, r, c), rnd.nextInt(7) - 3);
                }
                put(in, 4096, f16, at(cl, r, c), rnd.nextInt(17) - 8);
            }
        }
        in[IN - 1] = LD;
        return in;
    }

    private static void put(int[] words, int byteBase, boolean f16, int element, double v) {
        if (f16) {
            int i = byteBase / 4 + element / 2;
            words[i] |= SmallFloats.toHalf(v) << 16 * (element % 2);
        } else {
            words[byteBase / 4 + element] = Float.floatToRawIntBits((float) v);
        }
    }

    private static double get(int[] words, int byteBase, boolean f16, int element) {
        return f16 ? SmallFloats.halfToFloat(words[byteBase / 4 + element / 2] >>> 16 * (element % 2) & 0xffff)
                : Float.intBitsToFloat(words[byteBase / 4 + element]);
    }

    /** D = A B + C as f32 at D's layout (and, for f16, as f16 at C's layout from byte 2048). */
    static int[] reference(String type, int[] in, String al, String bl, String cl, String dl) {
        boolean f16 = type.equals("f16");
        int[] out = new int[OUT];
        for (int r = 0; r < 16; r++) {
            for (int c = 0; c < 16; c++) {
                double sum = get(in, 4096, f16, at(cl, r, c));
                for (int i = 0; i < k(type); i++) {
                    sum += get(in, 0, f16, at(al, r, i)) * get(in, 2048, f16, at(bl, i, c));
                }
                out[at(dl, r, c)] = Float.floatToRawIntBits((float) sum);
                if (f16) {
                    put(out, 2048, true, at(cl, r, c), sum);
                }
            }
        }
        return out;
    }

    private static int[] run(byte[] cubin, String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.emulate(cubin, arch, WarpKernelHarness.launch(arch, "wmma_mem", in, OUT, dir));
    }
}
