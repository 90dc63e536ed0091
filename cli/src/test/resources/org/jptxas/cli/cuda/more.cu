// More ordinary CUDA kernels of the kinds users write: atomics of each type, bit tricks, conversions with
// rounding modes, cooperative groups, templates, dynamic shared memory, recursion, switch, local arrays, printf.
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

extern "C" __global__ void atomics_all(int* i32, unsigned* u32, unsigned long long* u64, float* f32, double* f64,
                                       __half2* h2, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  atomicAdd(&i32[0], t); atomicSub(&i32[1], t); atomicMax(&i32[2], t * 7 - 100); atomicMin(&i32[3], 50 - t);
  atomicAnd(&u32[0], ~(1u << (t & 31))); atomicOr(&u32[1], 1u << (t & 31)); atomicXor(&u32[2], (unsigned)t * 2654435761u);
  atomicInc(&u32[3], 17u); atomicDec(&u32[4], 9u); atomicExch(&u32[5], 5u);
  atomicAdd(&u64[0], (unsigned long long)t << 33); atomicMax(&u64[1], (unsigned long long)t * 12345ull);
  atomicCAS(&u64[2], 0ull, 7ull); // every thread the same value: the result cannot depend on order
  atomicAdd(&f32[0], 0.5f); atomicAdd(&f64[0], 0.25);
  atomicAdd(&h2[0], __floats2half2_rn(1.0f, 2.0f));
}

extern "C" __global__ void cas_loop_fmax(const float* x, float* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int* addr = (int*)out; int old = *addr, assumed;
  do { assumed = old; old = atomicCAS(addr, assumed, __float_as_int(fmaxf(x[t], __int_as_float(assumed)))); }
  while (assumed != old);
}

extern "C" __global__ void bit_tricks(const unsigned* a, unsigned* b, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  unsigned v = a[t], w = a[(t + 1) % n];
  unsigned long long l = ((unsigned long long)w << 32) | v;
  b[8 * t + 0] = __popc(v) + __popcll(l);
  b[8 * t + 1] = __clz(v) + __clzll(l);
  b[8 * t + 2] = __brev(v) ^ (unsigned)__brevll(l);
  b[8 * t + 3] = __byte_perm(v, w, 0x5140) + __byte_perm(v, w, t & 0x7777);
  b[8 * t + 4] = __funnelshift_l(v, w, t) ^ __funnelshift_r(v, w, t) ^ __funnelshift_lc(v, w, t) ^ __funnelshift_rc(v, w, t);
  b[8 * t + 5] = __ffs(v) + __ffsll(l) + __usad(v & 255, w & 255, 3) + __vabsdiffu4(v, w);
  b[8 * t + 6] = __umulhi(v, w) + (unsigned)__mulhi((int)v, (int)w) + (unsigned)(__umul64hi(l, l ^ 0x9e3779b97f4a7c15ull));
  b[8 * t + 7] = __uhadd(v, w) + __urhadd(v, w) + __vadd4(v, w) + __vcmpgtu4(v, w);
}

extern "C" __global__ void conversions(const float* f, const double* d, int* o, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = f[t]; double y = d[t];
  o[16 * t + 0] = __float2int_rn(x); o[16 * t + 1] = __float2int_rz(x);
  o[16 * t + 2] = __float2int_ru(x); o[16 * t + 3] = __float2int_rd(x);
  o[16 * t + 4] = (int)__float2uint_rn(fabsf(x)); o[16 * t + 5] = __double2int_rn(y);
  o[16 * t + 6] = (int)__double2ll_rz(y * 1e6); o[16 * t + 7] = __float_as_int(__int2float_rn(t * 1234567));
  o[16 * t + 8] = __float_as_int(__uint2float_rz(0xffffff01u - t)); o[16 * t + 9] = __float_as_int(__double2float_rn(y));
  o[16 * t + 10] = __float_as_int(__double2float_ru(y)); o[16 * t + 11] = __float_as_int(__double2float_rd(y));
  o[16 * t + 12] = __float_as_int(__ll2float_rn(0x123456789abcll * t)); o[16 * t + 13] = (int)__double2hiint(__ll2double_rn(-t * 0x10000000001ll));
  o[16 * t + 14] = __half_as_ushort(__float2half_rn(x)) | (__half_as_ushort(__float2half_rz(x)) << 16);
  o[16 * t + 15] = (int)(signed char)(x * 10) + (int)(unsigned short)(y * 100);
}

