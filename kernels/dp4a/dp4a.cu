// dp4a and dp2a, signed and unsigned, with an accumulator.
extern "C" __global__ void dp4a(const int* a, const int* b, const int* c, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[4 * i] = __dp4a(a[i], b[i], c[i]);
    out[4 * i + 1] = (int)__dp4a((unsigned)a[i], (unsigned)b[i], (unsigned)c[i]);
    out[4 * i + 2] = __dp2a_lo(a[i], b[i], c[i]);
    out[4 * i + 3] = __dp2a_hi(a[i], b[i], c[i]);
}
