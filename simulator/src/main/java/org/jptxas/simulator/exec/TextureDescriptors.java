package org.jptxas.simulator.exec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jptxas.simulator.launch.ParamSpec;
import org.jptxas.simulator.launch.TexelFormat;
import org.jptxas.simulator.launch.TextureAddressMode;
import org.jptxas.simulator.memory.GlobalMemory;

/**
 * The texture descriptors a launch writes for its texture objects, in the project's layout (the driver's own
 * headers are opaque), shared by the PTX interpreter and the SASS emulator. As the driver does, a launch keeps two
 * pools in device memory, one of 32-byte texture headers and one of 32-byte samplers; texture object k (1, 2, ... in
 * parameter order; entry 0 stays empty so that a zero handle faults) has header k and sampler k, and the kernel gets
 * the handle {@code k | k << 20}: the header index in bits 0..19 and the sampler index in bits 20..31, the split of
 * the hardware's bindless handles. The handle is a 32-bit value passed in a 64-bit parameter (high word zero); TEX
 * and TLD read its low word. Little-endian fields:
 * <pre>
 * header   0x00 u64     address of texel (0, 0, 0)
 *          0x08 u32[3]  sizes in texels (unused dimensions 1)
 *          0x14 u32     row pitch in bytes
 *          0x18 u32     slice pitch in bytes
 *          0x1c u8      channel format ({@link TexelFormat} ordinal: u8 s8 u16 s16 u32 s32 f16 f32)
 *          0x1d u8      channels (1, 2 or 4)
 *          0x1e u8      read mode (0 element type, 1 normalized float)
 *          0x1f u8      dimensions (1 to 3)
 * sampler  0x00 u8[3]   address mode per dimension ({@link TextureAddressMode} ordinal: wrap clamp mirror border,
 *                       CUDA's cudaTextureAddressMode values)
 *          0x03 u8      filter (0 point, 1 linear: cudaTextureFilterMode)
 *          0x04 u8      normalized coordinates (0 or 1)
 *          0x05..0x0f   reserved, 0
 *          0x10 u32[4]  border colour (float bits for float results, integers otherwise)
 * </pre>
 * Texels are stored densely (dimension 0 contiguous, channel 0 first).
 */
public final class TextureDescriptors {
    private TextureDescriptors() {}

    public static final int HEADER_BYTES = 32;
    public static final int SAMPLER_BYTES = 32;
    /** Bits of the header index in a handle; the sampler index is above them. */
    public static final int INDEX_BITS = 20;

    /** Where a launch's pools are and how many entries (including the empty entry 0) they hold. */
    public record Pools(long headers, long samplers, int entries) {}

    /** The handle of texture object {@code index} (header and sampler of the same index). */
    public static long handle(int index) {
        return index | (long) index << INDEX_BITS;
    }

    /** The header of the texture {@code t} whose texels start at {@code address}. */
    public static byte[] header(long address, ParamSpec.Texture t) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, address);
        int rowPitch = t.format().bytes() * t.channels() * t.dims().get(0);
        for (int d = 0; d < 3; d++) {
            b.putInt(0x08 + 4 * d, d < t.dims().size() ? t.dims().get(d) : 1);
        }
        b.putInt(0x14, rowPitch);
        b.putInt(0x18, rowPitch * (t.dims().size() > 1 ? t.dims().get(1) : 1));
        b.put(0x1c, (byte) t.format().ordinal());
        b.put(0x1d, (byte) t.channels());
        b.put(0x1e, (byte) (t.normalizedRead() ? 1 : 0));
        b.put(0x1f, (byte) t.dims().size());
        return b.array();
    }

    /** The sampler of the texture {@code t}. */
    public static byte[] sampler(ParamSpec.Texture t) {
        ByteBuffer b = ByteBuffer.allocate(SAMPLER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int d = 0; d < t.address().size(); d++) {
            b.put(d, (byte) t.address().get(d).ordinal());
        }
        b.put(3, (byte) (t.linear() ? 1 : 0));
        b.put(4, (byte) (t.normalizedCoords() ? 1 : 0));
        for (int k = 0; k < 4; k++) {
            b.putInt(0x10 + 4 * k, t.border().get(k));
        }
        return b.array();
    }

    /**
     * The texture handle {@code handle} names (only its low 32 bits count) in {@code pools}; a handle outside the
     * pools or a malformed descriptor throws with a message.
     */
    public static Texture lookup(GlobalMemory global, Pools pools, long handle) {
        int header = (int) handle & ((1 << INDEX_BITS) - 1);
        int sampler = (int) (handle >>> INDEX_BITS) & 0xfff;
        if (pools == null || header == 0 || header >= pools.entries() || sampler == 0 || sampler >= pools.entries()) {
            throw new IllegalArgumentException("texture handle 0x" + Long.toHexString(handle & 0xffffffffL)
                    + " names no texture of the launch (" + (pools == null ? 0 : pools.entries() - 1) + " texture objects)");
        }
        long h = pools.headers() + (long) HEADER_BYTES * header;
        long s = pools.samplers() + (long) SAMPLER_BYTES * sampler;
        TexelFormat format = TexelFormat.byCode((int) global.load(h + 0x1c, 1))
                .orElseThrow(() -> new IllegalArgumentException("texture header " + header + ": format code"));
        int rank = (int) global.load(h + 0x1f, 1);
        int[] dims = new int[rank];
        TextureAddressMode[] modes = new TextureAddressMode[rank];
        for (int d = 0; d < rank; d++) {
            dims[d] = (int) global.load(h + 0x08 + 4L * d, 4);
            int code = (int) global.load(s + d, 1);
            modes[d] = TextureAddressMode.byCode(code)
                    .orElseThrow(() -> new IllegalArgumentException("texture sampler " + sampler + ": address mode " + code));
        }
        int[] border = new int[4];
        for (int k = 0; k < 4; k++) {
            border[k] = (int) global.load(s + 0x10 + 4L * k, 4);
        }
        return new Texture(global.load(h, 8), format, (int) global.load(h + 0x1d, 1), dims,
                new long[] {format.bytes() * (long) global.load(h + 0x1d, 1), global.load(h + 0x14, 4),
                        global.load(h + 0x18, 4)},
                global.load(h + 0x1e, 1) != 0, global.load(s + 3, 1) != 0, modes, global.load(s + 4, 1) != 0, border);
    }
}
