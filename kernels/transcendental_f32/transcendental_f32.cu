// Fast-math approximations: sin.approx, cos.approx, ex2.approx, lg2.approx, rsqrt.approx, div.approx, tanh.approx.
extern "C" __global__ void transcendental_f32(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    out[6 * i] = __sinf(v);
    out[6 * i + 1] = __cosf(v);
    out[6 * i + 2] = exp2f(v * 0.25f);
    out[6 * i + 3] = __log2f(fabsf(v) + 0.5f);
    out[6 * i + 4] = rsqrtf(fabsf(v) + 0.25f);
    out[6 * i + 5] = __fdividef(v, 1.5f + fabsf(v));
}
