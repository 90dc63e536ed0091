// Order-independent global atomics: add/sub/min/max/and/or/xor/inc and a 64-bit add.
extern "C" __global__ void atomic_mix(const int* in, int* r, unsigned long long* r64, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    atomicAdd(&r[0], v);
    atomicSub(&r[1], v);
    atomicMin(&r[2], v);
    atomicMax(&r[3], v);
    atomicAnd(&r[4], v | 0x0f0f0000);
    atomicOr(&r[5], v & 0x00f0f0ff);
    atomicXor(&r[6], v);
    atomicInc((unsigned*)&r[7], 100u);
    atomicMin((unsigned*)&r[8], (unsigned)v);
    atomicMax((unsigned*)&r[9], (unsigned)v);
    atomicAdd(r64, (unsigned long long)(long long)v * 0x100000001ull);
}
