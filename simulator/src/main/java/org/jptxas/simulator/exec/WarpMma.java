package org.jptxas.simulator.exec;

import org.jptxas.simulator.numeric.SmallFloats;

/**
 * The warp-level matrix multiply-accumulate of PTX {@code mma.sync.aligned} and SASS {@code HMMA}/{@code IMMA}/
 * {@code DMMA}, shared by the PTX interpreter and the SASS emulator: D (m x n) = A (m x k) * B (k x n) + C, each
 * matrix spread over the 32 lanes' registers in the fragment layout of the PTX ISA ({@code .row} A, {@code .col} B).
 *
 * <p>Fragments (g = lane / 4, t = lane % 4; p = elements per 32-bit register, element i of a lane in register i / p,
 * lowest bits first): for m16 shapes, A element i is (g + 8 ((i / p) mod 2), p t + i mod p + 4p (i / 2p)), B element
 * i is (p t + i mod p + 4p (i / p), g), C/D element i is (g + 8 (i / 2), 2t + i mod 2). For f64 m8n8k4: A (g, t),
 * B (t, g), C/D elements (g, 2t) and (g, 2t + 1), one register pair each; f64 m16n8k4/k8/k16 (sm_90) the m16 layout
 * with one element per pair (p = 1): A (g + 8 (e mod 2), t + 4 (e / 2)), B (t + 4e, g). The m8 integer shape (m8n8k16 s8/u8; A and B may differ in sign) is
 * the m16 layout's upper half: A (g, 4t + i), B (4t + i, g), C/D (g, 2t + i). 4-bit elements (s4/u4, p = 8) follow
 * the same formulas, and so do b1 elements (p = 32; D = C + the popcount of A AND/XOR B): m16n8k64 A (g + 8 ((i / 8) mod 2), 8t + i mod 8 + 32 (i / 16)), m8n8k32 A (g, 8t + i).
 *
 * <p>Numerics (written down, not the hardware's): every product is exact (f16, bf16 and tf32 products fit in a
 * double; tf32 inputs are their f32 registers with the low 13 fraction bits ignored, as the hardware reads them);
 * the products are summed in k order in double, C is added last and the sum is rounded once, to nearest even, to
 * the result type. Tensor cores align the addends to the largest exponent and truncate, so their result may differ
 * from this in the last bits of an f32 result and the last bit of an f16 result; CPU references of kernels using
 * these instructions tolerate that much. Integer products are exact and the sum wraps modulo 2^32 ({@code .satfinite}
 * clamps to the s32 range). f64 (DMMA) uses fused multiply-adds in k order starting from C, each rounded to nearest.
 */
public final class WarpMma {
    private WarpMma() {}

    /** Element types of the operands. */
    public enum Type {
        F16(16), BF16(16), TF32(32), F32(32), S8(8), U8(8), S4(4), U4(4), B1(1), S32(32), F64(64), E4M3(8), E5M2(8);

        final int bits;

        Type(int bits) {
            this.bits = bits;
        }

        /** Bits per element. */
        public int bits() {
            return bits;
        }

        public boolean integer() {
            return this == S8 || this == U8 || this == S4 || this == U4 || this == B1 || this == S32;
        }
    }

    /**
     * One multiply: shape m x n x k, the types of A ({@code ab}) and B ({@code b}: the same as A's except fp8, where
     * e4m3 and e5m2 mix), of C and of D, whether integer results saturate, and whether b1 elements combine by XOR
     * (else AND).
     */
    public record Spec(int m, int n, int k, Type ab, Type c, Type d, boolean satfinite, boolean xor, Type b) {
        /** A multiply whose A and B have one type. */
        public Spec(int m, int n, int k, Type ab, Type c, Type d, boolean satfinite, boolean xor) {
            this(m, n, k, ab, c, d, satfinite, xor, ab);
        }

        /** A multiply whose b1 products (if any) are AND. */
        public Spec(int m, int n, int k, Type ab, Type c, Type d, boolean satfinite) {
            this(m, n, k, ab, c, d, satfinite, false);
        }

        /** 32-bit registers per lane of A. */
        public int aRegs() {
            return m * k * ab.bits / 32 / 32;
        }

        public int bRegs() {
            return k * n * b.bits / 32 / 32;
        }

        public int cRegs() {
            return m * n * c.bits / 32 / 32;
        }

        public int dRegs() {
            return m * n * d.bits / 32 / 32;
        }
    }

