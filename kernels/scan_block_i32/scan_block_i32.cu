// Hillis-Steele inclusive scan of 256 ints per block with a double buffer.
extern "C" __global__ void scan_block_i32(const int* in, int* out) {
    __shared__ int buf[2][256];
    int t = threadIdx.x, base = blockIdx.x * 256;
    int cur = 0;
    buf[0][t] = in[base + t];
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
        int v = buf[cur][t];
        if (t >= off) v += buf[cur][t - off];
        buf[cur ^ 1][t] = v;
        cur ^= 1;
        __syncthreads();
    }
    out[base + t] = buf[cur][t];
}
