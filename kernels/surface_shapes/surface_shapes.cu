// Surface objects of every geometry, access width and out-of-bounds mode: a 1D u32 line read as 32, 64 (one
// 64-bit value and a uint2) and 128 bits and with clamped and zeroed out-of-bounds reads; a 2D u8 array whose top
// four rows take bytes of its bottom four (an out-of-bounds store dropped, another clamped into the spare ninth row);
// a 3D s32 volume and a 1D-layered u16 array updated in place; a 2D-layered array of 64-bit elements read and
// written as pairs (ulonglong2) and singly; 64-bit surface reductions (add, clamped unsigned minimum, signed maximum,
// an out-of-bounds one dropped). Surface reductions have no CUDA function: inline PTX.
extern "C" __global__ void surface_shapes(cudaSurfaceObject_t line, cudaSurfaceObject_t bytes,
                                          cudaSurfaceObject_t vol, cudaSurfaceObject_t layers1d,
                                          cudaSurfaceObject_t layers2d, cudaSurfaceObject_t counters,
                                          unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned a = surf1Dread<unsigned>(line, (i % 64) * 4);
    unsigned c = surf1Dread<unsigned>(line, (i - 32) * 4, cudaBoundaryModeClamp);
    unsigned z = surf1Dread<unsigned>(line, (i - 32) * 4, cudaBoundaryModeZero);
    uint2 p = surf1Dread<uint2>(line, (i % 32) * 8);
    uint4 q = surf1Dread<uint4>(line, (i % 16) * 16);
    unsigned long long w = surf1Dread<unsigned long long>(line, (i % 32) * 8);
    out[6 * i] = a;
    out[6 * i + 1] = c;
    out[6 * i + 2] = z;
    out[6 * i + 3] = p.x ^ p.y;
    out[6 * i + 4] = q.x + q.y * 3 + q.z * 5 + q.w * 7;
    out[6 * i + 5] = (unsigned) (w >> 17);

    unsigned char b = surf2Dread<unsigned char>(bytes, 31 - i % 32, 4 + i / 32);
    surf2Dwrite<unsigned char>(b + 1, bytes, i % 32, i / 32);
    if (i == 0) {
        surf2Dwrite<unsigned char>(0x77, bytes, 100, 0, cudaBoundaryModeZero);
        surf2Dwrite<unsigned char>(0x66, bytes, 200, 100, cudaBoundaryModeClamp);
    }

    int v = surf3Dread<int>(vol, (i % 8) * 4, i / 8 % 4, i / 32);
    surf3Dwrite(v * 3 + 1, vol, (i % 8) * 4, i / 8 % 4, i / 32);

    unsigned short h = surf1DLayeredread<unsigned short>(layers1d, (i % 16) * 2, i / 16);
    surf1DLayeredwrite<unsigned short>(h ^ 0x5a5a, layers1d, (i % 16) * 2, i / 16);

    if (i < 32) {
        ulonglong2 e = surf2DLayeredread<ulonglong2>(layers2d, (i % 2) * 16, i / 2 % 4, i / 8);
        surf2DLayeredwrite(make_ulonglong2(e.x + e.y, e.x ^ e.y), layers2d, (i % 2) * 16, i / 2 % 4, i / 8);
    } else if (i < 64) {
        int j = i - 32;
        unsigned long long e = surf2DLayeredread<unsigned long long>(layers2d, (j % 4) * 8, j / 4 % 4, 4 + j / 16);
        surf2DLayeredwrite(e * 5 + 3, layers2d, (j % 4) * 8, j / 4 % 4, 4 + j / 16);
    }

    unsigned long long add = (unsigned long long) (i + 1) << 33 | i;
    long long m = i * 37 % 101 - 50;
    unsigned long long small = (unsigned long long) (i * 29 % 53) << 31;
    asm volatile("sured.b.add.1d.u64.trap [%0, {%1}], %2;" ::"l"(counters), "r"((i % 8) * 8), "l"(add));
    asm volatile("sured.b.max.1d.s64.trap [%0, {%1}], %2;" ::"l"(counters), "r"((8 + i % 6) * 8), "l"(m));
    asm volatile("sured.b.min.1d.u64.clamp [%0, {%1}], %2;" ::"l"(counters), "r"(1000), "l"(small));
    asm volatile("sured.b.add.1d.u64.zero [%0, {%1}], %2;" ::"l"(counters), "r"(-8), "l"(add));
}
