// div/rcp/sqrt with directed roundings (.rz/.rm/.rp, f32 and f64) and bmsk/szext (inline PTX).
extern "C" __global__ void directed_rounding(const float* x, const float* y, const double* u, const double* v,
                                             float* outf, double* outd, unsigned* outb, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i], b = y[i];
    outf[9 * i + 0] = __fdiv_rz(a, b);
    outf[9 * i + 1] = __fdiv_rd(a, b);
    outf[9 * i + 2] = __fdiv_ru(a, b);
    outf[9 * i + 3] = __frcp_rz(b);
    outf[9 * i + 4] = __frcp_rd(b);
    outf[9 * i + 5] = __frcp_ru(b);
    outf[9 * i + 6] = __fsqrt_rz(fabsf(a));
    outf[9 * i + 7] = __fsqrt_rd(fabsf(a));
    outf[9 * i + 8] = __fsqrt_ru(fabsf(a));
    double p = u[i], q = v[i];
    outd[9 * i + 0] = __ddiv_rz(p, q);
    outd[9 * i + 1] = __ddiv_rd(p, q);
    outd[9 * i + 2] = __ddiv_ru(p, q);
    outd[9 * i + 3] = __drcp_rz(q);
    outd[9 * i + 4] = __drcp_rd(q);
    outd[9 * i + 5] = __drcp_ru(q);
    outd[9 * i + 6] = __dsqrt_rz(fabs(p));
    outd[9 * i + 7] = __dsqrt_rd(fabs(p));
    outd[9 * i + 8] = __dsqrt_ru(fabs(p));
    unsigned s = __float_as_uint(a), w = __float_as_uint(b) & 63u, r;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(s & 63u), "r"(w));
    outb[4 * i + 0] = r;
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(s & 63u), "r"(w));
    outb[4 * i + 1] = r;
    asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(s), "r"(w));
    outb[4 * i + 2] = r;
    asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r) : "r"(s), "r"(w));
    outb[4 * i + 3] = r;
}
