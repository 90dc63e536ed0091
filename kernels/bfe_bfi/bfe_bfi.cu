// bfe.u32 / bfe.s32 / bfi.b32 through inline PTX, positions and lengths from memory (including out-of-range ones).
extern "C" __global__ void bfe_bfi(const unsigned* x, const unsigned* y, const unsigned* pos, const unsigned* len, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned u, s, f;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(x[i]), "r"(pos[i]), "r"(len[i]));
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(x[i]), "r"(pos[i]), "r"(len[i]));
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(f) : "r"(y[i]), "r"(x[i]), "r"(pos[i]), "r"(len[i]));
    out[3 * i] = u; out[3 * i + 1] = s; out[3 * i + 2] = f;
}
