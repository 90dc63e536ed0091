// Hopper's GEMM pipeline end to end (sm_90a): C (128 x 256, f32) = A (128 x 128, f16, row-major) B (128 x 256, f16,
// given transposed: row n of bt is column n of B). Block (bx, by) of the 2x2 grid computes the 64 x 128 tile at rows
// 64 by, columns 128 bx with one warpgroup. For each of the four 32-wide slices of K, thread 0 arms the mbarrier with
// the slice's 12 KiB and issues eight tensor copies (box 8 x 64 of A, 8 x 128 of bt: one 8-element K chunk of every
// row each, which lands as a column of 8x8 core matrices, the no-swizzle K-major layout wgmma reads); every thread
// waits on the barrier's phase, then two wgmma.mma_async m64n128k16 f32.f16.f16 accumulate into registers
// (descriptors: LBO = the K chunk's size, SBO = 128 bytes between 8-row groups). The accumulators go to shared memory
// row-major and thread 0 writes the tile with one tensor store. `a`, `bt` and `c` are the matrices the three tensor maps
// describe (the launch builds the maps from them).
#include "tma_wgmma_gemm.cuh"

// A K-major shared-memory matrix descriptor without swizzle: start, leading (K) and stride (8-row) byte offsets / 16.
__device__ __forceinline__ unsigned long long desc(unsigned addr, unsigned lbo, unsigned sbo) {
    return (unsigned long long)((addr & 0x3ffff) >> 4) | ((unsigned long long)(lbo >> 4) << 16)
            | ((unsigned long long)(sbo >> 4) << 32);
}

extern "C" __global__ void tma_wgmma_gemm(const void* a, const void* bt, float* c, const void* a_map,
                                          const void* bt_map, const void* c_map) {
    __shared__ alignas(1024) unsigned short as[4][64 * 8];
    __shared__ alignas(1024) unsigned short bs[4][128 * 8];
    __shared__ alignas(1024) float cs[64][128];
    __shared__ alignas(8) unsigned long long bar;
    int m0 = 64 * blockIdx.y, n0 = 128 * blockIdx.x;
    init_barrier(smem(&bar));
    float d[64] = {}; // the accumulators: every multiply adds to them
    for (int kb = 0; kb < 4; kb++) {
        if (threadIdx.x == 0) {
            expect_bytes(smem(&bar), 12288);
            for (int c = 0; c < 4; c++) {
                load_tile(smem(as[c]), a_map, 32 * kb + 8 * c, m0, smem(&bar));
                load_tile(smem(bs[c]), bt_map, 32 * kb + 8 * c, n0, smem(&bar));
            }
        }
        wait_phase(smem(&bar), kb & 1);
        wgmma_fence();
        for (int s = 0; s < 2; s++) {
            wgmma_m64n128(d, desc(smem(as[2 * s]), 1024, 128), desc(smem(bs[2 * s]), 2048, 128));
        }
        wgmma_commit_and_wait();
        __syncthreads();
    }
    store_fragment(&cs[0][0], 128, d, 0, 16);
    store_tile(c_map, n0, m0, smem(cs));
    finish(smem(&bar));
}
