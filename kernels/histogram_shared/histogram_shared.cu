// 64-bin histogram: shared-memory atomics per block, then global atomics.
extern "C" __global__ void histogram_shared(const unsigned char* data, unsigned* bins, int n) {
    __shared__ unsigned local[64];
    if (threadIdx.x < 64) local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] & 63], 1u);
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
