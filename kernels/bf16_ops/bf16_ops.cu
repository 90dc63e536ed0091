#include <cuda_bf16.h>
// bfloat16: round float to bf16 (RN), multiply in bf16, widen back.
extern "C" __global__ void bf16_ops(const float* x, const float* y, __nv_bfloat16* xb, float* prod, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 a = __float2bfloat16(x[i]);
    __nv_bfloat16 b = __float2bfloat16(y[i]);
    xb[i] = a;
    prod[i] = __bfloat162float(__hmul(a, b));
}
