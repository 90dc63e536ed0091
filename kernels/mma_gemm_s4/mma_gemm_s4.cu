// C = A * B + C0 in integers for M = 16, N = 8, K = 128 through mma.sync.aligned with 4-bit inputs (sm_80+: IMMA
// .S4/.U4; sm_90 has no 4-bit IMMA and ptxas expands each multiply into 8-bit ones). Three products: m16n8k64 s4
// (two k-steps), m16n8k64 u4 (two k-steps) and m16n8k32 s4 with .satfinite (four k-steps, C0 near the s32 limits so
// that some sums saturate). A is row-major (16 x 128 nibbles), B is given transposed (row n of bt is column n of B),
// 4-bit values packed eight to a 32-bit word, lowest first.
extern "C" __global__ void mma_gemm_s4(const unsigned* a, const unsigned* bt, const unsigned* au, const unsigned* but,
                                       const int* c0, const int* cs0, int* c, int* cu, int* cs) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int i0 = g * 8 + 2 * t, i1 = i0 + 1, i2 = (g + 8) * 8 + 2 * t, i3 = i2 + 1;
    int d0 = c0[i0], d1 = c0[i1], d2 = c0[i2], d3 = c0[i3];
    int e0 = c0[i0], e1 = c0[i1], e2 = c0[i2], e3 = c0[i3];
    int s0 = cs0[i0], s1 = cs0[i1], s2 = cs0[i2], s3 = cs0[i3];
    for (int kk = 0; kk < 16; kk += 8) {  // 32-bit words: two k-steps of 64 nibbles
        int r0 = g * 16 + kk + t, r1 = (g + 8) * 16 + kk + t, col = g * 16 + kk + t;
        asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                     "{%0, %1, %2, %3};"
                     : "+r"(d0), "+r"(d1), "+r"(d2), "+r"(d3)
                     : "r"(a[r0]), "r"(a[r1]), "r"(a[r0 + 4]), "r"(a[r1 + 4]), "r"(bt[col]), "r"(bt[col + 4]));
        asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                     "{%0, %1, %2, %3};"
                     : "+r"(e0), "+r"(e1), "+r"(e2), "+r"(e3)
                     : "r"(au[r0]), "r"(au[r1]), "r"(au[r0 + 4]), "r"(au[r1 + 4]), "r"(but[col]), "r"(but[col + 4]));
    }
    for (int kk = 0; kk < 16; kk += 4) {  // four k-steps of 32 nibbles
        int r0 = g * 16 + kk + t, r1 = (g + 8) * 16 + kk + t, col = g * 16 + kk + t;
        asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%0, %1, %2, %3};"
                     : "+r"(s0), "+r"(s1), "+r"(s2), "+r"(s3)
                     : "r"(a[r0]), "r"(a[r1]), "r"(bt[col]));
    }
    c[i0] = d0; c[i1] = d1; c[i2] = d2; c[i3] = d3;
    cu[i0] = e0; cu[i1] = e1; cu[i2] = e2; cu[i3] = e3;
    cs[i0] = s0; cs[i1] = s1; cs[i2] = s2; cs[i3] = s3;
}
