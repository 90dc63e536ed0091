#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void reduce_sum(const float* x, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x; float v = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) v += x[i];
  s[t] = v; __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) atomicAdd(out, s[0]);
}
extern "C" __global__ void warp_reduce(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
extern "C" __global__ void histogram(const unsigned char* d, unsigned* h, int n) {
  __shared__ unsigned sh[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) sh[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&sh[d[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&h[i], sh[i]);
}
extern "C" __global__ void transpose(const float* a, float* b, int w, int h) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = a[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) if (x < h && y + j < w) b[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
extern "C" __global__ void softmax(const float* x, float* y, int cols) {
  const float* r = x + blockIdx.x * cols; float* o = y + blockIdx.x * cols;
  float m = -INFINITY; for (int i = threadIdx.x; i < cols; i += 32) m = fmaxf(m, r[i]);
  for (int k = 16; k; k >>= 1) m = fmaxf(m, __shfl_xor_sync(~0u, m, k));
  float s = 0; for (int i = threadIdx.x; i < cols; i += 32) s += __expf(r[i] - m);
  for (int k = 16; k; k >>= 1) s += __shfl_xor_sync(~0u, s, k);
  for (int i = threadIdx.x; i < cols; i += 32) o[i] = __expf(r[i] - m) / s;
}
extern "C" __global__ void half_axpy(const __half* x, __half* y, __half a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = __hfma(a, x[i], y[i]);
}
extern "C" __global__ void bf16_to_f32(const __nv_bfloat16* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = __bfloat162float(x[i]) * 2.0f;
}
extern "C" __global__ void dgemm_naive(const double* A, const double* B, double* C, int N) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < N && c < N) { double s = 0; for (int k = 0; k < N; k++) s += A[r * N + k] * B[k * N + c]; C[r * N + c] = s; }
}
extern "C" __global__ void int_math(const int* a, int* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { int v = a[i]; b[i] = (v / 7) + (v % 13) + __popc(v) + __clz(v) + __brev(v) + __ffs(v) + min(v, 5) + abs(v); }
}
extern "C" __global__ void float_math(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float v = a[i]; b[i] = sinf(v) + cosf(v) + expf(v) + logf(fabsf(v) + 1) + sqrtf(fabsf(v)) + powf(v, 2.5f) + tanhf(v) + v / 3.0f; }
}
extern "C" __global__ void double_math(const double* a, double* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { double v = a[i]; b[i] = sqrt(v) + exp(v) + log(v) + sin(v) + v / 3.0 + rsqrt(v); }
}
extern "C" __global__ void scan_block(int* d) {
  __shared__ int s[1024]; int t = threadIdx.x; s[t] = d[t]; __syncthreads();
  for (int o = 1; o < blockDim.x; o <<= 1) { int v = t >= o ? s[t - o] : 0; __syncthreads(); s[t] += v; __syncthreads(); }
  d[t] = s[t];
}
