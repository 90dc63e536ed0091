// Calls to non-inlined .func functions with scalar and pointer arguments.
__device__ __noinline__ int mix(int a, int b) { return (a * 31) ^ (b >> 3); }
__device__ __noinline__ float scale(const float* p, int i, float k) { return p[i] * k + 1.0f; }
extern "C" __global__ void call_func(const int* a, const float* f, int* out, float* fout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = mix(a[i], mix(i, a[n - 1 - i]));
    fout[i] = scale(f, i, 0.5f);
}
