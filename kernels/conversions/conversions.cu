// Conversions with every rounding mode and saturation: f32/f64 <-> s32/u32/s64, f64 <-> f32.
extern "C" __global__ void conversions(const float* f, const double* d, const int* s, int* oi, float* of, double* od, long long* ol, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i];
    oi[8 * i] = __float2int_rn(x);
    oi[8 * i + 1] = __float2int_rz(x);
    oi[8 * i + 2] = __float2int_rd(x);
    oi[8 * i + 3] = __float2int_ru(x);
    oi[8 * i + 4] = (int)__float2uint_rz(x);
    oi[8 * i + 5] = __double2int_rz(d[i]);
    oi[8 * i + 6] = (int)__double2uint_rn(d[i]);
    oi[8 * i + 7] = (int)(short)s[i] + (int)(unsigned char)s[i];
    of[3 * i] = __int2float_rn(s[i]);
    of[3 * i + 1] = __double2float_rn(d[i]);
    of[3 * i + 2] = __double2float_rz(d[i]);
    od[2 * i] = (double)x;
    od[2 * i + 1] = __ll2double_rn((long long)s[i] * 0x10001ll);
    ol[2 * i] = __float2ll_rz(x);
    ol[2 * i + 1] = __double2ll_rd(d[i]);
}
