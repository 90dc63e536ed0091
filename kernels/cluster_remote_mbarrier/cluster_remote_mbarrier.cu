// Thread-block clusters (sm_90): one block signals another block's mbarrier. In each cluster of two, rank 0 writes
// its 64 values into rank 1's shared array (st.shared::cluster at the mapa address) and then arrives on rank 1's
// barrier remotely: threads 1..31 with one arrival each (.release.cluster), thread 0 with an expected transaction
// count (expect_tx 8, arrive.expect_tx 16) that it completes itself (complete_tx 24), and warp 1 through thread 32
// with a count of 32 after a __syncwarp. Rank 1 waits on its own barrier (try_wait.parity.acquire.cluster) and only
// then reads the array: without the remote arrivals it never gets past the wait. A second barrier of rank 1 expects
// 768 bytes (arrive.expect_tx before the cluster barrier); rank 0's threads complete them with st.async.v2 of
// {3 * in[i] - 7, i} into rank 1's pairs array (512 bytes) and red.async.add of in[i] into rank 1's sum (256 bytes).
extern "C" __global__ void __cluster_dims__(2, 1, 1)
cluster_remote_mbarrier(const int *in, int *out, int *pairs, int *sums)
{
    __shared__ int buf[64];
    __shared__ __align__(8) int buf2[128];
    __shared__ int acc;
    __shared__ __align__(8) unsigned long long bar;
    __shared__ __align__(8) unsigned long long bar2;
    unsigned tid = threadIdx.x;
    unsigned rank;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    unsigned barAddr = (unsigned) __cvta_generic_to_shared(&bar);
    unsigned bar2Addr = (unsigned) __cvta_generic_to_shared(&bar2);
    if (tid == 0) {
        acc = 0;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 64;" :: "r"(barAddr) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar2Addr) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 768;" :: "r"(bar2Addr) : "memory");
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
        unsigned remotePair, remoteAcc, remoteBar2;
        asm("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remotePair) : "r"((unsigned) __cvta_generic_to_shared(&buf2[2 * tid])));
        asm("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remoteAcc) : "r"((unsigned) __cvta_generic_to_shared(&acc)));
        asm("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remoteBar2) : "r"(bar2Addr));
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.s32 [%0], {%1, %2}, [%3];"
                     :: "r"(remotePair), "r"(v - 8), "r"(cluster * 64 + tid), "r"(remoteBar2) : "memory");
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
                     :: "r"(remoteAcc), "r"(in[cluster * 64 + tid]), "r"(remoteBar2) : "memory");
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
        done = 0;
        while (!done) {
            asm volatile("{\n\t.reg .pred p;\n\t"
                         "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0;\n\t"
                         "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(done) : "r"(bar2Addr) : "memory");
        }
        pairs[2 * (cluster * 64 + tid)] = buf2[2 * tid];
        pairs[2 * (cluster * 64 + tid) + 1] = buf2[2 * tid + 1];
        if (tid == 0) {
            sums[cluster] = acc;
        }
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
