#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>
using namespace nvcuda;
namespace cg = cooperative_groups;
__global__ void texk(cudaTextureObject_t t, cudaSurfaceObject_t s, float* out) {
    float v = tex2D<float>(t, threadIdx.x + 0.5f, blockIdx.x + 0.5f);
    float4 w = tex1Dfetch<float4>(t, threadIdx.x);
    surf2Dwrite(v + w.x, s, threadIdx.x * 4, blockIdx.x);
    out[threadIdx.x] = v;
}
__global__ void wmmak(const half* a, const half* b, float* c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void gridk(int* data, int n) {
    cg::grid_group g = cg::this_grid();
    for (int i = g.thread_rank(); i < n; i += g.size()) atomicAdd(&data[i % 7], 1);
    g.sync();
    __half2 h = __floats2half2_rn(1.0f, 2.0f);
    __nv_bfloat16 bf = __float2bfloat16(3.0f);
    atomicAdd((__half2*)data, h);
    data[0] += (int)__bfloat162float(bf) + __popc(data[1]) + __clz(data[2]) + __brev(data[3]);
    __nanosleep(100);
    unsigned m = __match_any_sync(0xffffffff, data[4]);
    data[5] = __reduce_add_sync(0xffffffff, m);
}
__global__ void pipek(const int4* g, int4* out) {
    __shared__ int4 s[128];
    __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(int4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[threadIdx.x] = s[127 - threadIdx.x];
}
__device__ double dfun(double x) { return sin(x) * exp(x) + pow(x, 2.5) + erf(x); }
__global__ void mathk(double* d, float* f) {
    d[threadIdx.x] = dfun(d[threadIdx.x]);
    f[threadIdx.x] = __sinf(f[threadIdx.x]) + rsqrtf(f[threadIdx.x]) + fmaf(1.f, 2.f, f[0]) + __fdividef(1.f, f[1]);
    unsigned long long x = clock64(); d[0] += (double)x + __ddiv_rn(1.0, 3.0);
}
