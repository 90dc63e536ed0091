__device__ unsigned helper(unsigned x) { return x * 2654435761u; }
__device__ unsigned ext_mix(unsigned x, unsigned y) {
    unsigned h = helper(x ^ y);
    if (h & 1u) h = (h >> 3) ^ y;
    return h + 7u;
}
