package org.jptxas.cubin;

import java.util.Arrays;

/** A growable little-endian byte buffer for encoding ELF structures. */
final class ByteWriter {
    private byte[] buf;
    private int size;

    ByteWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    ByteWriter() {
        this(256);
    }

    int size() {
        return size;
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
        }
    }

    ByteWriter u8(int v) {
        ensure(1);
        buf[size++] = (byte) v;
        return this;
    }

    ByteWriter u16(int v) {
        return u8(v).u8(v >>> 8);
    }

    ByteWriter u32(int v) {
        return u16(v).u16(v >>> 16);
    }

    ByteWriter u64(long v) {
        return u32((int) v).u32((int) (v >>> 32));
    }

    ByteWriter bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
        return this;
    }

    /** Zero-fills up to {@code offset}; the buffer must not be past it. */
    ByteWriter padTo(long offset) {
        if (offset < size) {
            throw new IllegalStateException("layout overlap: at " + size + ", asked to pad to " + offset);
        }
        ensure((int) (offset - size));
        size = (int) offset;
        return this;
    }

    /** Overwrites bytes already written (or zero-filled) at {@code offset}. */
    void put(long offset, byte[] b) {
        System.arraycopy(b, 0, buf, (int) offset, b.length);
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }
}
