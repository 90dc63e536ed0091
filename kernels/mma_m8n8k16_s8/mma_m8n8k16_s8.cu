// C = A * B + C0 in integers for M = N = 8, K = 32 through mma.sync.aligned.m8n8k16.row.col (sm_75+: IMMA.8816),
// one warp, two k-steps: s8 inputs (c) and u8 inputs (cu). A is row-major (8 x 32 bytes), B is given transposed
// (row n of bt is column n of B), 8-bit values packed four to a 32-bit word.
extern "C" __global__ void mma_m8n8k16_s8(const unsigned* a, const unsigned* bt, const unsigned* au,
                                          const unsigned* but, const int* c0, int* c, int* cu) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int i0 = g * 8 + 2 * t, i1 = i0 + 1;
    int d0 = c0[i0], d1 = c0[i1], e0 = c0[i0], e1 = c0[i1];
    for (int kk = 0; kk < 8; kk += 4) {  // 32-bit words: two k-steps of 16 bytes
        int r = g * 8 + kk + t;
        asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0, %1}, {%2}, {%3}, {%0, %1};"
                     : "+r"(d0), "+r"(d1) : "r"(a[r]), "r"(bt[r]));
        asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.u8.u8.s32 {%0, %1}, {%2}, {%3}, {%0, %1};"
                     : "+r"(e0), "+r"(e1) : "r"(au[r]), "r"(but[r]));
    }
    c[i0] = d0; c[i1] = d1;
    cu[i0] = e0; cu[i1] = e1;
}
