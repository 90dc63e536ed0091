// Degree-7 polynomial in double by Horner's rule (fma.rn.f64 chain).
extern "C" __global__ void f64_horner(const double* x, double* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    double acc = 0.0078125;
    acc = acc * v - 0.125;
    acc = acc * v + 0.3333333333333333;
    acc = acc * v - 1.5;
    acc = acc * v + 2.718281828459045;
    acc = acc * v - 0.7071067811865476;
    acc = acc * v + 3.141592653589793;
    acc = acc * v + 1.0;
    y[i] = acc;
}
