// A per-thread array indexed at run time (local memory): insertion sort of 16 values, then a strided sum.
extern "C" __global__ void local_array(const int* in, int* out, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int buf[16];
    for (int k = 0; k < 16; k++) buf[k] = in[i * 16 + k];
    for (int k = 1; k < 16; k++) {
        int v = buf[k], j = k - 1;
        while (j >= 0 && buf[j] > v) { buf[j + 1] = buf[j]; j--; }
        buf[j + 1] = v;
    }
    int acc = 0;
    for (int k = 0; k < 16; k += stride) acc = acc * 3 + buf[k];
    for (int k = 0; k < 16; k++) out[i * 17 + k] = buf[k];
    out[i * 17 + 16] = acc;
}
