package org.jptxas.simulator.exec;

/**
 * The operation of a surface reduction ({@code sured.b}, SURED) on the element's old value and the operand, on 4 or
 * 8 bytes, signed or unsigned (the sign matters to the minimum and maximum only). Values are held zero-extended in a
 * long; the result is too.
 */
public enum SurfaceReduction {
    ADD, MIN, MAX, AND, OR;

    /** The reduction named {@code name} in either case ({@code add}, {@code MIN}, ...), or null. */
    public static SurfaceReduction named(String name) {
        for (SurfaceReduction r : values()) {
            if (r.name().equalsIgnoreCase(name)) {
                return r;
            }
        }
        return null;
    }

    public long apply(long old, long value, boolean signed, int bytes) {
        int shift = 64 - 8 * bytes;
        // both operands widened to 64 bits as their type says, so that one comparison serves both sizes
        long a = signed ? old << shift >> shift : old << shift >>> shift;
        long b = signed ? value << shift >> shift : value << shift >>> shift;
        long r = switch (this) {
            case ADD -> a + b;
            case MIN -> (signed ? Long.compare(a, b) : Long.compareUnsigned(a, b)) <= 0 ? a : b;
            case MAX -> (signed ? Long.compare(a, b) : Long.compareUnsigned(a, b)) >= 0 ? a : b;
            case AND -> a & b;
            case OR -> a | b;
        };
        return bytes == 8 ? r : r & 0xffffffffL;
    }
}
