// Pieces shared by the TMA -> wgmma -> TMA GEMM kernels (tma_wgmma_gemm, tma_wgmma_gemm_sw128, tma_wgmma_gemm_e4m3):
// tensor loads completing on an mbarrier, the phase wait, the m64n128 multiply (GEMM_SHAPE_TYPES and GEMM_IMMEDIATES
// choose the types; f16 by default) and the accumulator fragment's way into a row-major shared tile.
#include <cstdint>

#ifndef GEMM_SHAPE_TYPES
#define GEMM_SHAPE_TYPES "m64n128k16.f32.f16.f16"
#define GEMM_IMMEDIATES "1, 1, 1, 0, 0" // scale-d, scale-a, scale-b, transpose-a, transpose-b
#endif

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void load_tile(unsigned dst, const void* map, int x, int y, unsigned bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory");
}

// Thread 0 sets the barrier up for one arrival; the block waits until it is.
__device__ __forceinline__ void init_barrier(unsigned bar) {
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
}

__device__ __forceinline__ void expect_bytes(unsigned bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void wait_phase(unsigned bar, int parity) {
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait;\n"
                 "}" :: "r"(bar), "r"(parity) : "memory");
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

// Columns [8 first, 8 (first + count)) of the accumulator fragment into the row-major shared tile cs (ld floats a
// row, column 8 first at 0): warp w, lane l holds rows 16 w + l / 4 (+ 8), columns 8 i + 2 (l % 4) (+ 1).
__device__ __forceinline__ void store_fragment(float* cs, int ld, const float* d, int first, int count) {
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    for (int i = first; i < first + count; i++) {
        int r = 16 * w + (l >> 2), col = 8 * (i - first) + 2 * (l & 3);
        cs[r * ld + col] = d[4 * i];
        cs[r * ld + col + 1] = d[4 * i + 1];
        cs[(r + 8) * ld + col] = d[4 * i + 2];
        cs[(r + 8) * ld + col + 1] = d[4 * i + 3];
    }
}

// Thread 0 writes the shared tile at src to the tensor at (x, y) once the block's writes are visible to the copy.
__device__ __forceinline__ void store_tile(const void* map, int x, int y, unsigned src) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                     :: "l"(map), "r"(x), "r"(y), "r"(src) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    __syncthreads();
}

// The group of multiplies the warpgroup issues between wgmma.fence and the wait that makes their results land.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }

__device__ __forceinline__ void wgmma_commit_and_wait() {
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
}

// Thread 0 waits for the tensor stores' writes and retires the barrier.
__device__ __forceinline__ void finish(unsigned bar) {
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(bar) : "memory");
    }
}
