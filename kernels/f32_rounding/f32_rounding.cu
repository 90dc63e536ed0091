// Directed rounding intrinsics: add/mul/fma in rn/rz/ru/rd and sqrt.rn.
extern "C" __global__ void f32_rounding(const float* a, const float* b, const float* c, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    out[10 * i] = __fadd_rz(x, y);
    out[10 * i + 1] = __fadd_ru(x, y);
    out[10 * i + 2] = __fadd_rd(x, y);
    out[10 * i + 3] = __fmul_rz(x, y);
    out[10 * i + 4] = __fmul_ru(x, y);
    out[10 * i + 5] = __fmul_rd(x, y);
    out[10 * i + 6] = __fmaf_rz(x, y, z);
    out[10 * i + 7] = __fmaf_ru(x, y, z);
    out[10 * i + 8] = __fmaf_rd(x, y, z);
    out[10 * i + 9] = sqrtf(fabsf(x));
}
