// Hopper's GEMM pipeline end to end (sm_90a): C (128 x 256, f32) = A (128 x 128, f16, row-major) B (128 x 256, f16,
// given transposed: row n of bt is column n of B). Block (bx, by) of the 2x2 grid computes the 64 x 128 tile at rows
// 64 by, columns 128 bx with one warpgroup. For each of the four 32-wide slices of K, thread 0 arms the mbarrier with
// the slice's 12 KiB and issues eight tensor copies (box 8 x 64 of A, 8 x 128 of bt: one 8-element K chunk of every
// row each, which lands as a column of 8x8 core matrices, the no-swizzle K-major layout wgmma reads); every thread
// waits on the barrier's phase, then two wgmma.mma_async m64n128k16 f32.f16.f16 accumulate into registers
// (descriptors: LBO = the K chunk's size, SBO = 128 bytes between 8-row groups). The accumulators go to shared memory
// row-major and thread 0 writes the tile with one tensor store. `a`, `bt` and `c` are the matrices the three tensor maps
// describe (the launch builds the maps from them).
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

// A K-major shared-memory matrix descriptor without swizzle: start, leading (K) and stride (8-row) byte offsets / 16.
__device__ __forceinline__ unsigned long long desc(unsigned addr, unsigned lbo, unsigned sbo) {
    return (unsigned long long)((addr & 0x3ffff) >> 4) | ((unsigned long long)(lbo >> 4) << 16)
            | ((unsigned long long)(sbo >> 4) << 32);
}

__device__ __forceinline__ void load_tile(unsigned dst, const void* map, int x, int y, unsigned bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory");
}

#define ACC8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
        "+f"(d[i + 6]), "+f"(d[i + 7])

__device__ __forceinline__ void wgmma_m64n128k16(float* d, unsigned long long da, unsigned long long db) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, 1, 1, 1, 0, 0;"
                 : ACC8(0), ACC8(8), ACC8(16), ACC8(24), ACC8(32), ACC8(40), ACC8(48), ACC8(56)
                 : "l"(da), "l"(db));
}

extern "C" __global__ void tma_wgmma_gemm(const void* a, const void* bt, float* c, const void* a_map,
                                          const void* bt_map, const void* c_map) {
    __shared__ alignas(1024) unsigned short as[4][64 * 8];
    __shared__ alignas(1024) unsigned short bs[4][128 * 8];
    __shared__ alignas(1024) float cs[64][128];
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
    for (int kb = 0; kb < 4; kb++) {
        if (t == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 12288;" :: "r"(smem(&bar)) : "memory");
            for (int c = 0; c < 4; c++) {
                load_tile(smem(as[c]), a_map, 32 * kb + 8 * c, m0, smem(&bar));
                load_tile(smem(bs[c]), bt_map, 32 * kb + 8 * c, n0, smem(&bar));
            }
        }
        asm volatile("{\n"
                     ".reg .pred done;\n"
                     "wait:\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                     "@!done bra wait;\n"
                     "}" :: "r"(smem(&bar)), "r"(kb & 1) : "memory");
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        for (int s = 0; s < 2; s++) {
            wgmma_m64n128k16(d, desc(smem(as[2 * s]), 1024, 128), desc(smem(bs[2 * s]), 2048, 128));
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        __syncthreads();
    }
    // accumulator fragment: warp w, lane l holds rows 16 w + l / 4 (+ 8), columns 8 i + 2 (l % 4) (+ 1)
    int w = t >> 5, l = t & 31;
    for (int i = 0; i < 16; i++) {
        int r = 16 * w + (l >> 2), c = 8 * i + 2 * (l & 3);
        cs[r][c] = d[4 * i];
        cs[r][c + 1] = d[4 * i + 1];
        cs[r + 8][c] = d[4 * i + 2];
        cs[r + 8][c + 1] = d[4 * i + 3];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(c_map), "r"(n0), "r"(m0), "r"(smem(cs)) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(smem(&bar)) : "memory");
    }
}
