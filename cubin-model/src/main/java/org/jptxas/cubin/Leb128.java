package org.jptxas.cubin;

/** DWARF's LEB128 numbers, unsigned and signed, as the line and frame tables write and read them. */
public final class Leb128 {
    private Leb128() {}

    static void writeUnsigned(ByteWriter w, long v) {
        do {
            int c = (int) (v & 0x7f);
            v >>>= 7;
            w.u8(v != 0 ? c | 0x80 : c);
        } while (v != 0);
    }

    static void writeSigned(ByteWriter w, long v) {
        boolean more = true;
        while (more) {
            int c = (int) (v & 0x7f);
            v >>= 7;
            more = !(v == 0 && (c & 0x40) == 0 || v == -1 && (c & 0x40) != 0);
            w.u8(more ? c | 0x80 : c);
        }
    }

    /** Reads an unsigned number at {@code at} into {@code out[0]}; returns the position after it. */
    public static int readUnsigned(byte[] b, int at, long[] out) {
        int next = readUnsignedTolerant(b, at, out);
        if (next == at || (b[next - 1] & 0x80) != 0) {
            throw new ArrayIndexOutOfBoundsException("LEB128 number at " + at + " runs past the end");
        }
        return next;
    }

    /**
     * As {@link #readUnsigned}, but a number cut off by the end of {@code b} reads as the bits that are there: for
     * fact readers that take what a truncated section still says.
     */
    public static int readUnsignedTolerant(byte[] b, int at, long[] out) {
        long v = 0;
        int shift = 0;
        while (at < b.length) {
            int c = b[at++] & 0xff;
            v |= (long) (c & 0x7f) << shift;
            shift += 7;
            if ((c & 0x80) == 0) {
                break;
            }
        }
        out[0] = v;
        return at;
    }

    /** Reads a signed number at {@code at} into {@code out[0]}; returns the position after it. */
    public static int readSigned(byte[] b, int at, long[] out) {
        long v = 0;
        int shift = 0;
        int c;
        do {
            c = b[at++] & 0xff;
            v |= (long) (c & 0x7f) << shift;
            shift += 7;
        } while ((c & 0x80) != 0);
        if (shift < 64 && (c & 0x40) != 0) {
            v |= -1L << shift;
        }
        out[0] = v;
        return at;
    }
}
