// Thread-block clusters (sm_90): generic pointers into a block's own shared memory in a cluster launch, where a
// shared address carries the block's rank. Each block fills its shared array, then every thread updates its element
// through a generic pointer (chosen at run time between shared and global memory, so the access stays generic),
// records getctarank of that pointer (its own block's rank) and reads the element back through ld.shared::cluster at
// the plain shared address (no mapa: the executing block). After a cluster barrier each block reads its neighbour's
// array through the generic pointer mapa gives; a second cluster barrier keeps the arrays alive until all have read.
#include <cooperative_groups.h>

extern "C" __global__ void __cluster_dims__(2, 1, 1)
cluster_generic_shared(const int *in, int *scratch, int *out, unsigned *ranks, int useShared)
{
    __shared__ int buf[64];
    unsigned tid = threadIdx.x;
    unsigned rank;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    buf[tid] = in[blockIdx.x * 64 + tid];
    __syncthreads();
    int *p = useShared ? &buf[tid] : &scratch[blockIdx.x * 64 + tid];
    *p += 1000 * (int) (rank + 1);
    unsigned owner;
    asm volatile("getctarank.u64 %0, %1;" : "=r"(owner) : "l"(p));
    unsigned window = (unsigned) __cvta_generic_to_shared(p);
    int own;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(own) : "r"(window) : "memory");
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    int *neighbour = cooperative_groups::this_cluster().map_shared_rank(&buf[tid], (rank + 1) % 2);
    int theirs = *neighbour;
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    out[2 * (blockIdx.x * 64 + tid)] = own;
    out[2 * (blockIdx.x * 64 + tid) + 1] = theirs;
    ranks[blockIdx.x * 64 + tid] = owner;
}
