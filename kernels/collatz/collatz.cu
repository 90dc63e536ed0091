// Divergent per-thread loops: Collatz step counts (capped).
extern "C" __global__ void collatz(const unsigned* in, unsigned* steps, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long v = in[i];
    unsigned s = 0;
    while (v != 1 && s < 1000) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        s++;
    }
    steps[i] = s;
}
