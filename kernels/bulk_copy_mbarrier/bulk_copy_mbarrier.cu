// Hopper bulk copies with mbarrier completion (sm_90): a 2-stage pipeline over `tiles` tiles of 256 floats. Thread 0
// arms the stage's mbarrier with arrive.expect_tx and issues cp.async.bulk global -> shared (completing on it); every
// thread waits on the phase parity with try_wait, transforms its 4 elements into a second buffer, and thread 0 writes
// the tile back with cp.async.bulk shared -> global (bulk_group, commit, wait_group.read) after fence.proxy.async.
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void load_tile(float* dst, const float* src, unsigned long long* bar) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(smem(bar)) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                 :: "r"(smem(dst)), "l"(src), "r"(smem(bar)) : "memory");
}

__device__ __forceinline__ void wait_phase(unsigned long long* bar, unsigned parity) {
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait;\n"
                 "}" :: "r"(smem(bar)), "r"(parity) : "memory");
}

extern "C" __global__ void bulk_copy_mbarrier(const float* in, float* out, int tiles) {
    __shared__ alignas(128) float buf[2][256];
    __shared__ alignas(128) float res[256];
    __shared__ alignas(8) unsigned long long bar[2];
    int t = threadIdx.x;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar[0])) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar[1])) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        load_tile(buf[0], in, &bar[0]);
    }
    __syncthreads();
    for (int k = 0; k < tiles; k++) {
        int s = k & 1;
        if (t == 0 && k + 1 < tiles) {
            load_tile(buf[s ^ 1], in + 256 * (k + 1), &bar[s ^ 1]);
        }
        wait_phase(&bar[s], (k >> 1) & 1);
        for (int i = 0; i < 4; i++) {
            res[4 * t + i] = buf[s][255 - (4 * t + i)] * 2.0f + (float)k;
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (t == 0) {
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;"
                         :: "l"(out + 256 * k), "r"(smem(res)) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        }
        __syncthreads();
    }
    if (t == 0) {
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(smem(&bar[0])) : "memory");
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(smem(&bar[1])) : "memory");
    }
}
