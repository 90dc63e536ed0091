package org.jptxas.cubin.info;

/** Little-endian word packing for attribute payloads. */
final class Payloads {
    private Payloads() {}

    static byte[] words(int... words) {
        byte[] out = new byte[words.length * 4];
        for (int i = 0; i < words.length; i++) {
            int w = words[i];
            out[4 * i] = (byte) w;
            out[4 * i + 1] = (byte) (w >>> 8);
            out[4 * i + 2] = (byte) (w >>> 16);
            out[4 * i + 3] = (byte) (w >>> 24);
        }
        return out;
    }

    static int word(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    static int[] toWords(byte[] b) {
        int[] out = new int[b.length / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = word(b, 4 * i);
        }
        return out;
    }
}
