// Short branches, selects and predicates (selp, setp combinations, if-conversion candidates).
extern "C" __global__ void select_pred(const int* a, const float* f, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = a[i];
    float x = f[i];
    int r = 0;
    if (v > 10 && x < 0.5f) r = v * 2;
    else if (v < -10 || x != x) r = -v;
    else r = v + 7;
    r += (v & 1) ? 100 : 200;
    r ^= (x >= 0.0f) != (v >= 0) ? 0x55 : 0;
    out[i] = r;
}
