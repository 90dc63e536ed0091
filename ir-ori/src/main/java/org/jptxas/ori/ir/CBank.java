package org.jptxas.ori.ir;

/**
 * A constant-bank operand {@code c[bank][offset]}, optionally indexed by a uniform register
 * ({@code c[bank][UR + offset]}); {@code index} is null when not indexed.
 */
public record CBank(int bank, int offset, Reg index) implements Operand {
    public CBank {
        if (bank < 0 || bank > 31) {
            throw new IllegalArgumentException("constant bank " + bank + " out of range");
        }
        if (offset < 0 || offset > 0xffff) {
            throw new IllegalArgumentException("constant bank offset " + offset + " out of range");
        }
        if (index != null && index.file() != RegFile.UR && index.file() != RegFile.R) {
            throw new IllegalArgumentException("constant bank index must be a register: " + index);
        }
    }

    public static CBank of(int bank, int offset) {
        return new CBank(bank, offset, null);
    }

    @Override
    public String toString() {
        return "c[0x" + Integer.toHexString(bank) + "][" + (index == null ? "" : index + "+")
                + "0x" + Integer.toHexString(offset) + "]";
    }
}
