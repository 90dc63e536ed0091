package org.jptxas.ori.ir;

/** An immediate: the raw bits as the instruction consumes them (32-bit for most, 64-bit for moves of pairs). */
public record Imm(long bits) implements Operand {
    public static Imm ofInt(int v) {
        return new Imm(v & 0xffffffffL);
    }

    public static Imm ofFloat(float v) {
        return new Imm(Float.floatToRawIntBits(v) & 0xffffffffL);
    }

    @Override
    public String toString() {
        return "0x" + Long.toHexString(bits);
    }
}
