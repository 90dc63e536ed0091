// shfl.idx and shfl.down with sub-warp widths.
extern "C" __global__ void shfl_idx(const int* in, const int* src, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    out[3 * i] = __shfl_sync(0xffffffffu, v, src[i]);
    out[3 * i + 1] = __shfl_sync(0xffffffffu, v, src[i], 8);
    out[3 * i + 2] = __shfl_down_sync(0xffffffffu, v, 3, 16);
}
