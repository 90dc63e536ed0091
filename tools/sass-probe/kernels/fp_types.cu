// Probe kernel: f16, bf16, f64, conversions, special functions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void fp_types(__half2 *h, __nv_bfloat162 *b, double *d, float *f, int *i, long long *l, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    __half2 x = h[t], y = h[t + n];
    x = __hfma2(x, y, __float2half2_rn(1.25f));
    x = __hmul2(x, __hadd2(x, y));
    x = __hsub2(x, __hmax2(x, y));
    x = __hmin2(x, h2sqrt(y));
    h[t] = __hbge2(x, y) ? x : __hneg2(y);
#if __CUDA_ARCH__ >= 800
    __nv_bfloat162 p = b[t], q = b[t + n];
    p = __hfma2(p, q, __float2bfloat162_rn(0.75f));
    p = __hmul2(p, __hadd2(p, q));
    b[t] = __hmax2(p, q);
#else
    __nv_bfloat162 p = b[t];
#endif
    double a = d[t], c = d[t + n];
    a = fma(a, c, 3.0);
    a = a * c + sqrt(c);
    d[t] = a / c + (double)f[t] + (double)i[t] + (double)l[t] + floor(a) + ceil(c) + trunc(a) + fmin(a, c);
    float g = f[t];
    g = __expf(g) + __logf(g) + __sinf(g) + __cosf(g) + rsqrtf(g) + __fdividef(g, 3.0f) + exp2f(g) + log2f(g);
    g += __saturatef(g) + fabsf(g) + copysignf(g, -1.0f) + rintf(g) + truncf(g) + floorf(g) + ceilf(g);
    f[t] = g + __half2float(__low2half(x)) + __bfloat162float(__low2bfloat16(p));
    i[t] = __float2int_rn(g) + __float2int_rz(g) + (int)__double2int_rd(a) + __float2uint_ru(g) + (int)__float_as_int(g);
    l[t] = __double2ll_rn(a) + __float2ll_rz(g) + (long long)__double2ull_ru(a) + __double_as_longlong(a);
    h[t + 2 * n] = __floats2half2_rn(g, (float)a);
    b[t + 2 * n] = __floats2bfloat162_rn(g, (float)a);
}
