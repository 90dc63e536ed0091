// The 128-byte swizzled TMA -> wgmma -> TMA GEMM on fp8 (sm_90a): C (128 x 256, f32) = A (128 x 256, e4m3,
// row-major) B (256 x 256, e4m3, given transposed as bt), wgmma m64n128k32 f32.e4m3.e4m3 (QGMMA). The kernel is
// tma_wgmma_gemm_sw128's with one-byte elements: a 128-byte shared row holds 128 K elements, so the two K slices
// cover K 256, and each 32-byte descriptor step is one k32 multiply.
#define GEMM_FP8
#include "../tma_wgmma_gemm_sw128/tma_wgmma_gemm_sw128.cu"
