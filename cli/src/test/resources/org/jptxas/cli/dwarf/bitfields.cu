#include <cuda_fp16.h>
struct Base { int b; __device__ virtual int f() { return b; } };
struct Der : Base { float q; __device__ int f() override { return b + (int)q; } };
struct Bits { unsigned a : 3; unsigned b : 5; int c : 7; };
typedef float vec_t __attribute__((ext_vector_type(2)));
namespace outer { namespace inner { template<int N> struct Arr { int v[N]; }; } }
__device__ volatile int vflag;
__device__ __forceinline__ float lerp(float a, float b, float t) { return a + t * (b - a); }
__global__ void k6(const float * __restrict__ in, float4 *o4, __half *h, Bits *bits, outer::inner::Arr<5> arr, double2 d2, char4 c4, long long ll, unsigned short us) {
  int tid = threadIdx.x;
  float4 v = o4[tid];
  __half hv = h[tid];
  __half2 h2 = __halves2half2(hv, hv);
  Bits bb = bits[tid];
  float (*fp)(float, float, float) = lerp;
  v.x = fp(in[tid], v.y, 0.5f) + __half2float(__low2half(h2)) + bb.a + bb.c + arr.v[tid % 5] + d2.x + c4.w + ll + us;
  o4[tid] = v;
  vflag = 1;
  h[tid] = __hadd(hv, hv);
}
__global__ void k7(Der *d, int *r) { r[0] = d->f(); }
__device__ int arr2d[3][4];
__global__ void k8(int n, unsigned long long *res) {
  __shared__ double sd[32][2];
  unsigned long long acc = 0;
  for (int i = 0; i < n; i++) { sd[i & 31][i & 1] = i; acc += arr2d[i % 3][i % 4] * (unsigned long long)sd[(i+1)&31][0]; }
  res[threadIdx.x] = acc;
}
