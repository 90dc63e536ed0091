// Deep recursion with a local array in every frame: each level keeps its own buffer across the recursive call.
__device__ __noinline__ unsigned walk(unsigned x, int depth) {
    unsigned buf[8];
    for (int k = 0; k < 8; ++k) {
        buf[k] = x * (unsigned)(2 * k + 1) + (unsigned)depth;
    }
    if (depth == 0) {
        return buf[x & 7u];
    }
    unsigned r = walk(buf[(x >> 3) & 7u] ^ (x >> 1), depth - 1);
    return r + buf[(r + (unsigned)depth) & 7u];
}

extern "C" __global__ void call_deep_local(const unsigned* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    out[i] = walk(v, 8 + (int)(v & 15u));
}
