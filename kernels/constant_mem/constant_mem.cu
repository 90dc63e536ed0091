// Initialised __constant__ and __device__ module variables.
__constant__ float coeffs[8] = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f, 0.125f, 4.0f, 3.0f};
__device__ int offsets[4] = {10, 20, 30, 40};
extern "C" __global__ void constant_mem(const float* x, float* y, int* z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = 7; k >= 0; k--) acc = acc * x[i] + coeffs[k];
    y[i] = acc;
    z[i] = offsets[i & 3] + i;
}
