// A large __noinline__ function called from three sites (one of them divergent), with values live across the calls:
// jptxas keeps such a function a subroutine (CALL.REL.NOINC) instead of copying it into every site.
__device__ __noinline__ unsigned round_mix(unsigned x, unsigned k) {
#pragma unroll
    for (int r = 0; r < 24; r++) {
        x = (x ^ (x >> 7)) * 0x9e3779b1u + k;
        k = (k << 5) | (k >> 27);
        x ^= k * (r + 1);
    }
    return x;
}

extern "C" __global__ void call_outlined(const unsigned* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    unsigned a = round_mix(v, 1u);
    if (v & 1) a = round_mix(a, v);
    out[2 * i] = a;
    out[2 * i + 1] = round_mix(a ^ 0x55u, (unsigned)i) + v;
}