    /**
     * D for every lane: {@code a[lane]}, {@code b[lane]}, {@code c[lane]} are the lane's registers of A, B and C in
     * order (64-bit elements as two registers, low word first); the result is each lane's D registers.
     */
    public static int[][] multiply(Spec s, int[][] a, int[][] b, int[][] c) {
        double[][] fa = new double[s.m][s.k];
        long[][] ia = new long[s.m][s.k];
        for (int lane = 0; lane < 32; lane++) {
            unpackA(s, lane, a[lane], fa, ia);
        }
        return multiply(s, fa, ia, b, c);
    }

    /**
     * D of a multiply whose A is 2:4 sparse ({@code mma.sp}, {@code HMMA.SP}/{@code IMMA.SP}/{@code QMMA.SP}):
     * {@code a[lane]} holds half of A's k, in the dense fragment layout of the shape with half the k ({@link
     * SparseA}), {@code meta[lane]} each lane's metadata register, {@code selector} the lanes of each quad that hold
     * the metadata; the positions A's elements do not name are zero.
     */
    public static int[][] multiplySparse(Spec s, int[][] a, int[][] b, int[][] c, int[] meta, int selector) {
        Spec packed = new Spec(s.m, s.n, s.k / 2, s.ab, s.c, s.d, s.satfinite, s.xor, s.b);
        double[][] pa = new double[s.m][s.k / 2];
        long[][] pia = new long[s.m][s.k / 2];
        for (int lane = 0; lane < 32; lane++) {
            unpackA(packed, lane, a[lane], pa, pia);
        }
        double[][] fa = new double[s.m][s.k];
        long[][] ia = new long[s.m][s.k];
        for (int row = 0; row < s.m; row++) {
            for (int e = 0; e < s.k / 2; e++) {
                int col = SparseA.column(s.ab.bits, s.k, row, e, meta, selector);
                fa[row][col] = pa[row][e];
                ia[row][col] = pia[row][e];
            }
        }
        return multiply(s, fa, ia, b, c);
    }

    /** D from A's elements (already unpacked) and the lanes' registers of B and C. */
    private static int[][] multiply(Spec s, double[][] fa, long[][] ia, int[][] b, int[][] c) {
        double[][] fb = new double[s.k][s.n], fc = new double[s.m][s.n];
        long[][] ib = new long[s.k][s.n], ic = new long[s.m][s.n];
        for (int lane = 0; lane < 32; lane++) {
            unpackB(s, lane, b[lane], fb, ib);
            unpackC(s, lane, c[lane], s.c, fc, ic);
        }
        int[][] d = new int[32][s.dRegs()];
        for (int i = 0; i < s.m; i++) {
            for (int j = 0; j < s.n; j++) {
                long bits = element(s, fa, fb, fc, ia, ib, ic, i, j);
                place(s, i, j, bits, d);
            }
        }
        return d;
    }

