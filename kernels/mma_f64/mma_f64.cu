// C = A * B + C0 for M = N = 8, K = 8 in f64 through mma.sync.aligned.m8n8k4.row.col.f64 (sm_80+: DMMA), one warp,
// two k-steps of 4. A is row-major (8 x 8), B is given transposed (row n of bt is column n of B).
extern "C" __global__ void mma_f64(const double* a, const double* bt, const double* c0, double* c) {
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    double d0 = c0[g * 8 + 2 * t], d1 = c0[g * 8 + 2 * t + 1];
    for (int kk = 0; kk < 8; kk += 4) {
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                     : "+d"(d0), "+d"(d1)
                     : "d"(a[g * 8 + kk + t]), "d"(bt[g * 8 + kk + t]));
    }
    c[g * 8 + 2 * t] = d0;
    c[g * 8 + 2 * t + 1] = d1;
}
