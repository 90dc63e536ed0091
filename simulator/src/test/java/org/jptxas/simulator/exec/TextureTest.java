package org.jptxas.simulator.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.launch.LaunchSpecException;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.launch.ParamSpec;
import org.jptxas.simulator.launch.TexelFormat;
import org.jptxas.simulator.launch.TextureAddressMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Texture objects: the launch's descriptors and handles, and the sampling model (point and linear filtering with
 * 8-bit weights, the four address modes, normalized reads and missing channels), on values worked out by hand.
 */
class TextureTest {
    private static final TextureAddressMode CLAMP = TextureAddressMode.CLAMP;

    /** A launch whose only arguments are the given textures, each over {@code texels} (little-endian bytes). */
    private static Launch launch(Path dir, List<ParamSpec.Texture> textures, List<byte[]> texels) throws Exception {
        List<ParamSpec> params = new java.util.ArrayList<>();
        for (int i = 0; i < textures.size(); i++) {
            Path in = dir.resolve("t" + i + ".bin");
            Files.write(in, texels.get(i));
            ParamSpec.Texture t = textures.get(i);
            params.add(new ParamSpec.Texture(Optional.of(in), t.format(), t.channels(), t.dims(), t.normalizedRead(),
                    t.linear(), t.address(), t.normalizedCoords(), t.border()));
        }
        return Launch.prepare(Target.of("sm_80"), new LaunchSpec(Optional.of("k"), new org.jptxas.simulator.launch.Dim3(1, 1, 1),
                new org.jptxas.simulator.launch.Dim3(1, 1, 1), Optional.empty(), 0, params));
    }

    private static ParamSpec.Texture spec(TexelFormat f, int channels, List<Integer> dims, boolean normalizedRead,
            boolean linear, List<TextureAddressMode> modes, boolean normalizedCoords, List<Integer> border) {
        return new ParamSpec.Texture(Optional.empty(), f, channels, dims, normalizedRead, linear, modes,
                normalizedCoords, border);
    }

