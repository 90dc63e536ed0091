package org.jptxas.simulator.numeric;

/**
 * The float adds of atomics and reductions, shared by the PTX interpreter and the SASS emulator. A NaN sum is the
 * canonical NaN, as the GPU's float adds return it: Java leaves unspecified which operand's NaN {@code a + b} keeps,
 * and the JIT may swap the operands, so the raw sum would differ from run to run.
 */
public final class AtomicFloatAdd {
    private AtomicFloatAdd() {}

    /** {@code old + x} over f32 bits (low 32 bits of each). */
    public static long f32(long old, long x) {
        float sum = Float.intBitsToFloat((int) old) + Float.intBitsToFloat((int) x);
        return Float.isNaN(sum) ? 0x7fffffffL : Float.floatToRawIntBits(sum) & 0xffffffffL;
    }

    /** {@code old + x} over f64 bits. */
    public static long f64(long old, long x) {
        double sum = Double.longBitsToDouble(old) + Double.longBitsToDouble(x);
        return Double.isNaN(sum) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(sum);
    }
}
