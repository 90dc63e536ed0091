// Reverses each block's slice through dynamic shared memory (extern __shared__).
extern "C" __global__ void dynamic_shared(int* data) {
    extern __shared__ int s[];
    int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
    s[t] = data[base + t];
    __syncthreads();
    data[base + t] = s[n - 1 - t];
}
