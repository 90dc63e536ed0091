#include <cstdio>
__device__ int depth2(int x) { return x * 3; }
__device__ int depth1(int x) { return depth2(x) + 1; }
__global__ void k9(int *p) { printf("v=%d\n", p[0]); p[1] = depth1(p[2]); }
__global__ void k10(float *a, int n) { extern __shared__ float s[]; float local[32]; for (int i=0;i<32;i++) local[i]=a[i*n]; s[threadIdx.x]=local[threadIdx.x%32]; __syncthreads(); a[threadIdx.x]=s[31-threadIdx.x]; }
