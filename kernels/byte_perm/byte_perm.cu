// prmt: __byte_perm with run-time and constant selectors (CUDA masks selectors to 0x7777), and prmt's sign-replicating
// selector nibbles through inline PTX.
extern "C" __global__ void byte_perm(const unsigned* x, const unsigned* y, const unsigned* s, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[3 * i] = __byte_perm(x[i], y[i], s[i]);
    out[3 * i + 1] = __byte_perm(x[i], y[i], 0x0123);
    unsigned r;
    asm("prmt.b32 %0, %1, 0, 0x8881;" : "=r"(r) : "r"(x[i]));
    out[3 * i + 2] = r;
}
