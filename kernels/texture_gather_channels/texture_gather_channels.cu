// Gathers of every channel with all four results read: each thread gathers the red, green, blue and alpha channel
// of the 2x2 footprint at its (u, v) of a 4-channel f32 texture (tex2Dgather: tld4.r / .g / .b / .a) and stores the
// four texels of each, so no gather's write mask is narrowed.
extern "C" __global__ void texture_gather_channels(cudaTextureObject_t tex, const float2* coords, float4* out_r,
                                                   float4* out_g, float4* out_b, float4* out_a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 uv = coords[i];
        out_r[i] = tex2Dgather<float4>(tex, uv.x, uv.y, 0);
        out_g[i] = tex2Dgather<float4>(tex, uv.x, uv.y, 1);
        out_b[i] = tex2Dgather<float4>(tex, uv.x, uv.y, 2);
        out_a[i] = tex2Dgather<float4>(tex, uv.x, uv.y, 3);
    }
}
