// C = A * B + C0 in tf32 for M = 16, N = 8, K = 16 through mma.sync.aligned (sm_80+: HMMA ... .TF32), one warp:
// m16n8k8 (two k-steps, c) and m16n8k4 (four k-steps, c4). A is row-major (16 x 16 floats), B is given transposed
// (row n of bt is column n of B); the inputs are tf32 values (f32 with the low 13 fraction bits zero).
extern "C" __global__ void mma_gemm_tf32(const float* a, const float* bt, const float* c0, float* c, float* c4) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int i0 = g * 8 + 2 * t, i1 = i0 + 1, i2 = (g + 8) * 8 + 2 * t, i3 = i2 + 1;
    float d0 = c0[i0], d1 = c0[i1], d2 = c0[i2], d3 = c0[i3];
    float e0 = d0, e1 = d1, e2 = d2, e3 = d3;
    for (int kk = 0; kk < 16; kk += 8) {
        int r0 = g * 16 + kk + t, r1 = (g + 8) * 16 + kk + t, col = g * 16 + kk + t;
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(__float_as_uint(a[r0])), "r"(__float_as_uint(a[r1])), "r"(__float_as_uint(a[r0 + 4])),
                       "r"(__float_as_uint(a[r1 + 4])), "r"(__float_as_uint(bt[col])), "r"(__float_as_uint(bt[col + 4])));
    }
    for (int kk = 0; kk < 16; kk += 4) {
        int r0 = g * 16 + kk + t, r1 = (g + 8) * 16 + kk + t, col = g * 16 + kk + t;
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%0, %1, %2, %3};"
                     : "+f"(e0), "+f"(e1), "+f"(e2), "+f"(e3)
                     : "r"(__float_as_uint(a[r0])), "r"(__float_as_uint(a[r1])), "r"(__float_as_uint(bt[col])));
    }
    c[i0] = d0; c[i1] = d1; c[i2] = d2; c[i3] = d3;
    c4[i0] = e0; c4[i1] = e1; c4[i2] = e2; c4[i3] = e3;
}
