// shf: funnel shifts left/right, wrapping and clamping.
extern "C" __global__ void funnel_shift(const unsigned* lo, const unsigned* hi, const unsigned* sh, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[4 * i] = __funnelshift_l(lo[i], hi[i], sh[i]);
    out[4 * i + 1] = __funnelshift_r(lo[i], hi[i], sh[i]);
    out[4 * i + 2] = __funnelshift_lc(lo[i], hi[i], sh[i]);
    out[4 * i + 3] = __funnelshift_rc(lo[i], hi[i], sh[i]);
}
