#include <cuda_fp16.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Half precision, vector loads, 64-bit math, printf, a local array and a cluster launch bound.
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128, 2) mixed(const __half2* a, float4* b, long long* c, int n) {
    cg::cluster_group cluster = cg::this_cluster();
    int local[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 8; ++k) local[k] = i * k;
    if (i < n) {
        float2 f = __half22float2(a[i]);
        float4 v = b[i];
        v.x += f.x; v.y *= f.y; v.z = sqrtf(v.z); v.w = __expf(v.w);
        b[i] = v;
        c[i] = (long long)i * 1234567890123LL + local[i & 7] + (long long)cluster.block_rank();
        if (i == 0) printf("n=%d %f\n", n, v.x);
    }
    cluster.sync();
}
