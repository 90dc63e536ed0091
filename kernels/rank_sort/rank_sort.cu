// Counting (rank) sort of n distinct keys: each thread counts the keys smaller than its own.
extern "C" __global__ void rank_sort(const unsigned* keys, unsigned* sorted, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i];
    int rank = 0;
    for (int j = 0; j < n; j++) rank += keys[j] < k;
    sorted[rank] = k;
}
