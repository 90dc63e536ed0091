// prmt: __byte_perm with run-time and constant selectors.
extern "C" __global__ void byte_perm(const unsigned* x, const unsigned* y, const unsigned* s, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[3 * i] = __byte_perm(x[i], y[i], s[i]);
    out[3 * i + 1] = __byte_perm(x[i], y[i], 0x0123);
    out[3 * i + 2] = __byte_perm(x[i], 0, 0x8881);
}
