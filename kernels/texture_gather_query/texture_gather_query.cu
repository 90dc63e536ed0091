// Gathers, size queries and surface reductions: each thread gathers the red and the alpha channel of the 2x2
// footprint at its (u, v) of a 4-channel f32 texture (tex2Dgather: tld4.r / tld4.a, of the second only x and w
// kept), the first four threads store the texture's and the surface's sizes (txq / suq), and every thread adds to
// one element of the surface's upper half and takes the signed maximum with one of its lower half (sured).
extern "C" __global__ void texture_gather_query(cudaTextureObject_t tex, cudaSurfaceObject_t surf,
                                                const float* coords, float4* out_r, float2* out_a, int* sizes,
                                                int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float u = coords[2 * i];
    float v = coords[2 * i + 1];
    out_r[i] = tex2Dgather<float4>(tex, u, v, 0);
    float4 a = tex2Dgather<float4>(tex, u, v, 3);
    out_a[i] = make_float2(a.x, a.w);
    int w, h, sw, sh;
    asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(tex));
    asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(tex));
    asm("suq.width.b32 %0, [%1];" : "=r"(sw) : "l"(surf));
    asm("suq.height.b32 %0, [%1];" : "=r"(sh) : "l"(surf));
    int half = sh / 2;
    int y = (i / sw) % half;
    asm volatile("sured.b.add.2d.u32.trap [%0, {%1, %2}], %3;" ::"l"(surf), "r"((i % sw) * 4), "r"(y), "r"(i + 1)
                 : "memory");
    asm volatile("sured.b.max.2d.s32.trap [%0, {%1, %2}], %3;" ::"l"(surf), "r"((i * 7 % sw) * 4), "r"(half + y),
                 "r"(i * 37 % 101 - 50)
                 : "memory");
    if (i < 4) {
        sizes[i] = i == 0 ? w : i == 1 ? h : i == 2 ? sw : sh;
    }
}
