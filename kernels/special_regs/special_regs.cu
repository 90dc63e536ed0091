// Special registers: tid, ntid, ctaid, nctaid in three dimensions, and laneid.
extern "C" __global__ void special_regs(unsigned* out) {
    unsigned lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned blk = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned g = blk * blockDim.x * blockDim.y * blockDim.z + lin;
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    out[4 * g] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
    out[4 * g + 1] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
    out[4 * g + 2] = blockDim.x | blockDim.y << 8 | blockDim.z << 16 | gridDim.x << 24;
    out[4 * g + 3] = lane | gridDim.y << 8 | gridDim.z << 16;
}
