// C = A * B + C0 for M = 16, N = 8, K = 64 through mma.sync.aligned.m16n8k32 with fp8 inputs (sm_89: QMMA; sm_90 has
// no QMMA and ptxas converts the bytes to f16 pairs for HMMA), one warp, two k-steps: e4m3 x e4m3 with f32
// accumulation (c), e4m3 x e5m2 with f32 accumulation (cm) and e5m2 x e5m2 with f16 accumulation (h). A is row-major
// (16 x 64 bytes), B is given transposed (row n of bt is column n of B), bytes packed four to a 32-bit word.
#include <cuda_fp16.h>

extern "C" __global__ void mma_gemm_fp8(const unsigned* a4, const unsigned* bt4, const unsigned* a5,
                                        const unsigned* bt5, const float* c0, const unsigned short* h0, float* c,
                                        float* cm, unsigned short* h) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int i0 = g * 8 + 2 * t, i2 = (g + 8) * 8 + 2 * t;
    float d0 = c0[i0], d1 = c0[i0 + 1], d2 = c0[i2], d3 = c0[i2 + 1];
    float m0 = c0[i0], m1 = c0[i0 + 1], m2 = c0[i2], m3 = c0[i2 + 1];
    unsigned q0 = h0[i0] | (unsigned)h0[i0 + 1] << 16, q1 = h0[i2] | (unsigned)h0[i2 + 1] << 16;
    for (int kk = 0; kk < 16; kk += 8) {  // 32-bit words: two k-steps of 32 bytes
        int r0 = g * 16 + kk + t, r1 = (g + 8) * 16 + kk + t, col = g * 16 + kk + t;
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a4[r0]), "r"(a4[r1]), "r"(a4[r0 + 4]), "r"(a4[r1 + 4]), "r"(bt4[col]), "r"(bt4[col + 4]));
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(m0), "+f"(m1), "+f"(m2), "+f"(m3)
                     : "r"(a4[r0]), "r"(a4[r1]), "r"(a4[r0 + 4]), "r"(a4[r1 + 4]), "r"(bt5[col]), "r"(bt5[col + 4]));
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, "
                     "{%0, %1};"
                     : "+r"(q0), "+r"(q1)
                     : "r"(a5[r0]), "r"(a5[r1]), "r"(a5[r0 + 4]), "r"(a5[r1 + 4]), "r"(bt5[col]), "r"(bt5[col + 4]));
    }
    c[i0] = d0; c[i0 + 1] = d1; c[i2] = d2; c[i2 + 1] = d3;
    cm[i0] = m0; cm[i0 + 1] = m1; cm[i2] = m2; cm[i2 + 1] = m3;
    h[i0] = q0 & 0xffff; h[i0 + 1] = q0 >> 16; h[i2] = q1 & 0xffff; h[i2 + 1] = q1 >> 16;
}
