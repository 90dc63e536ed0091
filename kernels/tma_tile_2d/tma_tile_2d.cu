// Hopper tensor-memory-access copies (sm_90): each block loads one 16x8 tile of a 40x48 float matrix with
// cp.async.bulk.tensor.2d (the tensor map, in global memory, describes the matrix; columns past 40 are out of bounds
// and arrive as zeros), waits on the mbarrier whose transaction count the copy completes, writes v*3+block as plain
// stores of the whole 48x48 grid of tiles, and writes the same values back through a second tensor map with
// cp.async.bulk.tensor.2d.global.shared::cta.bulk_group (the out-of-bounds columns are not written). `in` and `back`
// are the matrices the two tensor maps describe (the launch builds the maps from them).
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

extern "C" __global__ void tma_tile_2d(const float* in, float* back, const void* in_map, const void* back_map,
                                       float* out) {
    __shared__ alignas(128) float tile[8][16];
    __shared__ alignas(128) float res[8][16];
    __shared__ alignas(8) unsigned long long bar;
    int t = threadIdx.x;
    int x = 16 * blockIdx.x, y = 8 * blockIdx.y;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 512;" :: "r"(smem(&bar)) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     :: "r"(smem(tile)), "l"(in_map), "r"(x), "r"(y), "r"(smem(&bar)) : "memory");
    }
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 "@!done bra wait;\n"
                 "}" :: "r"(smem(&bar)) : "memory");
    int r = t >> 4, c = t & 15;
    float v = tile[r][c] * 3.0f + (float)(blockIdx.y * gridDim.x + blockIdx.x);
    out[(y + r) * (16 * gridDim.x) + x + c] = v;
    res[r][c] = v;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(back_map), "r"(x), "r"(y), "r"(smem(res)) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(smem(&bar)) : "memory");
    }
}
