// C = A * B + C0 for M = N = 16, K = 32 through wmma.mma.sync.aligned.row.col.m16n16k16 (sm_70+), one warp, two
// k-steps of 16: f16 inputs with f32 accumulation (c) and with f16 accumulation (h). A is row-major (16 x 32), B is
// given transposed (Bt: 16 x 32), both as 16-bit values packed two to a 32-bit word; C0 (f32) and H0 (f16 pairs) are
// row-major 16 x 16. The fragments are loaded by hand in ptxas's register layout (the PTX ISA leaves it unspecified):
// A's registers 0-3 are the A fragment of mma.m16n8k16 (4-7 are not read), B's registers 0-1 and 2-3 are the B
// fragments of the left and right 8 columns, C holds the left half's accumulator fragment, then the right half's.
extern "C" __global__ void wmma_gemm_f16(const unsigned* a, const unsigned* bt, const float* c0, const unsigned* h0,
                                         float* c, unsigned* h) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    float d[8];
    unsigned q[4];
    for (int half = 0; half < 2; half++) {
        int col = 8 * half + 2 * t;
        d[4 * half + 0] = c0[g * 16 + col];
        d[4 * half + 1] = c0[g * 16 + col + 1];
        d[4 * half + 2] = c0[(g + 8) * 16 + col];
        d[4 * half + 3] = c0[(g + 8) * 16 + col + 1];
        q[2 * half + 0] = h0[g * 8 + 4 * half + t];
        q[2 * half + 1] = h0[(g + 8) * 8 + 4 * half + t];
    }
    for (int kk = 0; kk < 16; kk += 8) {  // 32-bit words: two k-steps of 16 halves
        unsigned a0 = a[g * 16 + kk + t], a1 = a[(g + 8) * 16 + kk + t];
        unsigned a2 = a[g * 16 + kk + 4 + t], a3 = a[(g + 8) * 16 + kk + 4 + t];
        unsigned b0 = bt[g * 16 + kk + t], b1 = bt[g * 16 + kk + 4 + t];
        unsigned b2 = bt[(g + 8) * 16 + kk + t], b3 = bt[(g + 8) * 16 + kk + 4 + t];
        asm volatile("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                     "{%8, %9, %10, %11, %8, %9, %10, %11}, {%12, %13, %14, %15, %12, %13, %14, %15}, "
                     "{%0, %1, %2, %3, %4, %5, %6, %7};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3));
        asm volatile("wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 {%0, %1, %2, %3}, "
                     "{%4, %5, %6, %7, %4, %5, %6, %7}, {%8, %9, %10, %11, %8, %9, %10, %11}, {%0, %1, %2, %3};"
                     : "+r"(q[0]), "+r"(q[1]), "+r"(q[2]), "+r"(q[3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(b2), "r"(b3));
    }
    for (int half = 0; half < 2; half++) {
        int col = 8 * half + 2 * t;
        c[g * 16 + col] = d[4 * half + 0];
        c[g * 16 + col + 1] = d[4 * half + 1];
        c[(g + 8) * 16 + col] = d[4 * half + 2];
        c[(g + 8) * 16 + col + 1] = d[4 * half + 3];
        h[g * 8 + 4 * half + t] = q[2 * half + 0];
        h[(g + 8) * 8 + 4 * half + t] = q[2 * half + 1];
    }
}
