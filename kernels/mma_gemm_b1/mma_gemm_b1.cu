// Population counts of bit-matrix products, C = C0 + popc(A op B) summed over k, for M = 16, N = 8, K = 512 through
// mma.sync.aligned with 1-bit inputs (sm_80+: BMMA; sm_90 has no .XOR.POPC and ptxas expands it). Three products:
// m16n8k256 .and.popc (two k-steps), m16n8k256 .xor.popc (two k-steps) and m16n8k128 .xor.popc (four k-steps). A is
// row-major (16 x 512 bits), B is given transposed (row n of bt is column n of B), bits packed 32 to a word, lowest
// first.
extern "C" __global__ void mma_gemm_b1(const unsigned* a, const unsigned* bt, const int* c0, int* c, int* cx,
                                       int* cx128) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int i0 = g * 8 + 2 * t, i1 = i0 + 1, i2 = (g + 8) * 8 + 2 * t, i3 = i2 + 1;
    int d0 = c0[i0], d1 = c0[i1], d2 = c0[i2], d3 = c0[i3];
    int e0 = c0[i0], e1 = c0[i1], e2 = c0[i2], e3 = c0[i3];
    int s0 = c0[i0], s1 = c0[i1], s2 = c0[i2], s3 = c0[i3];
    for (int kk = 0; kk < 16; kk += 8) {  // 32-bit words: two k-steps of 256 bits
        int r0 = g * 16 + kk + t, r1 = (g + 8) * 16 + kk + t, col = g * 16 + kk + t;
        asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+r"(d0), "+r"(d1), "+r"(d2), "+r"(d3)
                     : "r"(a[r0]), "r"(a[r1]), "r"(a[r0 + 4]), "r"(a[r1 + 4]), "r"(bt[col]), "r"(bt[col + 4]));
        asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+r"(e0), "+r"(e1), "+r"(e2), "+r"(e3)
                     : "r"(a[r0]), "r"(a[r1]), "r"(a[r0 + 4]), "r"(a[r1 + 4]), "r"(bt[col]), "r"(bt[col + 4]));
    }
    for (int kk = 0; kk < 16; kk += 4) {  // four k-steps of 128 bits
        int r0 = g * 16 + kk + t, r1 = (g + 8) * 16 + kk + t, col = g * 16 + kk + t;
        asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%0, %1, %2, %3};"
                     : "+r"(s0), "+r"(s1), "+r"(s2), "+r"(s3)
                     : "r"(a[r0]), "r"(a[r1]), "r"(bt[col]));
    }
    c[i0] = d0; c[i1] = d1; c[i2] = d2; c[i3] = d3;
    cx[i0] = e0; cx[i1] = e1; cx[i2] = e2; cx[i3] = e3;
    cx128[i0] = s0; cx128[i1] = s1; cx128[i2] = s2; cx128[i3] = s3;
}
