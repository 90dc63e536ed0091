// C = A * B + C0 for M = N = 16, K = 16 through wmma.mma.sync.aligned.m16n16k8.row.col.f32.tf32.tf32.f32 (sm_80+),
// one warp, two k-steps of 8. A is row-major (16 x 16), B is given transposed (Bt: 16 x 16), C0 row-major 16 x 16,
// all f32 holding tf32 values. The fragments are loaded by hand in ptxas's register layout (the PTX ISA leaves it
// unspecified): A's 4 registers are the A fragment of mma.m16n8k8 tf32, B's registers 0-1 and 2-3 are the B
// fragments of the left and right 8 columns, C holds the left half's accumulator fragment, then the right half's.
extern "C" __global__ void wmma_gemm_tf32(const float* a, const float* bt, const float* c0, float* c) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    float d[8];
    for (int half = 0; half < 2; half++) {
        int col = 8 * half + 2 * t;
        d[4 * half + 0] = c0[g * 16 + col];
        d[4 * half + 1] = c0[g * 16 + col + 1];
        d[4 * half + 2] = c0[(g + 8) * 16 + col];
        d[4 * half + 3] = c0[(g + 8) * 16 + col + 1];
    }
    for (int kk = 0; kk < 16; kk += 8) {
        float a0 = a[g * 16 + kk + t], a1 = a[(g + 8) * 16 + kk + t];
        float a2 = a[g * 16 + kk + 4 + t], a3 = a[(g + 8) * 16 + kk + 4 + t];
        float b0 = bt[g * 16 + kk + t], b1 = bt[g * 16 + kk + 4 + t];
        float b2 = bt[(g + 8) * 16 + kk + t], b3 = bt[(g + 8) * 16 + kk + 4 + t];
        asm volatile("wmma.mma.sync.aligned.m16n16k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                     "{%8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3, %4, %5, %6, %7};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                     : "r"(__float_as_uint(a0)), "r"(__float_as_uint(a1)), "r"(__float_as_uint(a2)),
                       "r"(__float_as_uint(a3)), "r"(__float_as_uint(b0)), "r"(__float_as_uint(b1)),
                       "r"(__float_as_uint(b2)), "r"(__float_as_uint(b3)));
    }
    for (int half = 0; half < 2; half++) {
        int col = 8 * half + 2 * t;
        c[g * 16 + col] = d[4 * half + 0];
        c[g * 16 + col + 1] = d[4 * half + 1];
        c[(g + 8) * 16 + col] = d[4 * half + 2];
        c[(g + 8) * 16 + col + 1] = d[4 * half + 3];
    }
}
