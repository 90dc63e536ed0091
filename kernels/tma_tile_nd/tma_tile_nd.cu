// Hopper tensor-memory-access copies of ranks 3, 4 and 5 (sm_90): one 576-float tensor `in`, viewed through three
// tensor maps as 12x4x12, 12x4x3x4 and 12x4x3x2x2 (dimension 0 fastest). Block r (r = 0, 1, 2) loads one
// 64-element box through the rank-(r + 3) map at coordinates partly out of bounds (one of them negative: those
// elements arrive as zeros), waits on the mbarrier its 256 bytes complete, writes 2 v + r to out[64 r + t], and
// stores the same values back through a tensor map of the same shape over `back` (out-of-bounds elements are not
// written; the launch zeroes `back`, and each block writes its own elements of it, apart from the others').
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

extern "C" __global__ void tma_tile_nd(const float* in, float* back, const void* in3, const void* in4,
                                       const void* in5, const void* back3, const void* back4, const void* back5,
                                       float* out) {
    __shared__ alignas(128) float tile[64];
    __shared__ alignas(128) float res[64];
    __shared__ alignas(8) unsigned long long bar;
    int t = threadIdx.x;
    int r = blockIdx.x;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" :: "r"(smem(&bar)) : "memory");
        if (r == 0) {
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5];"
                         :: "r"(smem(tile)), "l"(in3), "r"(8), "r"(3), "r"(10), "r"(smem(&bar)) : "memory");
        } else if (r == 1) {
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5}], [%6];"
                         :: "r"(smem(tile)), "l"(in4), "r"(10), "r"(0), "r"(2), "r"(-1), "r"(smem(&bar))
                         : "memory");
        } else {
            asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                         :: "r"(smem(tile)), "l"(in5), "r"(-1), "r"(3), "r"(1), "r"(1), "r"(0), "r"(smem(&bar))
                         : "memory");
        }
    }
    __syncthreads(); // the copy is issued before any thread of the warp spins on the barrier
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 "@!done bra wait;\n"
                 "}" :: "r"(smem(&bar)) : "memory");
    float v = tile[t] * 2.0f + (float)r;
    out[64 * r + t] = v;
    res[t] = v;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        if (r == 0) {
            asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];"
                         :: "l"(back3), "r"(8), "r"(3), "r"(10), "r"(smem(res)) : "memory");
        } else if (r == 1) {
            asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%1, %2, %3, %4}], [%5];"
                         :: "l"(back4), "r"(10), "r"(0), "r"(2), "r"(-1), "r"(smem(res)) : "memory");
        } else {
            asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];"
                         :: "l"(back5), "r"(-1), "r"(3), "r"(1), "r"(1), "r"(0), "r"(smem(res)) : "memory");
        }
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(smem(&bar)) : "memory");
    }
}
