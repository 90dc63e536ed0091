// Probe kernel: tensor cores (wmma), textures/surfaces, uniform datapath, 64-bit integer ops.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
extern "C" __global__ void tensor_f16(const half *a, const half *b, float *c, half *ch) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> fh;
    wmma::fill_fragment(fc, 0.0f);
    wmma::fill_fragment(fh, __float2half(0.0f));
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::mma_sync(fh, fa, fb, fh);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(ch, fh, 16, wmma::mem_col_major);
}
extern "C" __global__ void tensor_int8(const signed char *a, const signed char *b, int *c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
extern "C" __global__ void textures(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaSurfaceObject_t s, float4 *out, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = tex1Dfetch<float4>(t1, x);
    float w = tex2D<float>(t2, x * 0.5f, n * 0.25f);
    float4 g = tex2DLod<float4>(t1, x * 0.1f, 0.3f, 1.0f);
    float k = tex3D<float>(t2, 0.1f * x, 0.2f, 0.3f);
    float4 q = tex2Dgather<float4>(t1, 0.5f, x * 0.5f, 1);
    surf2Dwrite(v.x + w, s, x * 4, n);
    float r;
    surf2Dread(&r, s, x * 4, 1);
    out[x] = make_float4(v.x + g.y + q.z, w + k, r, g.w);
}
extern "C" __global__ void uniform_int64(long long *p, const long long *q, unsigned long long m, int n, int sh) {
    long long acc = 0;
    for (int k = 0; k < n; k++) {
        long long a = q[k * blockIdx.x];
        acc += a * (long long)m + (a >> sh) + (long long)((unsigned long long)a << 3) + __mul64hi(a, (long long)m)
             + (a / (long long)(n + 1)) + (long long)(m % (unsigned long long)(sh + 7)) + __popcll(a) + __clzll(a);
        acc ^= (acc << 7) | ((unsigned long long)acc >> 57);
    }
    p[threadIdx.x + blockIdx.y * blockDim.x] = acc + (long long)__umul64hi(m, (unsigned long long)n) + __funnelshift_l((unsigned)n, (unsigned)sh, sh);
}
