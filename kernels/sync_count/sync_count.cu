// Barrier reductions: __syncthreads_count, __syncthreads_and, __syncthreads_or (bar.red).
extern "C" __global__ void sync_count(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = in[i] > 0;
    int c = __syncthreads_count(p);
    int a = __syncthreads_and(p);
    int o = __syncthreads_or(in[i] > 90);
    if (threadIdx.x == 0) { out[3 * blockIdx.x] = c; out[3 * blockIdx.x + 1] = a; out[3 * blockIdx.x + 2] = o; }
}
