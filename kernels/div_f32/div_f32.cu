// IEEE single division and reciprocal (div.rn.f32, rcp.rn.f32), special values included.
extern "C" __global__ void div_f32(const float* a, const float* b, float* q, float* r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    q[i] = a[i] / b[i];
    r[i] = 1.0f / b[i];
}
