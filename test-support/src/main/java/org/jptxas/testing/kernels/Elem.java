package org.jptxas.testing.kernels;

/** Element type of a kernel buffer: its size, and how mismatches are printed. */
public enum Elem {
    U8(1), U16(2), F16(2), BF16(2), I32(4), U32(4), F32(4), I64(8), U64(8), F64(8);

    private final int size;

    Elem(int size) {
        this.size = size;
    }

    public int size() {
        return size;
    }

    /** The element's bits as a readable value. */
    String format(long bits) {
        return switch (this) {
            case U8, U16 -> Long.toString(bits);
            case I32 -> Integer.toString((int) bits) + " (0x" + Integer.toHexString((int) bits) + ")";
            case U32 -> Integer.toUnsignedString((int) bits) + " (0x" + Integer.toHexString((int) bits) + ")";
            case I64 -> bits + " (0x" + Long.toHexString(bits) + ")";
            case U64 -> Long.toUnsignedString(bits) + " (0x" + Long.toHexString(bits) + ")";
            case F16 -> RefMath.halfToFloat((int) bits) + " (0x" + Integer.toHexString((int) bits & 0xffff) + ")";
            case BF16 -> RefMath.bf16ToFloat((int) bits) + " (0x" + Integer.toHexString((int) bits & 0xffff) + ")";
            case F32 -> Float.intBitsToFloat((int) bits) + " (0x" + Integer.toHexString((int) bits) + ")";
            case F64 -> Double.longBitsToDouble(bits) + " (0x" + Long.toHexString(bits) + ")";
        };
    }

    boolean floating() {
        return this == F16 || this == BF16 || this == F32 || this == F64;
    }

    double toDouble(long bits) {
        return switch (this) {
            case F16 -> RefMath.halfToFloat((int) bits);
            case BF16 -> RefMath.bf16ToFloat((int) bits);
            case F32 -> Float.intBitsToFloat((int) bits);
            case F64 -> Double.longBitsToDouble(bits);
            default -> bits;
        };
    }
}
