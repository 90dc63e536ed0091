// Thread-block clusters (sm_90): one block signals another block's mbarrier. In each cluster of two, rank 0 writes
// its 64 values into rank 1's shared array (st.shared::cluster at the mapa address) and then arrives on rank 1's
// barrier remotely: threads 1..31 with one arrival each (.release.cluster), thread 0 with an expected transaction
// count (expect_tx 8, arrive.expect_tx 16) that it completes itself (complete_tx 24), and warp 1 through thread 32
// with a count of 32 after a __syncwarp. Rank 1 waits on its own barrier (try_wait.parity.acquire.cluster) and only
// then reads the array: without the remote arrivals it never gets past the wait.
extern "C" __global__ void __cluster_dims__(2, 1, 1)
cluster_remote_mbarrier(const int *in, int *out)
{
    __shared__ int buf[64];
    __shared__ __align__(8) unsigned long long bar;
    unsigned tid = threadIdx.x;
    unsigned rank;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    unsigned barAddr = (unsigned) __cvta_generic_to_shared(&bar);
    if (tid == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 64;" :: "r"(barAddr) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    unsigned cluster = blockIdx.x / 2;
    if (rank == 0) {
        unsigned remoteBuf, remoteBar;
        asm("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remoteBuf) : "r"((unsigned) __cvta_generic_to_shared(&buf[tid])));
        asm("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remoteBar) : "r"(barAddr));
        int v = in[cluster * 64 + tid] * 3 + 1;
        asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(remoteBuf), "r"(v) : "memory");
        if (tid == 0) {
            asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], 8;" :: "r"(remoteBar) : "memory");
            asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], 16;"
                         :: "r"(remoteBar) : "memory");
            asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], 24;" :: "r"(remoteBar) : "memory");
        } else if (tid < 32) {
            asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(remoteBar) : "memory");
        } else {
            __syncwarp();
            if (tid == 32) {
                asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], 32;"
                             :: "r"(remoteBar) : "memory");
            }
        }
    } else {
        unsigned done = 0;
        while (!done) {
            asm volatile("{\n\t.reg .pred p;\n\t"
                         "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0;\n\t"
                         "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(done) : "r"(barAddr) : "memory");
        }
        out[cluster * 64 + tid] = buf[tid] - (int) tid;
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
