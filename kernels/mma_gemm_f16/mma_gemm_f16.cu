// C = A * B + C0 for M = 16, N = 16, K = 32 through mma.sync.aligned.m16n8k16.row.col (sm_80+), two warps:
// warp w computes columns 8w..8w+7, two k-steps of 16. Three products: f16 inputs with f32 accumulation,
// f16 inputs with f16 accumulation, bf16 inputs with f32 accumulation. A is row-major (16 x 32), B is given
// transposed (Bt: 16 x 32, row n holds column n of B), both as 16-bit values packed two to a 32-bit word.
extern "C" __global__ void mma_gemm_f16(const unsigned* a, const unsigned* bt, const unsigned* ab,
                                        const unsigned* bbt, const float* c0, const unsigned* h0,
                                        float* c, unsigned* h, float* cb) {
    int lane = threadIdx.x & 31, n0 = (threadIdx.x >> 5) * 8;
    int g = lane >> 2, t = lane & 3;
    float d0 = c0[g * 16 + n0 + 2 * t], d1 = c0[g * 16 + n0 + 2 * t + 1];
    float d2 = c0[(g + 8) * 16 + n0 + 2 * t], d3 = c0[(g + 8) * 16 + n0 + 2 * t + 1];
    float e0 = d0, e1 = d1, e2 = d2, e3 = d3;
    unsigned q0 = h0[g * 8 + n0 / 2 + t], q1 = h0[(g + 8) * 8 + n0 / 2 + t];
    for (int kk = 0; kk < 16; kk += 8) {  // 32-bit words: two k-steps of 16 halves
        int r0 = g * 16 + kk + t, r1 = (g + 8) * 16 + kk + t, col = (n0 + g) * 16 + kk + t;
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                     "{%0, %1, %2, %3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a[r0]), "r"(a[r1]), "r"(a[r0 + 4]), "r"(a[r1 + 4]), "r"(bt[col]), "r"(bt[col + 4]));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};"
                     : "+r"(q0), "+r"(q1)
                     : "r"(a[r0]), "r"(a[r1]), "r"(a[r0 + 4]), "r"(a[r1 + 4]), "r"(bt[col]), "r"(bt[col + 4]));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(e0), "+f"(e1), "+f"(e2), "+f"(e3)
                     : "r"(ab[r0]), "r"(ab[r1]), "r"(ab[r0 + 4]), "r"(ab[r1 + 4]), "r"(bbt[col]), "r"(bbt[col + 4]));
    }
    c[g * 16 + n0 + 2 * t] = d0;
    c[g * 16 + n0 + 2 * t + 1] = d1;
    c[(g + 8) * 16 + n0 + 2 * t] = d2;
    c[(g + 8) * 16 + n0 + 2 * t + 1] = d3;
    h[g * 8 + n0 / 2 + t] = q0;
    h[(g + 8) * 8 + n0 / 2 + t] = q1;
    cb[g * 16 + n0 + 2 * t] = e0;
    cb[g * 16 + n0 + 2 * t + 1] = e1;
    cb[(g + 8) * 16 + n0 + 2 * t] = e2;
    cb[(g + 8) * 16 + n0 + 2 * t + 1] = e3;
}
