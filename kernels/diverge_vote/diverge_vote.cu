// Divergence sensitivity: a loop whose trip count differs per thread (Collatz steps, capped), then full-warp votes.
// Correct only if the warp reconverges at the loop exit before the votes.
extern "C" __global__ void diverge_vote(const int* in, unsigned* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    int n = 0;
    while (v > 1 && n < 40) {
        v = (v & 1) ? 3 * v + 1 : v >> 1;
        n++;
    }
    unsigned b = __ballot_sync(0xffffffffu, n > 10);
    int any = __any_sync(0xffffffffu, n > 30);
    int all = __all_sync(0xffffffffu, n > 2);
    out[3 * t] = b;
    out[3 * t + 1] = any;
    out[3 * t + 2] = all;
}
