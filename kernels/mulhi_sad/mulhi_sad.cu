// mul.hi (32/64-bit, signed/unsigned), mul24, sad.
extern "C" __global__ void mulhi_sad(const int* a, const int* b, const long long* c, int* out, long long* out64, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[5 * i] = __mulhi(a[i], b[i]);
    out[5 * i + 1] = (int)__umulhi((unsigned)a[i], (unsigned)b[i]);
    out[5 * i + 2] = __mul24(a[i], b[i]);
    out[5 * i + 3] = (int)__sad(a[i], b[i], 7u);
    out[5 * i + 4] = (int)__usad((unsigned)a[i], (unsigned)b[i], 11u);
    out64[2 * i] = __mul64hi(c[i], (long long)a[i] * 77777);
    out64[2 * i + 1] = (long long)__umul64hi((unsigned long long)c[i], (unsigned long long)c[n - 1 - i]);
}
