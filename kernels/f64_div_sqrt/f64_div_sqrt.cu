// IEEE double division, square root and reciprocal (div.rn.f64, sqrt.rn.f64, rcp.rn.f64).
extern "C" __global__ void f64_div_sqrt(const double* a, const double* b, double* q, double* r, double* s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    q[i] = a[i] / b[i];
    r[i] = 1.0 / b[i];
    s[i] = sqrt(fabs(a[i]));
}
