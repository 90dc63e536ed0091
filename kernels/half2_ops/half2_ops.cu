#include <cuda_fp16.h>
// Packed half2 arithmetic: add, mul, fma, negate.
extern "C" __global__ void half2_ops(const __half2* a, const __half2* b, __half2* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 s = __hadd2(a[i], b[i]);
    __half2 p = __hmul2(a[i], b[i]);
    out[i] = __hfma2(s, p, __hneg2(b[i]));
}
