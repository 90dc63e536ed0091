package org.jptxas.simulator.launch;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a texture lookup outside {@code [0, size)} reads along one dimension; the ordinals are CUDA's
 * {@code cudaTextureAddressMode} values, which the sampler stores.
 */
public enum TextureAddressMode {
    /** The coordinate modulo the size (the texture repeats). */
    WRAP("wrap"),
    /** The nearest edge texel. */
    CLAMP("clamp"),
    /** The texture repeats reflected every other period. */
    MIRROR("mirror"),
    /** The sampler's border colour. */
    BORDER("border");

    private final String specName;

    TextureAddressMode(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }

    public static Optional<TextureAddressMode> bySpecName(String name) {
        return Arrays.stream(values()).filter(m -> m.specName.equals(name)).findFirst();
    }

    public static Optional<TextureAddressMode> byCode(int code) {
        return code >= 0 && code < values().length ? Optional.of(values()[code]) : Optional.empty();
    }

    /** Texel index {@code i} of a dimension of {@code size} texels after this mode, or -1 for the border colour. */
    public int apply(long i, int size) {
        return switch (this) {
            case WRAP -> (int) Math.floorMod(i, (long) size);
            case CLAMP -> (int) Math.max(0, Math.min(size - 1L, i));
            case MIRROR -> {
                long m = Math.floorMod(i, 2L * size);
                yield (int) (m < size ? m : 2L * size - 1 - m);
            }
            case BORDER -> i < 0 || i >= size ? -1 : (int) i;
        };
    }
}
