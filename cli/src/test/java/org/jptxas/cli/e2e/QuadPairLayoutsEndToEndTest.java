package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.testing.kernels.RefMath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code mma.sync.aligned.m8n8k4} with f16 inputs in all four layouts of A and B ({@code .row}/{@code .col} each) and
 * the three accumulator forms ptxas takes (f16 D and C, f32 D and C, f32 D over an f16 C): twelve multiplies of one
 * A, B and C per warp, each quad pair (lanes 4q..4q+3, 4q+16..4q+19) its own 8x4 by 4x8. ptxas names the layouts in
 * Turing's {@code HMMA.884} and transposes the fragments by shuffles elsewhere; jptxas transposes on every target.
 * The inputs are multiples of 1/8 in [-2, 2], so every product and sum is exact in f32 and the FMA pipe's steps and
 * the tensor core's single rounding agree: one reference serves the emulator on both compilers' cubins and the
 * interpreter ({@link WarpKernelHarness#assertThreeWays}).
 */
class QuadPairLayoutsEndToEndTest {
    private static final BackendRegistry REGISTRY =
            BackendRegistry.discover(QuadPairLayoutsEndToEndTest.class.getClassLoader());

    /** One multiply: A column-major, B row-major, C f32, D f32. */
    record Form(boolean aCol, boolean bRow, boolean cF32, boolean dF32) {
        String ptx() {
            return "mma.sync.aligned.m8n8k4." + (aCol ? "col" : "row") + "." + (bRow ? "row" : "col") + "."
                    + (dF32 ? "f32" : "f16") + ".f16.f16." + (cF32 ? "f32" : "f16");
        }

        int dWords() {
            return dF32 ? 8 : 4;
        }
    }

    static final List<Form> FORMS = forms();

    private static List<Form> forms() {
        List<Form> l = new java.util.ArrayList<>();
        for (int layout = 0; layout < 4; layout++) {
            boolean aCol = (layout & 2) != 0, bRow = (layout & 1) == 0;
            l.add(new Form(aCol, bRow, false, false));
            l.add(new Form(aCol, bRow, true, true));
            l.add(new Form(aCol, bRow, false, true));
        }
        return List.copyOf(l);
    }

    /** Per-lane input words: A (2), B (2), f16 C (4), f32 C (8). */
    private static final int IN = 16;

    /** Per-lane output words: each form's D in order. */
    private static final int OUT = FORMS.stream().mapToInt(Form::dWords).sum();

    static String ptx(String target) {
        StringBuilder body = new StringBuilder();
        int offset = 0;
        for (int f = 0; f < FORMS.size(); f++) {
            Form form = FORMS.get(f);
            String d = form.dF32() ? "{g0, g1, g2, g3, g4, g5, g6, g7}" : "{h0, h1, h2, h3}";
            String c = form.cF32() ? "{f0, f1, f2, f3, f4, f5, f6, f7}" : "{c0, c1, c2, c3}";
            body.append("  ").append(form.ptx()).append(' ').append(d).append(", {a0, a1}, {b0, b1}, ").append(c)
                    .append(";\n");
            String reg = form.dF32() ? "g" : "h";
            for (int w = 0; w < form.dWords(); w += 4) {
                body.append("  st.global.v4.b32 [ro+").append(4 * (offset + w)).append("], {").append(reg).append(w)
                        .append(", ").append(reg).append(w + 1).append(", ").append(reg).append(w + 2).append(", ")
                        .append(reg).append(w + 3).append("};\n");
            }
            offset += form.dWords();
        }
        return """
                .version 7.8
                .target %s
                .address_size 64
                .visible .entry quad_pair_layouts(.param .u64 pin, .param .u64 pout)
                {
                  .reg .b32 a<2>, b<2>, c<4>, f<8>, h<4>, g<8>, lane;
                  .reg .u64 ri, ro, off;
                  ld.param.u64 ri, [pin];
                  ld.param.u64 ro, [pout];
                  mov.u32 lane, %%laneid;
                  mul.wide.u32 off, lane, %d;
                  add.u64 ri, ri, off;
                  mul.wide.u32 off, lane, %d;
                  add.u64 ro, ro, off;
                  ld.global.v4.b32 {a0, a1, b0, b1}, [ri];
                  ld.global.v4.b32 {c0, c1, c2, c3}, [ri+16];
                  ld.global.v4.b32 {f0, f1, f2, f3}, [ri+32];
                  ld.global.v4.b32 {f4, f5, f6, f7}, [ri+48];
                %s  ret;
                }
                """.formatted(target, 4 * IN, 4 * OUT, body);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void everyLayoutAndAccumulatorAgreesThreeWays(String arch, @TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("quad_pair_layouts.ptx");
        Files.writeString(ptx, ptx(arch));
        int[] in = inputs();
        WarpKernelHarness.assertThreeWays(REGISTRY, ptx, arch, ptx("sm_80"), "quad_pair_layouts", in, reference(in),
                dir);
    }

    /** The layouts matter for these inputs: each form's D differs from the same accumulators' row.col D. */
    @Test
    void theLayoutsGiveDifferentProducts() {
        int[] in = inputs();
        int[] out = reference(in);
        int offset = 0;
        int[] rowColOffsets = new int[3];
        int[][] parts = new int[FORMS.size()][];
        for (int f = 0; f < FORMS.size(); f++) {
            Form form = FORMS.get(f);
            int[] d = new int[32 * form.dWords()];
            for (int lane = 0; lane < 32; lane++) {
                System.arraycopy(out, OUT * lane + offset, d, form.dWords() * lane, form.dWords());
            }
            parts[f] = d;
            if (!form.aCol() && !form.bRow()) {
                rowColOffsets[f % 3] = f;
            }
            offset += form.dWords();
        }
        for (int f = 0; f < FORMS.size(); f++) {
            Form form = FORMS.get(f);
            if (form.aCol() || form.bRow()) {
                assertFalse(Arrays.equals(parts[f], parts[rowColOffsets[f % 3]]), form.ptx());
            }
        }
    }

    /** f16 pairs of multiples of 1/8 in [-2, 2] for A, B and the f16 C; the f32 C likewise. */
    private static int[] inputs() {
        Random r = new Random(8840);
        int[] in = new int[32 * IN];
        for (int lane = 0; lane < 32; lane++) {
            for (int w = 0; w < IN; w++) {
                in[IN * lane + w] = w < 8 ? (half(r) | half(r) << 16) : Float.floatToRawIntBits(eighth(r));
            }
        }
        return in;
    }

    private static float eighth(Random r) {
        return (r.nextInt(33) - 16) / 8f;
    }

    private static int half(Random r) {
        return RefMath.toHalf(eighth(r)) & 0xffff;
    }

    /** Element {@code e} (0..3 of A and B, 0..7 of the f16 C) of word group {@code first} of {@code lane}. */
    private static float h(int[] in, int lane, int first, int e) {
        return RefMath.halfToFloat(in[IN * lane + first + e / 2] >>> 16 * (e % 2) & 0xffff);
    }

    /** Each form's D per lane, from the PTX ISA's fragment layouts (exact sums; the inputs keep them exact). */
    static int[] reference(int[] in) {
        int[] out = new int[32 * OUT];
        for (int q = 0; q < 4; q++) {
            int offset = 0;
            for (Form form : FORMS) {
                float[][] a = new float[8][4], b = new float[4][8], c = new float[8][8];
                for (int lane : new int[] {4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3, 4 * q + 16, 4 * q + 17,
                        4 * q + 18, 4 * q + 19}) {
                    int r = lane % 4, hi = lane >= 16 ? 4 : 0;
                    for (int e = 0; e < 4; e++) {
                        if (form.aCol()) {
                            a[e + hi][r] = h(in, lane, 0, e);
                        } else {
                            a[r + hi][e] = h(in, lane, 0, e);
                        }
                        if (form.bRow()) {
                            b[r][e + hi] = h(in, lane, 2, e);
                        } else {
                            b[e][r + hi] = h(in, lane, 2, e);
                        }
                    }
                    for (int i = 0; i < 8; i++) {
                        if (form.cF32()) {
                            c[f32Row(lane, i)][f32Col(lane, i)] = Float.intBitsToFloat(in[IN * lane + 8 + i]);
                        } else {
                            c[r + hi][i] = h(in, lane, 4, i);
                        }
                    }
                }
                for (int lane : new int[] {4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3, 4 * q + 16, 4 * q + 17,
                        4 * q + 18, 4 * q + 19}) {
                    for (int i = 0; i < 8; i++) {
                        int row = form.dF32() ? f32Row(lane, i) : lane % 4 + (lane >= 16 ? 4 : 0);
                        int col = form.dF32() ? f32Col(lane, i) : i;
                        double s = c[row][col];
                        for (int k = 0; k < 4; k++) {
                            s += (double) a[row][k] * b[k][col];
                        }
                        int at = OUT * lane + offset;
                        if (form.dF32()) {
                            out[at + i] = Float.floatToRawIntBits((float) s);
                        } else {
                            out[at + i / 2] |= (RefMath.toHalf((float) s) & 0xffff) << 16 * (i % 2);
                        }
                    }
                }
                offset += form.dWords();
            }
        }
        return out;
    }

    private static int f32Row(int lane, int i) {
        return (lane & 1) + (i & 2) + (lane >= 16 ? 4 : 0);
    }

    private static int f32Col(int lane, int i) {
        return (i & 4) + (lane & 2) + (i & 1);
    }
}
