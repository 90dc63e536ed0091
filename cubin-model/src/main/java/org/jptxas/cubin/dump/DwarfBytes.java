package org.jptxas.cubin.dump;

import java.nio.charset.StandardCharsets;
import org.jptxas.cubin.Leb128;

/**
 * A little-endian cursor over a debug section's bytes for the DWARF decoders. Reading past the end throws
 * {@link IndexOutOfBoundsException}, which each decoder catches to keep what it printed so far.
 */
final class DwarfBytes {
    private final byte[] b;
    private int at;

    DwarfBytes(byte[] b, int at) {
        this.b = b;
        this.at = at;
    }

    int at() {
        return at;
    }

    void seek(int to) {
        at = to;
    }

    int length() {
        return b.length;
    }

    boolean more() {
        return at < b.length;
    }

    int u8() {
        if (at >= b.length) {
            throw new IndexOutOfBoundsException(at);
        }
        return b[at++] & 0xff;
    }

    int u16() {
        return u8() | u8() << 8;
    }

    long u32() {
        return u16() | (long) u16() << 16;
    }

    long u64() {
        return u32() | u32() << 32;
    }

    /** An unsigned value of {@code size} bytes (1, 2, 4 or 8). */
    long unsigned(int size) {
        return switch (size) {
            case 1 -> u8();
            case 2 -> u16();
            case 4 -> u32();
            default -> u64();
        };
    }

    long uleb() {
        long[] v = new long[1];
        at = Leb128.readUnsigned(b, at, v);
        return v[0];
    }

    long sleb() {
        long[] v = new long[1];
        at = Leb128.readSigned(b, at, v);
        return v[0];
    }

    /** A NUL-terminated string (UTF-8); a string the section's end cuts off throws. */
    String string() {
        int nul = at;
        while (nul < b.length && b[nul] != 0) {
            nul++;
        }
        if (nul >= b.length) {
            throw new IndexOutOfBoundsException(nul);
        }
        String s = new String(b, at, nul - at, StandardCharsets.UTF_8);
        at = nul + 1;
        return s;
    }

    /** {@code n} bytes. */
    byte[] bytes(long n) {
        if (n < 0 || n > b.length - at) {
            throw new IndexOutOfBoundsException(at);
        }
        byte[] r = java.util.Arrays.copyOfRange(b, at, at + (int) n);
        at += (int) n;
        return r;
    }
}
