package org.jptxas.simulator.exec;

import java.util.List;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * Volta's quad-pair multiply {@code mma.sync.aligned.m8n8k4.ALAYOUT.BLAYOUT.D.f16.f16.C} (PTX) and Turing's
 * {@code HMMA.884} (SASS): each quad pair (lanes 4q..4q+3 and 4q+16..4q+19, q = 0..3) computes its own D (8 x 8) =
 * A (8 x 4) B (4 x 8) + C, four independent multiplies per warp.
 *
 * <p>Fragments (PTX ISA; r = lane % 4, h = 4 for lanes 16 and up, else 0; two f16 per register, low half first):
 * a row-major A holds row r + h (elements k = 0..3), a column-major A column r (rows h..h + 3); a column-major B holds
 * column r + h (k = 0..3), a row-major B row r (columns h..h + 3); an f16 C/D holds row r + h (columns 0..7 in four
 * registers); an f32 C/D element i (0..7) is row {@code (lane & 1) + (i & 2) + h}, column
 * {@code (i & 4) + (lane & 2) + (i & 1)}.
 *
 * <p>Numerics as {@link WarpMma}: exact products summed in k order in double, C added last, rounded once.
 */
public final class QuadPairMma {
    private QuadPairMma() {}

    /**
     * One form: A column-major ({@code .col}), B row-major ({@code .row}), C and D f32 (else f16). The D type is
     * never f16 over an f32 C (ptxas refuses {@code .f16.f16.f16.f32}).
     */
    public record Form(boolean aCol, boolean bRow, boolean cF32, boolean dF32) {
        /** The row.col form with C and D of one type. */
        public static Form rowCol(boolean f32) {
            return new Form(false, false, f32, f32);
        }

        /** C/D registers per lane: 8 for f32, 4 for f16 pairs. */
        public int cRegs() {
            return cF32 ? 8 : 4;
        }

        public int dRegs() {
            return dF32 ? 8 : 4;
        }

        /**
         * The form of a PTX name ({@code sync}, {@code aligned}, {@code m8n8k4}, A's and B's layouts in that order,
         * D/A/B/C types with f16 A and B), or null when the name is no quad-pair multiply.
         */
        public static Form of(List<String> mods) {
            if (!mods.contains("m8n8k4") || !mods.contains("sync") || !mods.contains("aligned")) {
                return null;
            }
            List<String> layouts = mods.stream().filter(m -> m.equals("row") || m.equals("col")).toList();
            List<String> types = mods.stream().filter(m -> m.equals("f16") || m.equals("f32")).toList();
            long others = mods.stream().filter(m -> !List.of("sync", "aligned", "m8n8k4", "row", "col", "f16", "f32")
                    .contains(m)).count();
            if (others != 0 || layouts.size() != 2 || types.size() != 4 || !types.get(1).equals("f16")
                    || !types.get(2).equals("f16")) {
                return null;
            }
            boolean d = types.get(0).equals("f32"), c = types.get(3).equals("f32");
            return c && !d ? null : new Form(layouts.get(0).equals("col"), layouts.get(1).equals("row"), c, d);
        }
    }

    /** D registers of every lane for form {@code f}. */
    public static int[][] multiply(Form f, int[][] a, int[][] b, int[][] c) {
        int[][] d = new int[32][f.dRegs()];
        for (int q = 0; q < 4; q++) {
            double[][] fa = new double[8][4], fb = new double[4][8], fc = new double[8][8];
            for (int lane : lanes(q)) {
                int r = lane % 4, h = lane >= 16 ? 4 : 0;
                for (int e = 0; e < 4; e++) {
                    if (f.aCol()) {
                        fa[e + h][r] = half(a[lane], e);
                    } else {
                        fa[r + h][e] = half(a[lane], e);
                    }
                    if (f.bRow()) {
                        fb[r][e + h] = half(b[lane], e);
                    } else {
                        fb[e][r + h] = half(b[lane], e);
                    }
                }
                for (int i = 0; i < 8; i++) {
                    if (f.cF32()) {
                        fc[f32Row(lane, i)][f32Col(lane, i)] = Float.intBitsToFloat(c[lane][i]);
                    } else {
                        fc[r + h][i] = half(c[lane], i);
                    }
                }
            }
            for (int lane : lanes(q)) {
                for (int i = 0; i < 8; i++) {
                    int row = f.dF32() ? f32Row(lane, i) : lane % 4 + (lane >= 16 ? 4 : 0);
                    int col = f.dF32() ? f32Col(lane, i) : i;
                    double sum = 0;
                    for (int k = 0; k < 4; k++) {
                        sum += fa[row][k] * fb[k][col];
                    }
                    sum += fc[row][col];
                    if (f.dF32()) {
                        d[lane][i] = Float.floatToRawIntBits((float) sum);
                    } else {
                        int v = SmallFloats.toHalf(sum) & 0xffff, shift = 16 * (i % 2);
                        d[lane][i / 2] = d[lane][i / 2] & ~(0xffff << shift) | v << shift;
                    }
                }
            }
        }
        return d;
    }

    private static int[] lanes(int q) {
        return new int[] {4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3, 4 * q + 16, 4 * q + 17, 4 * q + 18, 4 * q + 19};
    }

    private static int f32Row(int lane, int i) {
        return (lane & 1) + (i & 2) + (lane >= 16 ? 4 : 0);
    }

    private static int f32Col(int lane, int i) {
        return (i & 4) + (lane & 2) + (i & 1);
    }

    private static double half(int[] regs, int e) {
        return SmallFloats.halfToFloat(regs[e / 2] >>> 16 * (e % 2) & 0xffff);
    }
}
