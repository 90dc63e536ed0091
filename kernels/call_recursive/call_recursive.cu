// A recursive .func (needs a call stack in local memory).
__device__ __noinline__ unsigned ackermann_small(unsigned m, unsigned n) {
    if (m == 0) return n + 1;
    if (n == 0) return ackermann_small(m - 1, 1);
    return ackermann_small(m - 1, ackermann_small(m, n - 1));
}
__device__ __noinline__ unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
extern "C" __global__ void call_recursive(const unsigned* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    out[2 * i] = fib(v % 12);
    out[2 * i + 1] = ackermann_small(v % 3, v % 4);
}
