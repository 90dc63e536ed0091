// Samples 2D textures at the same n coordinates through four texture objects: float texels with linear filtering
// and clamp addressing, float texels with linear filtering and wrap addressing, 8-bit texels read as normalized
// floats with linear filtering and mirror addressing (all three with normalized coordinates), and 16-bit signed
// integer texels point-sampled at texel coordinates with border addressing.
extern "C" __global__ void texture_2d_linear(cudaTextureObject_t clampTex, cudaTextureObject_t wrapTex,
                                             cudaTextureObject_t mirrorTex, cudaTextureObject_t borderTex,
                                             const float2 *coords, float *outClamp, float *outWrap,
                                             float *outMirror, int *outBorder, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 c = coords[i];
        outClamp[i] = tex2D<float>(clampTex, c.x, c.y);
        outWrap[i] = tex2D<float>(wrapTex, c.x, c.y);
        outMirror[i] = tex2D<float>(mirrorTex, c.x, c.y);
        outBorder[i] = tex2D<int>(borderTex, c.x * 16.0f, c.y * 8.0f);
    }
}
