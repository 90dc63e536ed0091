// Thread-block clusters (sm_90): each block of a 4-block cluster reduces its 128 ints into shared memory; after a
// cluster barrier, rank 0 sums the blocks' partials through distributed shared memory (mapa + ld.shared::cluster),
// while the other ranks add theirs into rank 0's accumulator (atom.shared::cluster); a second cluster barrier keeps
// every block's shared memory alive until rank 0 is done. Each block also records its cluster special registers.
extern "C" __global__ void __cluster_dims__(4, 1, 1)
cluster_reduce_dsmem(const int *in, int *sums, unsigned *ids)
{
    __shared__ int part[128];
    __shared__ int acc;
    unsigned tid = threadIdx.x;
    unsigned rank, nrank, cid, ctaid, explicitCluster;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(ctaid));
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(explicitCluster));
    part[tid] = in[blockIdx.x * 128 + tid];
    if (tid == 0) {
        acc = 0;
    }
    __syncthreads();
    for (unsigned s = 64; s > 0; s >>= 1) {
        if (tid < s) {
            part[tid] += part[tid + s];
        }
        __syncthreads();
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    unsigned local = (unsigned) __cvta_generic_to_shared(&part[0]);
    unsigned accLocal = (unsigned) __cvta_generic_to_shared(&acc);
    if (tid == 0) {
        if (rank == 0) {
            int sum = 0;
            for (unsigned r = 0; r < nrank; r++) {
                unsigned remote;
                int v;
                asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(r));
                asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
                sum += v;
            }
            sums[2 * cid] = sum;
        } else {
            unsigned remote;
            asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(accLocal), "r"(0));
            asm volatile("red.shared::cluster.add.u32 [%0], %1;" :: "r"(remote), "r"(part[0]) : "memory");
        }
    }
    ids[blockIdx.x] = rank | ctaid << 4 | nrank << 8 | cid << 16 | explicitCluster << 24;
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (tid == 0 && rank == 0) {
        sums[2 * cid + 1] = acc + part[0];
    }
}
