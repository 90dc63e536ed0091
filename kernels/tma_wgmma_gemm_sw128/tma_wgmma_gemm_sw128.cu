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
#include <cstdint>

#ifdef GEMM_FP8
#define GEMM_NAME tma_wgmma_gemm_e4m3
#define GEMM_SHAPE_TYPES "m64n128k32.f32.e4m3.e4m3"
#define ROW_ELEMS 128
#define GEMM_IMMEDIATES "1, 1, 1" // scale-d, scale-a, scale-b (fp8 operands are K-major: no transpose)
#else
#define GEMM_NAME tma_wgmma_gemm_sw128
#define GEMM_SHAPE_TYPES "m64n128k16.f32.f16.f16"
#define ROW_ELEMS 64
#define GEMM_IMMEDIATES "1, 1, 1, 0, 0" // scale-d, scale-a, scale-b, transpose-a, transpose-b
#endif

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

// A K-major shared-memory matrix descriptor with 128-byte swizzle: start / 16, LBO 16 bytes (unused), SBO / 16.
__device__ __forceinline__ unsigned long long desc128(unsigned addr) {
    return (unsigned long long)((addr & 0x3ffff) >> 4) | (1ull << 16) | ((unsigned long long)(1024 >> 4) << 32)
            | (1ull << 62);
}

__device__ __forceinline__ void load_tile(unsigned dst, const void* map, int x, int y, unsigned bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory");
}

#define ACC8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
        "+f"(d[i + 6]), "+f"(d[i + 7])

__device__ __forceinline__ void wgmma_m64n128(float* d, unsigned long long da, unsigned long long db) {
    asm volatile("wgmma.mma_async.sync.aligned." GEMM_SHAPE_TYPES " "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, " GEMM_IMMEDIATES ";"
                 : ACC8(0), ACC8(8), ACC8(16), ACC8(24), ACC8(32), ACC8(40), ACC8(48), ACC8(56)
                 : "l"(da), "l"(db));
}

extern "C" __global__ void GEMM_NAME(const void* a, const void* bt, float* c, const void* a_map,
                                                const void* bt_map, const void* c_map) {
    __shared__ alignas(1024) unsigned char as[64 * 128];
    __shared__ alignas(1024) unsigned char bs[128 * 128];
    __shared__ alignas(1024) float cs[64][64];
    __shared__ alignas(8) unsigned long long bar;
    int t = threadIdx.x;
    int m0 = 64 * blockIdx.y, n0 = 128 * blockIdx.x;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    float d[64];
    for (int i = 0; i < 64; i++) {
        d[i] = 0.0f;
    }
    for (int kb = 0; kb < 2; kb++) {
        if (t == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 24576;" :: "r"(smem(&bar)) : "memory");
            load_tile(smem(as), a_map, ROW_ELEMS * kb, m0, smem(&bar));
            load_tile(smem(bs), bt_map, ROW_ELEMS * kb, n0, smem(&bar));
        }
        asm volatile("{\n"
                     ".reg .pred done;\n"
                     "wait:\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                     "@!done bra wait;\n"
                     "}" :: "r"(smem(&bar)), "r"(kb & 1) : "memory");
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        for (int s = 0; s < 4; s++) {
            wgmma_m64n128(d, desc128(smem(as) + 32 * s), desc128(smem(bs) + 32 * s));
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        __syncthreads();
    }
    // accumulator fragment: warp w, lane l holds rows 16 w + l / 4 (+ 8), columns 8 i + 2 (l % 4) (+ 1)
    int w = t >> 5, l = t & 31;
    for (int h = 0; h < 2; h++) {
        for (int i = 8 * h; i < 8 * h + 8; i++) {
            int r = 16 * w + (l >> 2), col = 8 * i + 2 * (l & 3) - 64 * h;
            cs[r][col] = d[4 * i];
            cs[r][col + 1] = d[4 * i + 1];
            cs[r + 8][col] = d[4 * i + 2];
            cs[r + 8][col + 1] = d[4 * i + 3];
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (t == 0) {
            asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                         :: "l"(c_map), "r"(n0 + 64 * h), "r"(m0), "r"(smem(cs)) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        }
        __syncthreads();
    }
    if (t == 0) {
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(smem(&bar)) : "memory");
    }
}
