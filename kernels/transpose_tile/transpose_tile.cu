// Matrix transpose through a padded 32 x 33 shared tile, 32 x 8 threads per block.
#define T 32
extern "C" __global__ void transpose_tile(const float* in, float* out, int W, int H) {
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += 8)
        if (x < W && y + j < H) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    for (int j = 0; j < T; j += 8)
        if (x < H && y + j < W) out[(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];
}
