// c[i] = a[i] + b[i] with a grid-stride loop.
extern "C" __global__ void vec_add_i32(const int* a, const int* b, int* c, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i];
}
