// Shared-memory tree reduction of 256 floats per block; inputs are small integers so the sum is exact.
extern "C" __global__ void reduce_sum_f32(const float* in, float* out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
