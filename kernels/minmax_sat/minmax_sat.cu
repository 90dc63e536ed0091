// min/max with NaN rules, saturate, abs, copysign, integer min/max/abs.
extern "C" __global__ void minmax_sat(const float* x, const float* y, const int* a, float* fo, int* io, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    fo[5 * i] = fminf(x[i], y[i]);
    fo[5 * i + 1] = fmaxf(x[i], y[i]);
    fo[5 * i + 2] = __saturatef(x[i]);
    fo[5 * i + 3] = fabsf(x[i]) + copysignf(1.5f, y[i]);
    fo[5 * i + 4] = __fadd_rn(x[i], y[i]);
    io[3 * i] = min(a[i], 100) + max(a[i], -100);
    io[3 * i + 1] = abs(a[i]);
    io[3 * i + 2] = (int)min((unsigned)a[i], 5000u);
}
