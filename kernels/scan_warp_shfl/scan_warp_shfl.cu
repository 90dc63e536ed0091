// Inclusive warp scan with shfl.up; float values are small integers so every order gives the same sum.
extern "C" __global__ void scan_warp_shfl(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = in[i];
    for (int o = 1; o < 32; o <<= 1) {
        float n = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) v += n;
    }
    out[i] = v;
}
