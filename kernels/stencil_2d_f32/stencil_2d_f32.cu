// One Jacobi step on a W x H grid: interior points average their 5-point neighbourhood, borders are copied.
extern "C" __global__ void stencil_2d_f32(const float* in, float* out, int W, int H) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    int i = y * W + x;
    if (x == 0 || y == 0 || x == W - 1 || y == H - 1) { out[i] = in[i]; return; }
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - W] + in[i + W]);
}