    private static byte[] floats(float... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : v) {
            b.putFloat(x);
        }
        return b.array();
    }

    private static float f(int bits) {
        return Float.intBitsToFloat(bits);
    }

    @Test
    void handlesNameHeaderAndSamplerOfTheSameIndex(@TempDir Path dir) throws Exception {
        ParamSpec.Texture t = spec(TexelFormat.F32, 1, List.of(4), false, false, List.of(CLAMP), false, List.of(0, 0, 0, 0));
        Launch l = launch(dir, List.of(t, t), List.of(floats(1, 2, 3, 4), floats(5, 6, 7, 8)));
        assertEquals(1L | 1L << 20, l.arguments().get(0).bits());
        assertEquals(2L | 2L << 20, l.arguments().get(1).bits());
        assertEquals(7f, f(l.texture(l.arguments().get(1).bits()).sample(l.global(), new float[] {2.5f})[0]));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> l.texture(0));
        assertTrue(e.getMessage().contains("names no texture"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> l.texture(3 | 3 << 20));
        // the copy keeps the pools at the same addresses
        Launch c = l.copy();
        assertEquals(5f, f(c.texture(2 | 2 << 20).sample(c.global(), new float[] {0.2f})[0]));
    }

    @Test
    void linearWeightsAreEightBitFractionsAndMissingChannelsReadZeroZeroOne(@TempDir Path dir) throws Exception {
        ParamSpec.Texture t = spec(TexelFormat.F32, 1, List.of(2), false, true, List.of(CLAMP), false, List.of(0, 0, 0, 0));
        Launch l = launch(dir, List.of(t), List.of(floats(0, 256)));
        Texture tex = l.texture(1 | 1 << 20);
        // x = 0.5 + 0.3: the fraction 0.3 is held as 77/256 (the nearest multiple of 1/256)
        int[] r = tex.sample(l.global(), new float[] {0.8f});
        assertEquals(77f, f(r[0]));
        assertEquals(0f, f(r[1]));
        assertEquals(0f, f(r[2]));
        assertEquals(1f, f(r[3]));
        // clamped at both ends
        assertEquals(0f, f(tex.sample(l.global(), new float[] {-3f})[0]));
        assertEquals(256f, f(tex.sample(l.global(), new float[] {9f})[0]));
    }

    @Test
    void addressModesWrapMirrorClampAndBorder() {
        assertEquals(3, TextureAddressMode.WRAP.apply(-1, 4));
        assertEquals(1, TextureAddressMode.WRAP.apply(5, 4));
        assertEquals(0, TextureAddressMode.MIRROR.apply(-1, 4));
        assertEquals(3, TextureAddressMode.MIRROR.apply(4, 4));
        assertEquals(2, TextureAddressMode.MIRROR.apply(-6, 4));
        assertEquals(0, TextureAddressMode.CLAMP.apply(-9, 4));
        assertEquals(3, TextureAddressMode.CLAMP.apply(9, 4));
        assertEquals(-1, TextureAddressMode.BORDER.apply(4, 4));
        assertEquals(2, TextureAddressMode.BORDER.apply(2, 4));
    }

    @Test
    void normalizedReadsAndIntegerFetchesThroughTheBorder(@TempDir Path dir) throws Exception {
        ParamSpec.Texture s8 = spec(TexelFormat.S8, 2, List.of(2, 1), true, false, List.of(CLAMP, CLAMP), true,
                List.of(0, 0, 0, 0));
        ParamSpec.Texture u16 = spec(TexelFormat.U16, 1, List.of(2, 2), false, false,
                List.of(TextureAddressMode.BORDER, TextureAddressMode.BORDER), false, List.of(-7, 1, 2, 3));
        byte[] shorts = {1, 0, 2, 0, 3, 0, (byte) 0xff, (byte) 0xff};
        Launch l = launch(dir, List.of(s8, u16), List.of(new byte[] {(byte) -128, 127, 0, 64}, shorts));
        int[] a = l.texture(1 | 1 << 20).sample(l.global(), new float[] {0.1f, 0.5f});
        assertEquals(-1f, f(a[0]));
        assertEquals(1f, f(a[1]));
        assertEquals(1f, f(a[3]));
        Texture u = l.texture(2 | 2 << 20);
        assertArrayEquals(new int[] {0xffff, 0, 0, 1}, u.fetch(l.global(), new int[] {1, 1}));
        assertArrayEquals(new int[] {-7, 1, 2, 3}, u.fetch(l.global(), new int[] {2, 0}));
        assertArrayEquals(new int[] {3, 0, 0, 1}, u.sample(l.global(), new float[] {0.9f, 1.2f}));
    }

    @Test
    void theSpecRefusesWhatCudaRefuses(@TempDir Path dir) {
        String linearInts = "{\"grid\":[1],\"block\":[1],\"params\":[{\"type\":\"texture\",\"format\":\"s32\","
                + "\"dims\":[4],\"filter\":\"linear\"}]}";
        LaunchSpecException e = assertThrows(LaunchSpecException.class, () -> LaunchSpecReader.parse("l.json", linearInts, dir));
        assertTrue(e.getMessage().contains("params[0].filter: linear filtering needs a float result"), e.getMessage());
        String wrapTexels = "{\"grid\":[1],\"block\":[1],\"params\":[{\"type\":\"texture\",\"format\":\"f32\","
                + "\"dims\":[4],\"address\":[\"wrap\"]}]}";
        e = assertThrows(LaunchSpecException.class, () -> LaunchSpecReader.parse("l.json", wrapTexels, dir));
        assertTrue(e.getMessage().contains("wrap addressing needs normalized_coords"), e.getMessage());
        String threeChannels = "{\"grid\":[1],\"block\":[1],\"params\":[{\"type\":\"texture\",\"format\":\"u8\","
                + "\"channels\":3,\"dims\":[4]}]}";
        e = assertThrows(LaunchSpecException.class, () -> LaunchSpecReader.parse("l.json", threeChannels, dir));
        assertTrue(e.getMessage().contains("1, 2 or 4 channels"), e.getMessage());
    }
    @Test
    void surfacesAreAddressedInBytesAlongXAndTrapOutsideTheArray(@TempDir Path dir) throws Exception {
        String spec = "{\"grid\":[1],\"block\":[1],\"params\":[{\"type\":\"surface\",\"out\":\"s.out.bin\","
                + "\"format\":\"s32\",\"dims\":[3,2]}]}";
        Launch l = Launch.prepare(Target.of("sm_80"), LaunchSpecReader.parse("l.json", spec, dir).withEntry("k"));
        Texture s = l.texture(l.arguments().get(0).bits());
        long base = l.arguments().get(0).buffer().orElseThrow().base();
        assertEquals(base + 12 + 8, s.surfaceAddress(new int[] {8, 1}, 4));
        assertThrows(IllegalArgumentException.class, () -> s.surfaceAddress(new int[] {9, 0}, 4));
        assertThrows(IllegalArgumentException.class, () -> s.surfaceAddress(new int[] {-4, 0}, 4));
        assertThrows(IllegalArgumentException.class, () -> s.surfaceAddress(new int[] {0, 2}, 4));
        l.global().store(base + 20, 4, 0x01020304);
        l.writeOutputs();
        byte[] out = Files.readAllBytes(dir.resolve("s.out.bin"));
        assertEquals(24, out.length);
        assertEquals(4, out[20]);
    }
}
