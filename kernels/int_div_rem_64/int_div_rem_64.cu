// Signed and unsigned 64-bit division and remainder by run-time divisors, and by a constant.
extern "C" __global__ void int_div_rem_64(const long long* a, const long long* b, long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i], y = b[i];
    out[5 * i] = x / y;
    out[5 * i + 1] = x % y;
    out[5 * i + 2] = (long long)((unsigned long long)x / (unsigned long long)y);
    out[5 * i + 3] = (long long)((unsigned long long)x % (unsigned long long)y);
    out[5 * i + 4] = x / 1000003;
}
