// A recursive .func called inside a divergent region, which diverges itself around its recursive call: the
// caller's convergence barrier must survive the callee's (ptxas saves the barrier registers a callee uses).
__device__ __noinline__ unsigned rec(unsigned x, int d) {
    unsigned r;
    if ((x >> d) & 1u) {
        r = d > 0 ? rec(x * 3u + (unsigned)d, d - 1) + 1u : x ^ 5u;
    } else {
        r = (x >> 1) + (unsigned)d;
    }
    return r * 7u + (unsigned)d;
}
extern "C" __global__ void call_diverge(const unsigned* in, unsigned* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    unsigned r = v;
    if (v & 2u) {
        r = rec(v, (int)(v >> 2) & 7);
    }
    out[i] = __shfl_xor_sync(0xffffffffu, r, 1) + r;
}
