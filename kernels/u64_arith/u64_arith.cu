// 64-bit add/sub/compare/min/max/shift by run-time amounts, signed and unsigned.
extern "C" __global__ void u64_arith(const long long* a, const long long* b, long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i], y = b[i];
    unsigned sh = (unsigned)y & 63;
    out[6 * i] = x + y;
    out[6 * i + 1] = x - (y << 3);
    out[6 * i + 2] = x >> sh;
    out[6 * i + 3] = (long long)((unsigned long long)x >> sh) ^ (x << (sh ^ 7));
    out[6 * i + 4] = (x < y ? x : y) + ((unsigned long long)x > (unsigned long long)y ? 1 : 0);
    out[6 * i + 5] = x * y;
}
