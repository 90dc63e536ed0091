// Correctly rounded single sqrt and reciprocal, with the rn intrinsics and in-range denormals.
extern "C" __global__ void sqrt_rcp_f32(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    out[3 * i] = sqrtf(v);
    out[3 * i + 1] = __frcp_rn(v);
    out[3 * i + 2] = __fsqrt_rn(v * 4.0f);
}
