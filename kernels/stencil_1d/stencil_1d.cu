// 7-point integer stencil with a shared-memory halo; outside the array counts as zero.
#define R 3
#define B 128
extern "C" __global__ void stencil_1d(const int* in, int* out, int n) {
    __shared__ int s[B + 2 * R];
    int g = blockIdx.x * B + threadIdx.x;
    int l = threadIdx.x + R;
    s[l] = g < n ? in[g] : 0;
    if (threadIdx.x < R) {
        int left = g - R, right = g + B;
        s[l - R] = left >= 0 && left < n ? in[left] : 0;
        s[l + B] = right < n ? in[right] : 0;
    }
    __syncthreads();
    if (g < n) {
        int acc = 0;
        for (int k = -R; k <= R; k++) acc += (k + 4) * s[l + k];
        out[g] = acc;
    }
}
