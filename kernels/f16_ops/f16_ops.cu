#include <cuda_fp16.h>
// Scalar half arithmetic: add, mul, fma, conversion from and to float.
extern "C" __global__ void f16_ops(const __half* a, const __half* b, const __half* c, __half* sum, __half* prod, __half* fma_out, float* widened, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    sum[i] = __hadd(a[i], b[i]);
    prod[i] = __hmul(a[i], b[i]);
    fma_out[i] = __hfma(a[i], b[i], c[i]);
    widened[i] = __half2float(a[i]) * 3.0f;
}
