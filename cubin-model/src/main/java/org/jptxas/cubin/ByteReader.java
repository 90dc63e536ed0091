package org.jptxas.cubin;

/** Bounds-checked little-endian reads from a byte array; every failure is a {@link CubinFormatException}. */
final class ByteReader {
    private final byte[] bytes;
    private final String what;

    ByteReader(byte[] bytes, String what) {
        this.bytes = bytes;
        this.what = what;
    }

    int length() {
        return bytes.length;
    }

    void check(long offset, long size, String field) {
        if (offset < 0 || size < 0 || offset > bytes.length || size > bytes.length - offset) {
            throw new CubinFormatException(what + ": " + field + " (offset 0x" + Long.toHexString(offset) + ", "
                    + size + " bytes) lies outside the " + bytes.length + "-byte " + (what.startsWith("section") ? "section" : "file"));
        }
    }

    int u8(long offset, String field) {
        check(offset, 1, field);
        return bytes[(int) offset] & 0xff;
    }

    int u16(long offset, String field) {
        check(offset, 2, field);
        int o = (int) offset;
        return (bytes[o] & 0xff) | (bytes[o + 1] & 0xff) << 8;
    }

    int u32(long offset, String field) {
        check(offset, 4, field);
        int o = (int) offset;
        return (bytes[o] & 0xff) | (bytes[o + 1] & 0xff) << 8 | (bytes[o + 2] & 0xff) << 16 | (bytes[o + 3] & 0xff) << 24;
    }

    long u64(long offset, String field) {
        return (u32(offset, field) & 0xffffffffL) | (long) u32(offset + 4, field) << 32;
    }

    byte[] slice(long offset, long size, String field) {
        check(offset, size, field);
        byte[] out = new byte[(int) size];
        System.arraycopy(bytes, (int) offset, out, 0, (int) size);
        return out;
    }
}
