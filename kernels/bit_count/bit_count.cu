// popc, clz, brev, ffs (bfind) in 32 and 64 bits.
extern "C" __global__ void bit_count(const unsigned long long* x, unsigned* out, unsigned long long* out64, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long v = x[i];
    unsigned lo = (unsigned)v;
    out[6 * i] = __popc(lo);
    out[6 * i + 1] = __clz(lo);
    out[6 * i + 2] = __brev(lo);
    out[6 * i + 3] = __ffs(lo);
    out[6 * i + 4] = __popcll(v);
    out[6 * i + 5] = __clzll(v) + 100 * __ffsll(v);
    out64[i] = __brevll(v);
}
