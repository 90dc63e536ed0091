// A 2-stage cp.async pipeline (sm_80+): one block of 64 threads sums, per thread, the column t of `tiles` tiles of
// 64 x 4 floats. Tile k+1 is copied global -> shared (16 bytes per thread, .cg) while tile k is used; a tail of
// every tile (the last thread's row) is copied in 4-byte .ca pieces with a source size from `valid`, so rows past
// it are zero-filled. wait_group 1 keeps the newest copy in flight; wait_group 0 drains at the end.
extern "C" __global__ void cp_async_pipeline(const float4* in, float* out, int tiles, int valid) {
    __shared__ __align__(16) float4 buf[2][64];
    __shared__ __align__(16) float tail[2][64];
    int t = threadIdx.x;
    unsigned s0 = (unsigned)__cvta_generic_to_shared(&buf[0][t]);
    unsigned s1 = (unsigned)__cvta_generic_to_shared(&buf[1][t]);
    unsigned q0 = (unsigned)__cvta_generic_to_shared(&tail[0][t]);
    unsigned q1 = (unsigned)__cvta_generic_to_shared(&tail[1][t]);
    int src = t < valid ? 4 : 0;  // bytes of the tail element that come from global memory
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s0), "l"(in + t));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(q0), "l"((const float*)(in + 64 * tiles) + t), "r"(src));
    asm volatile("cp.async.commit_group;");
    float4 acc = make_float4(0, 0, 0, 0);
    float extra = 0;
    for (int k = 0; k < tiles; k++) {
        if (k + 1 < tiles) {
            unsigned s = (k & 1) ? s0 : s1, q = (k & 1) ? q0 : q1;
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(in + 64 * (k + 1) + t));
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;"
                         :: "r"(q), "l"((const float*)(in + 64 * tiles) + 64 * (k + 1) + t), "r"(src));
            asm volatile("cp.async.commit_group;");
            asm volatile("cp.async.wait_group 1;");
        } else {
            asm volatile("cp.async.wait_group 0;");
        }
        __syncthreads();
        float4 v = buf[k & 1][63 - t];  // another thread's copy: needs the wait and the barrier
        acc.x += v.x;
        acc.y += v.y;
        acc.z += v.z;
        acc.w += v.w;
        extra += tail[k & 1][63 - t];
        __syncthreads();
    }
    out[5 * t] = acc.x;
    out[5 * t + 1] = acc.y;
    out[5 * t + 2] = acc.z;
    out[5 * t + 3] = acc.w;
    out[5 * t + 4] = extra;
}
