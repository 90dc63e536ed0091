// C = A * B + C0 for M = 16, N = 8, K = 16 through mma.sync.aligned.m16n8k8.row.col (sm_75+), one warp, two k-steps
// of 8: f16 inputs with f32 accumulation (c) and with f16 accumulation (h). A is row-major (16 x 16), B is given
// transposed (Bt: 8 x 16), both as 16-bit values packed two to a 32-bit word.
extern "C" __global__ void mma_m16n8k8_f16(const unsigned* a, const unsigned* bt, const float* c0, const unsigned* h0,
                                           float* c, unsigned* h) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    float d0 = c0[g * 8 + 2 * t], d1 = c0[g * 8 + 2 * t + 1];
    float d2 = c0[(g + 8) * 8 + 2 * t], d3 = c0[(g + 8) * 8 + 2 * t + 1];
    unsigned q0 = h0[g * 4 + t], q1 = h0[(g + 8) * 4 + t];
    for (int kk = 0; kk < 8; kk += 4) {  // 32-bit words: two k-steps of 8 halves
        unsigned a0 = a[g * 8 + kk + t], a1 = a[(g + 8) * 8 + kk + t], b0 = bt[g * 8 + kk + t];
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%0, %1, %2, %3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a0), "r"(a1), "r"(b0));
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%0, %1};"
                     : "+r"(q0), "+r"(q1)
                     : "r"(a0), "r"(a1), "r"(b0));
    }
    c[g * 8 + 2 * t] = d0;
    c[g * 8 + 2 * t + 1] = d1;
    c[(g + 8) * 8 + 2 * t] = d2;
    c[(g + 8) * 8 + 2 * t + 1] = d3;
    h[g * 4 + t] = q0;
    h[(g + 8) * 4 + t] = q1;
}
