// 64-bit integer hashing: mul.lo.u64, shifts, xor, add.
extern "C" __global__ void splitmix64(const unsigned long long* seeds, unsigned long long* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long z = seeds[i] + 0x9e3779b97f4a7c15ull * (unsigned long long)(i + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    out[i] = z ^ (z >> 31);
}
