// Calls through a table of function addresses in local memory (indirect calls with a prototype).
typedef unsigned (*op_t)(unsigned, unsigned);
__device__ __noinline__ unsigned op_add(unsigned a, unsigned b) { return a + b; }
__device__ __noinline__ unsigned op_mul(unsigned a, unsigned b) { return a * b + 1u; }
__device__ __noinline__ unsigned op_xor(unsigned a, unsigned b) { return (a ^ b) >> 1; }
__device__ __noinline__ unsigned op_mix(unsigned a, unsigned b) { return (a << 3) - b; }

extern "C" __global__ void call_indirect(const unsigned* in, unsigned* out, int n) {
    op_t ops[4] = {op_add, op_mul, op_xor, op_mix};
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    unsigned acc = v;
    for (int k = 0; k < 3; ++k) {
        op_t f = ops[(v >> (2 * k)) & 3u];
        acc = f(acc, v + k);
    }
    out[i] = acc;
}
