// A __noinline__ function taking two eight-word structs and a 64-bit value (twenty argument words, more than the
// calling convention's twelve registers), called from two sites, one divergent: jptxas keeps it a subroutine that
// takes every word in a register (R4...R23), as ptxas keeps progminer's keccak_f800.
struct state8 {
    unsigned w[8];
};

__device__ __noinline__ unsigned mix(state8 a, unsigned long long p, state8 b) {
    unsigned x = (unsigned)p ^ (unsigned)(p >> 32);
#pragma unroll
    for (int r = 0; r < 8; r++) {
        x = (x ^ a.w[r]) * 0x9e3779b1u + b.w[7 - r];
        x ^= x >> 13;
    }
    return x;
}

extern "C" __global__ void call_wide(const unsigned* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    state8 a, b;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        a.w[k] = v + k * 0x1234567u;
        b.w[k] = v * (2 * k + 1);
    }
    unsigned long long p = ((unsigned long long)v << 32) | (unsigned)i;
    unsigned r = mix(a, p, b);
    if (v & 1) {
        b.w[3] = r;
        r = mix(b, p + r, a);
    }
    out[i] = r;
}
