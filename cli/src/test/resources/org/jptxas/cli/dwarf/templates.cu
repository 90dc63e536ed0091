#include <cooperative_groups.h>
#include <cuda_bf16.h>
namespace cg = cooperative_groups;
template<typename T, int N, bool B> struct Box { T v[N]; static constexpr bool flag = B; __device__ T sum() const { T s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; } };
template<int K> __device__ int scaled(int x) { return x * K; }
extern __device__ int ext_fn(int);
__device__ int ext_fn(int q) { return q ^ 7; }
__global__ void k11(Box<float, 3, true> b, __nv_bfloat16 *bf, __int128 *w, const __grid_constant__ int gc) {
  auto g = cg::this_thread_block();
  auto f = [&](int z) { return z + gc; };
  static __shared__ int sflag;
  if (g.thread_rank() == 0) sflag = scaled<3>(f(1)) + ext_fn(2);
  g.sync();
  w[0] = w[1] * (__int128)sflag;
  bf[0] = __float2bfloat16(b.sum() + __bfloat162float(bf[1]));
}
