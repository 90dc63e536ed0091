// match.any and match.all over small keys.
extern "C" __global__ void warp_match(const int* keys, unsigned* any_out, unsigned* all_out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pred;
    any_out[i] = __match_any_sync(0xffffffffu, keys[i]);
    unsigned m = __match_all_sync(0xffffffffu, keys[i] >> 8, &pred);
    all_out[i] = m | (pred ? 0u : 1u);
}
