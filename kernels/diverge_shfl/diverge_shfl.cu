// Divergence sensitivity: a data-dependent if/else with a loop on each side (so nothing is if-converted), then
// full-warp shuffles. Correct only if the warp reconverges after the if/else (BSSY/BSYNC at the join).
extern "C" __global__ void diverge_shfl(const int* in, int* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    int r;
    if (v & 1) {
        r = v * 3;
        for (int k = 0; k < (v & 7); k++) r = r * 5 + k;
    } else {
        r = v + 11;
        for (int k = 0; k < (v & 6); k++) r ^= r << 1;
    }
    r += __shfl_xor_sync(0xffffffffu, r, 1);
    r += __shfl_down_sync(0xffffffffu, r, 2);
    out[t] = r;
}
