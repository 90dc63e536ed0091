package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.spi.BackendRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code movmatrix.sync.aligned.m8n8.trans.b16} ({@code MOVM.16.MT88}): each lane holds two 16-bit elements of one
 * row of an 8x8 matrix (lane t: row t/4, columns 2(t%4) and 2(t%4)+1, low half first) and receives the same of its
 * transpose. Three matrices per warp: a loaded one, its transpose transposed again (the matrix itself), and the
 * transpose of a sum (the transpose of a lane-varying value computed in registers). jptxas's cubin (read back by
 * nvdisasm 12.5 as its {@code --out-sass}) and ptxas 13's run in the SASS emulator, and the PTX in the interpreter,
 * each against a CPU transpose.
 */
class MovmatrixEndToEndTest {
    static final String PTX = """
            .version 7.8
            .target %TARGET%
            .address_size 64
            .visible .entry movmatrix_kernel(.param .u64 pin, .param .u64 pout)
            {
              .reg .b32 a, b, t, tt, s, ts, lane;
              .reg .u64 ri, ro, off;
              ld.param.u64 ri, [pin];
              ld.param.u64 ro, [pout];
              mov.u32 lane, %laneid;
              mul.wide.u32 off, lane, 8;
              add.u64 ri, ri, off;
              mul.wide.u32 off, lane, 16;
              add.u64 ro, ro, off;
              ld.global.v2.b32 {a, b}, [ri];
              movmatrix.sync.aligned.m8n8.trans.b16 t, a;
              movmatrix.sync.aligned.m8n8.trans.b16 tt, t;
              add.s32 s, a, b;
              movmatrix.sync.aligned.m8n8.trans.b16 ts, s;
              st.global.v2.b32 [ro], {t, tt};
              st.global.b32 [ro+8], ts;
              ret;
            }
            """;

    private static final BackendRegistry REGISTRY =
            BackendRegistry.discover(MovmatrixEndToEndTest.class.getClassLoader());

    /** Per-lane input words (a, b) and output words (t, tt, ts, one unused). */
    private static final int IN = 2, OUT = 4;

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void bothCompilersCubinsComputeTheTranspose(String arch, @TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("movmatrix.ptx");
        Files.writeString(ptx, PTX.replace("%TARGET%", arch));
        int[] in = inputs();
        int[] expected = reference(in);

        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(REGISTRY, ptx, arch, false, false);
        assertEquals(3, ours.sass().lines().filter(l -> l.contains("MOVM.16.MT88 ")).count(), ours.sass());
        assertArrayEquals(expected, run(ours.cubin(), arch, in, dir.resolve("jptxas")), "jptxas's cubin");

        WarpKernelHarness.assertReadByNvdisasmAndHazardFree(ours, arch, dir);

        byte[] theirs = WarpKernelHarness.ptxas13Cubin(ptx, arch);
        assertArrayEquals(expected, run(theirs, arch, in, dir.resolve("ptxas")), "ptxas's cubin");
    }

    @Test
    void theInterpreterComputesTheTranspose(@TempDir Path dir) throws Exception {
        int[] in = inputs();
        Launch launch = WarpKernelHarness.launch("sm_80", "movmatrix_kernel", in, 32 * OUT, dir);
        LaunchResult r = PtxInterpreter.load("movmatrix.ptx", PTX.replace("%TARGET%", "sm_80"))
                .execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertArrayEquals(reference(in), WarpKernelHarness.output(launch));
    }

    /** The reference is no identity: a matrix and its transpose differ for these inputs. */
    @Test
    void theTransposeMovesElements() {
        int[] in = inputs();
        int[] out = reference(in);
        boolean moved = false;
        for (int lane = 0; lane < 32; lane++) {
            moved |= out[OUT * lane] != in[IN * lane];
        }
        assertTrue(moved);
    }

    private static int[] inputs() {
        Random r = new Random(75);
        int[] in = new int[32 * IN];
        for (int i = 0; i < in.length; i++) {
            in[i] = r.nextInt();
        }
        return in;
    }

    /** Element (row, col) of a matrix whose lane 4 row + col / 2 holds it in half col % 2 of {@code words}. */
    private static int element(int[] words, int stride, int first, int row, int col) {
        return words[stride * (4 * row + col / 2) + first] >>> 16 * (col % 2) & 0xffff;
    }

    /** Per lane: the transpose of a, a itself, the transpose of a + b (32-bit sums). */
    static int[] reference(int[] in) {
        int[] sums = new int[32];
        for (int lane = 0; lane < 32; lane++) {
            sums[lane] = in[IN * lane] + in[IN * lane + 1];
        }
        int[] out = new int[32 * OUT];
        for (int lane = 0; lane < 32; lane++) {
            int row = lane / 4, col = 2 * (lane % 4);
            // the transpose's (row, col) and (row, col + 1) are the matrix's (col, row) and (col + 1, row)
            out[OUT * lane] = element(in, IN, 0, col, row) | element(in, IN, 0, col + 1, row) << 16;
            out[OUT * lane + 1] = in[IN * lane];
            out[OUT * lane + 2] = element(sums, 1, 0, col, row) | element(sums, 1, 0, col + 1, row) << 16;
        }
        return out;
    }

    private static int[] run(byte[] cubin, String arch, int[] in, Path dir) throws Exception {
        return WarpKernelHarness.emulate(cubin, arch, WarpKernelHarness.launch(arch, "movmatrix_kernel", in, 32 * OUT,
                dir));
    }
}
