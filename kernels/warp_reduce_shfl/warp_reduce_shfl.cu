// Butterfly (shfl.bfly) sum and max per warp; lane 0 writes both.
extern "C" __global__ void warp_reduce_shfl(const int* in, int* sums, int* maxes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = in[i], m = in[i];
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(0xffffffffu, s, o);
        m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
    }
    if ((threadIdx.x & 31) == 0) { sums[i >> 5] = s; maxes[i >> 5] = m; }
}
