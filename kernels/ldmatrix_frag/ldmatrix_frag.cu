// ldmatrix x1, x2, x4 and x4.trans: four 8x8 matrices of 16-bit elements in shared memory, one warp.
extern "C" __global__ void ldmatrix_frag(const unsigned* in, unsigned* out) {
    __shared__ __align__(16) unsigned tile[128];
    int t = threadIdx.x;
    tile[t] = in[t];
    tile[t + 32] = in[t + 32];
    tile[t + 64] = in[t + 64];
    tile[t + 96] = in[t + 96];
    __syncwarp();
    // lane t gives the 16-byte row t: row t % 8 of matrix t / 8
    unsigned row = (unsigned)__cvta_generic_to_shared(&tile[4 * t]);
    unsigned a, b0, b1, c0, c1, c2, c3, d0, d1, d2, d3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(a) : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(c0), "=r"(c1), "=r"(c2), "=r"(c3) : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3) : "r"(row));
    unsigned* o = out + 11 * t;
    o[0] = a;
    o[1] = b0;
    o[2] = b1;
    o[3] = c0;
    o[4] = c1;
    o[5] = c2;
    o[6] = c3;
    o[7] = d0;
    o[8] = d1;
    o[9] = d2;
    o[10] = d3;
}
