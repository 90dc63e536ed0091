// vote.all / vote.any / vote.ballot / activemask on a data-dependent predicate; one thread of every warp exits early.
extern "C" __global__ void warp_vote(const int* in, unsigned* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int w = i >> 5, lane = threadIdx.x & 31;
    if (lane == 31 && (w & 1)) return;
    int p = in[i] > 0;
    unsigned mask = __activemask();
    unsigned all = __all_sync(mask, p);
    unsigned any = __any_sync(mask, p);
    unsigned ballot = __ballot_sync(mask, p);
    if (lane == 0) { out[w * 4] = all; out[w * 4 + 1] = any; out[w * 4 + 2] = ballot; out[w * 4 + 3] = mask; }
}
