// Probe kernel: sm_90 features (clusters, distributed shared memory, async copies, mbarrier, fences).
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_ops(int *out, const int *in) {
    __shared__ int buf[256];
    __shared__ int stage[256];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned r = cluster.block_rank();
    __pipeline_memcpy_async(&stage[threadIdx.x], &in[threadIdx.x + blockIdx.x * 256], sizeof(int));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    buf[threadIdx.x] = stage[threadIdx.x] + (int)r;
    cluster.sync();
    int *peer = cluster.map_shared_rank(buf, r ^ 1);
    int v = peer[(threadIdx.x + 1) & 255];
    cluster.sync();
    out[threadIdx.x + blockIdx.x * 256] = v + (int)cluster.num_blocks() + (int)cluster.dim_blocks().x;
}