    /** D(i, j) as bits of the result type. */
    private static long element(Spec s, double[][] fa, double[][] fb, double[][] fc, long[][] ia, long[][] ib,
            long[][] ic, int i, int j) {
        if (s.ab.integer()) {
            long sum = 0;
            for (int q = 0; q < s.k; q++) {
                sum += s.xor ? ia[i][q] ^ ib[q][j] : ia[i][q] * ib[q][j]; // b1: AND is the product
            }
            sum += ic[i][j];
            if (s.satfinite) {
                sum = Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, sum));
            }
            return sum & 0xffffffffL;
        }
        if (s.ab == Type.F64) {
            double acc = fc[i][j];
            for (int q = 0; q < s.k; q++) {
                acc = Math.fma(fa[i][q], fb[q][j], acc);
            }
            return Double.doubleToRawLongBits(acc);
        }
        double sum = 0;
        for (int q = 0; q < s.k; q++) {
            sum += fa[i][q] * fb[q][j];
        }
        sum += fc[i][j];
        return switch (s.d) {
            case F32 -> Float.floatToRawIntBits((float) sum) & 0xffffffffL;
            case F16 -> SmallFloats.toHalf(sum);
            default -> throw new IllegalArgumentException("result type " + s.d);
        };
    }

    private static int perReg(Type t) {
        return t.bits >= 32 ? 1 : 32 / t.bits;
    }

    private static void unpackA(Spec s, int lane, int[] regs, double[][] f, long[][] v) {
        int g = lane >>> 2, t = lane & 3;
        if (s.ab == Type.F64 && s.m == 8) { // f64 m8n8k4
            long bits = pair(regs, 0);
            f[g][t] = Double.longBitsToDouble(bits);
            return;
        }
        int p = perReg(s.ab), count = s.m * s.k / 32;
        if (s.ab == Type.F64) { // f64 m16n8kK: one element per register pair, the layout of p = 1
            for (int e = 0; e < count; e++) {
                f[g + 8 * (e % 2)][t + 4 * (e / 2)] = Double.longBitsToDouble(pair(regs, 2 * e));
            }
            return;
        }
        for (int e = 0; e < count; e++) {
            int row = g + 8 * ((e / p) % 2), col = p * t + e % p + 4 * p * (e / (2 * p));
            set(s.ab, regs, e, p, f, v, row, col);
        }
    }

    private static void unpackB(Spec s, int lane, int[] regs, double[][] f, long[][] v) {
        int g = lane >>> 2, t = lane & 3;
        if (s.ab == Type.F64) { // B (t + 4e, g), one pair per element (m8n8k4: e = 0 only)
            for (int e = 0; e < s.k * s.n / 32; e++) {
                f[t + 4 * e][g] = Double.longBitsToDouble(pair(regs, 2 * e));
            }
            return;
        }
        int p = perReg(s.b), count = s.k * s.n / 32;
        for (int e = 0; e < count; e++) {
            int row = p * t + e % p + 4 * p * (e / p);
            set(s.b, regs, e, p, f, v, row, g);
        }
    }

    private static void unpackC(Spec s, int lane, int[] regs, Type type, double[][] f, long[][] v) {
        int g = lane >>> 2, t = lane & 3;
        if (s.ab == Type.F64) { // (g + 8 (e / 2), 2t + e % 2), one pair per element
            for (int e = 0; e < s.m * s.n / 32; e++) {
                f[g + 8 * (e / 2)][2 * t + e % 2] = Double.longBitsToDouble(pair(regs, 2 * e));
            }
            return;
        }
        int p = perReg(type);
        for (int e = 0; e < s.m * s.n / 32; e++) {
            set(type, regs, e, p, f, v, g + 8 * (e / 2), 2 * t + e % 2);
        }
    }

    /** Stores D(i, j) into the lane and register that hold it. */
    private static void place(Spec s, int i, int j, long bits, int[][] d) {
        if (s.ab == Type.F64) {
            int lane = 4 * (i % 8) + j / 2, r = 2 * (2 * (i / 8) + j % 2);
            d[lane][r] = (int) bits;
            d[lane][r + 1] = (int) (bits >>> 32);
            return;
        }
        int g = i % 8, e = 2 * (i / 8) + j % 2, lane = 4 * g + j / 2;
        int p = perReg(s.d), r = e / p, shift = s.d.bits * (e % p);
        int mask = s.d.bits == 32 ? -1 : (1 << s.d.bits) - 1;
        d[lane][r] = d[lane][r] & ~(mask << shift) | ((int) bits & mask) << shift;
    }

    private static void set(Type type, int[] regs, int e, int p, double[][] f, long[][] v, int row, int col) {
        int word = regs[e / p];
        int raw = type.bits == 32 ? word : word >>> type.bits * (e % p) & (1 << type.bits) - 1;
        switch (type) {
            case F16 -> f[row][col] = SmallFloats.halfToFloat(raw);
            case BF16 -> f[row][col] = SmallFloats.bf16ToFloat(raw);
            case TF32 -> f[row][col] = Float.intBitsToFloat(raw & 0xffffe000);
            case F32 -> f[row][col] = Float.intBitsToFloat(raw);
            case S8 -> v[row][col] = (byte) raw;
            case U8 -> v[row][col] = raw & 0xff;
            case S4 -> v[row][col] = raw << 28 >> 28;
            case U4 -> v[row][col] = raw & 0xf;
            case B1 -> v[row][col] = raw & 1;
            case S32 -> v[row][col] = raw;
            case E4M3, E5M2 -> f[row][col] = SmallFloats.halfToFloat(SmallFloats.fp8ToHalf(raw, type == Type.E4M3, false));
            default -> throw new IllegalArgumentException("element type " + type);
        }
    }

    private static long pair(int[] regs, int first) {
        return regs[first] & 0xffffffffL | (long) regs[first + 1] << 32;
    }
}