extern "C" __global__ void float_more(const float* a, float* b, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float v = a[t];
  b[4 * t + 0] = sinf(v) * expf(-v * v) + logf(1.0f + v * v);
  b[4 * t + 1] = powf(fabsf(v) + 0.5f, 1.7f) + erff(v) + erfcf(v);
  b[4 * t + 2] = __fdividef(v, 3.0f) + rsqrtf(fabsf(v) + 1) + __saturatef(v) + fmaf(v, v, 1.0f) + copysignf(2.0f, v);
  b[4 * t + 3] = atan2f(v, 1.5f) + floorf(v) + ceilf(v) + truncf(v) + rintf(v) + roundf(v) + exp2f(v) + log2f(fabsf(v) + 1);
}

extern "C" __global__ void double_more(const double* a, double* b, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  double v = a[t];
  b[3 * t + 0] = pow(v, 1.5) + cbrt(v) + fma(v, v, -1.0);
  b[3 * t + 1] = v / (v + 1.0) + 1.0 / v + floor(v) + fmod(v, 0.7);
  b[3 * t + 2] = atan(v) + tanh(v) + log1p(v) + expm1(-v);
}

extern "C" __global__ void div64(const long long* a, const unsigned long long* b, long long* q, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  long long x = a[t]; unsigned long long y = b[t] | 1;
  q[4 * t + 0] = x / (long long)(y >> 20 | 1); q[4 * t + 1] = x % 1000000007ll;
  q[4 * t + 2] = (long long)(y / 12345ull); q[4 * t + 3] = (long long)((unsigned long long)x % y);
}

extern "C" __global__ void half2_math(const __half2* a, const __half2* b, __half2* c, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  __half2 x = a[t], y = b[t];
  __half2 r = __hfma2(x, y, __hadd2(x, y));
  r = __hmul2(r, __hsub2(x, __float2half2_rn(0.25f)));
  r = __hmax2(r, __hneg2(y));
  c[t] = __hadd2(r, __hmul2_sat(x, y));
}

extern "C" __global__ void vote_match(const int* a, unsigned* o, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = t < n ? a[t] : 0;
  unsigned b = __ballot_sync(~0u, v > 0);
  int all = __all_sync(~0u, v != 12345), any = __any_sync(~0u, v == 3);
  unsigned m = __match_any_sync(~0u, v & 3);
  int pred; unsigned ma = __match_all_sync(~0u, v & 0, &pred);
  unsigned act = __activemask();
  if (t < n) { o[4 * t] = b; o[4 * t + 1] = all + 2 * any + 4 * pred; o[4 * t + 2] = m ^ ma; o[4 * t + 3] = __popc(act); }
}

extern "C" __global__ void coop_reduce(const int* x, int* out, int n) {
  cg::thread_block blk = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(tile);
  int q = quad.shfl(v, 0) + quad.thread_rank();
  blk.sync();
  if (tile.thread_rank() == 0) atomicAdd(out, v);
  if (i < n) atomicAdd(out + 1, q & 1);
}

template <typename T, int B>
__device__ void block_sum(const T* x, T* out, int n) {
  extern __shared__ unsigned char dyn[];
  T* s = reinterpret_cast<T*>(dyn);
  int t = threadIdx.x; T v = 0;
  for (int i = blockIdx.x * B + t; i < n; i += gridDim.x * B) v += __ldg(&x[i]);
  s[t] = v; __syncthreads();
  #pragma unroll
  for (int k = B / 2; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}
extern "C" __global__ void dyn_sum_i(const int* x, int* out, int n) { block_sum<int, 128>(x, out, n); }
extern "C" __global__ void dyn_sum_d(const double* x, double* out, int n) { block_sum<double, 64>(x, out, n); }

extern "C" __global__ void volatile_flag(volatile int* flag, int* out) {
  __shared__ volatile int s[64];
  int t = threadIdx.x; s[t] = t * 3; __syncthreads();
  if (t < 32) { s[t] += s[t + 32]; s[t] += s[t + 16]; }
  if (t == 0) { *flag = s[0]; __threadfence(); out[0] = *flag; }
}

__device__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }
extern "C" __global__ void recursion(int* o) { o[threadIdx.x] = fib(threadIdx.x % 12); }

extern "C" __global__ void switch_local(const int* a, int* o, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int loc[16];
  for (int i = 0; i < 16; i++) loc[i] = a[(t + i) % n] * i;
  int r;
  switch (a[t] & 7) {
    case 0: r = loc[a[t] & 15]; break;
    case 1: r = loc[3] + 7; break;
    case 2: r = -loc[(t * 5) & 15]; break;
    case 3: r = loc[15] ^ 0x55; break;
    case 5: r = loc[1] << 2; break;
    case 6: r = t; break;
    default: r = 42;
  }
  o[t] = r;
}

extern "C" __global__ void print_hello(int x) { if (threadIdx.x == 0) printf("block %d x=%d %f\n", blockIdx.x, x, 1.5); }
