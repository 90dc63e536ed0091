// redux.sync (sm_80+): add, min, max, and, or, xor over each warp.
extern "C" __global__ void warp_redux(const unsigned* in, unsigned* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    unsigned a = __reduce_add_sync(0xffffffffu, v);
    unsigned mn = __reduce_min_sync(0xffffffffu, v);
    int mx = __reduce_max_sync(0xffffffffu, (int)v);
    unsigned x = __reduce_and_sync(0xffffffffu, v) ^ __reduce_or_sync(0xffffffffu, v) ^ __reduce_xor_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0) { int w = i >> 5; out[w * 4] = a; out[w * 4 + 1] = mn; out[w * 4 + 2] = (unsigned)mx; out[w * 4 + 3] = x; }
}
