// Read-modify-write through a 2D surface object: each thread reads its element, scales and offsets it, and writes
// it back at the same coordinates (byte x offsets, as CUDA's surface functions take them).
extern "C" __global__ void surface_rmw(cudaSurfaceObject_t surf, int width, int height, int scale, int offset) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int v = surf2Dread<int>(surf, x * 4, y);
        surf2Dwrite(v * scale + offset, surf, x * 4, y);
    }
}
