// Signed and unsigned 32-bit division and remainder by run-time divisors.
extern "C" __global__ void int_div_rem_32(const int* a, const int* b, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i];
    out[4 * i] = x / y;
    out[4 * i + 1] = x % y;
    out[4 * i + 2] = (int)((unsigned)x / (unsigned)y);
    out[4 * i + 3] = (int)((unsigned)x % (unsigned)y);
}
