// The TMA -> wgmma -> TMA GEMM as Triton and CUTLASS lay it out (sm_90a): 128-byte swizzled shared tiles. C (128 x 256,
// f32) = A (128 x 128, f16, row-major) B (128 x 256, f16, given transposed: row n of bt is column n of B). Block
// (bx, by) of the 2x2 grid computes the 64 x 128 tile at rows 64 by, columns 128 bx with one warpgroup. For each of
// the two 64-wide slices of K, thread 0 arms the mbarrier with the slice's 24 KiB and issues two tensor copies whose
// maps swizzle 128 bytes (box 64 x 64 of A, 64 x 128 of bt: one 128-byte row per matrix row, 16-byte chunks XORed
// with the row's index in its 8-row group); every thread waits on the barrier's phase, then four wgmma.mma_async
// m64n128k16 f32.f16.f16 accumulate into registers (descriptors: 128-byte swizzle, start advanced 32 bytes per K
// step, SBO 1024 bytes between 8-row groups). The accumulators leave in two 64-column halves through one 16 KiB
// shared buffer and a tensor store each. `a`, `bt` and `c` are the matrices the three tensor maps describe.
// Included by tma_wgmma_gemm_e4m3 with GEMM_FP8 defined: the same kernel on e4m3 bytes (wgmma m64n128k32
// f32.e4m3.e4m3, 128 K elements per 128-byte row, K 256).
#ifdef GEMM_FP8
#define GEMM_NAME tma_wgmma_gemm_e4m3
#define GEMM_SHAPE_TYPES "m64n128k32.f32.e4m3.e4m3"
#define GEMM_IMMEDIATES "1, 1, 1" // scale-d, scale-a, scale-b (fp8 operands are K-major: no transpose)
#define ROW_ELEMS 128
#else
#define GEMM_NAME tma_wgmma_gemm_sw128
#define ROW_ELEMS 64
#endif
#include "../tma_wgmma_gemm/tma_wgmma_gemm.cuh"

// A K-major shared-memory matrix descriptor with 128-byte swizzle: start / 16, LBO 16 bytes (unused), SBO / 16.
__device__ __forceinline__ unsigned long long desc128(unsigned addr) {
    return (unsigned long long)((addr & 0x3ffff) >> 4) | (1ull << 16) | ((unsigned long long)(1024 >> 4) << 32)
            | (1ull << 62);
}

extern "C" __global__ void GEMM_NAME(const void* a, const void* bt, float* c, const void* a_map,
                                     const void* bt_map, const void* c_map) {
    __shared__ alignas(1024) unsigned char as[64 * 128];
    __shared__ alignas(1024) unsigned char bs[128 * 128];
    __shared__ alignas(1024) float cs[64][64];
    __shared__ alignas(8) unsigned long long bar;
    int m0 = 64 * blockIdx.y, n0 = 128 * blockIdx.x;
    init_barrier(smem(&bar));
    float d[64] = {}; // the accumulators: every multiply adds to them
    for (int kb = 0; kb < 2; kb++) {
        if (threadIdx.x == 0) {
            expect_bytes(smem(&bar), 24576);
            load_tile(smem(as), a_map, ROW_ELEMS * kb, m0, smem(&bar));
            load_tile(smem(bs), bt_map, ROW_ELEMS * kb, n0, smem(&bar));
        }
        wait_phase(smem(&bar), kb & 1);
        wgmma_fence();
        for (int s = 0; s < 4; s++) {
            wgmma_m64n128(d, desc128(smem(as) + 32 * s), desc128(smem(bs) + 32 * s));
        }
        wgmma_commit_and_wait();
        __syncthreads();
    }
    for (int h = 0; h < 2; h++) {
        store_fragment(&cs[0][0], 64, d, 8 * h, 8);
        store_tile(c_map, n0 + 64 * h, m0, smem(cs));
    }
    finish(smem(&bar));
}
