// Probe kernel: atomics, reductions, warp-level ops, barriers.
#include <cuda_fp16.h>
extern "C" __global__ void atomics_warp(int *gi, unsigned *gu, float *gf, double *gd, unsigned long long *gl, int n) {
    __shared__ int si[256];
    __shared__ float sf[256];
    int t = threadIdx.x;
    si[t] = t; sf[t] = t * 0.5f;
    __syncthreads();
    atomicAdd(&gi[t & 7], t);
    atomicSub(&gi[8], 1);
    atomicExch(&gi[9], t);
    atomicMin(&gi[10], t); atomicMax(&gi[11], t);
    atomicAnd(&gu[0], t); atomicOr(&gu[1], t); atomicXor(&gu[2], t);
    atomicInc(&gu[3], 17u); atomicDec(&gu[4], 9u);
    int old = atomicCAS(&gi[12], t, t + 1);
    atomicAdd(&gf[0], 1.5f);
    atomicAdd(&gd[0], 2.5);
    atomicAdd(gl, 3ull);
    atomicCAS(gl + 1, 1ull, (unsigned long long)old);
    atomicAdd(&si[(t * 7) & 255], 3);
    atomicAdd(&sf[(t * 5) & 255], 1.0f);
    atomicMax(&si[1], old);
    unsigned m = __activemask();
    int v = __shfl_sync(m, old, 3);
    v += __shfl_up_sync(m, v, 1);
    v += __shfl_down_sync(m, v, 2);
    v += __shfl_xor_sync(m, v, 4);
    v += __ballot_sync(m, v > 3);
    v += __any_sync(m, v > 5) + __all_sync(m, v < 7);
    v += __popc(v) + __clz(v) + __ffs(v) + __brev(v);
    v += __match_any_sync(m, v);
    int pred;
    v += __match_all_sync(m, v, &pred);
#if __CUDA_ARCH__ >= 800
    v += __reduce_add_sync(m, v) + __reduce_min_sync(m, v) + __reduce_max_sync(m, v);
    v += __reduce_and_sync(m, (unsigned)v) + __reduce_or_sync(m, (unsigned)v) + __reduce_xor_sync(m, (unsigned)v);
#endif
    __syncwarp(m);
    __threadfence(); __threadfence_block(); __threadfence_system();
    v += __syncthreads_count(v > 0) + __syncthreads_and(v > 1) + __syncthreads_or(v > 2);
    gi[100 + t] = v + si[(t + 1) & 255] + (int)sf[t];
    long long c = clock64();
    gl[2 + t] = c;
}
