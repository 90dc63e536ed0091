package org.jptxas.simulator.sass;

/** An operand of a SASS instruction, with the prefix/suffix marks nvdisasm writes around it ({@link TypedOps}). */
sealed interface SassOperand {
    /** {@code R2}, {@code -R2}, {@code |R2|}, {@code ~R2}, {@code R2.H1}: index 255 is RZ. */
    record Reg(int index, boolean negate, boolean abs, boolean invert, String suffix) implements SassOperand {}

    /** {@code UR4}; 63 is URZ. */
    record UReg(int index, boolean negate, boolean invert) implements SassOperand {}

    /** {@code UR62.B3}: one byte of a uniform register (place 1..3), UR2UP's source of predicates saved by UP2UR.B3. */
    record UByte(UReg source, int place) implements SassOperand {}

    /** {@code P0}, {@code !P0}, {@code PT} (7). */
    record Pred(int index, boolean negated) implements SassOperand {}

    /** {@code UP0}, {@code !UPT}. */
    record UPred(int index, boolean negated) implements SassOperand {}

    /** A hex immediate (two's complement {@code bits}) or a decimal float literal ({@code floating}: {@code value}). */
    record Imm(long bits, double value, boolean floating) implements SassOperand {}

    /**
     * {@code UR6.SIGN}, {@code c[0x2] [0x0].SIGN}: the sign bit of a uniform register or a constant, a predicate input
     * of PLOP3 (a register's is a {@link Reg} with the suffix {@code SIGN}).
     */
    record SignBit(SassOperand source) implements SassOperand {}

    /**
     * {@code c[0x2] [0x0].F32}: a constant a half-precision instruction reads as one f32 (sm_75's HADD2 R, -RZ.H0_H0,
     * c[0x2] [0x0].F32, ptxas's way of loading a 16-bit immediate through the constant bank).
     */
    record F32Constant(CBank source) implements SassOperand {}

    /** {@code c[0x0][0x160]}, {@code c[0x0][R2+0x10]}: base register -1 when absent. */
    record CBank(int bank, int baseReg, long offset, boolean negate, boolean abs) implements SassOperand {}

    /**
     * {@code [R2.64+0x10]}, {@code desc[UR4][R2.64]}, {@code [UR4+0x8]}, {@code [R2.X4+UR4]}: the register is scaled by
     * {@code scale}; {@code [R6.U32+UR4]} ({@code zeroExtended}): a 32-bit register plus a 64-bit uniform base.
     */
    record Mem(int reg, boolean wide, int scale, int ureg, long offset, boolean zeroExtended) implements SassOperand {}

    /** {@code SR_TID.X}, {@code SRZ}. */
    record Special(String name) implements SassOperand {}

    /** A branch target address. */
    record Target(long address) implements SassOperand {}

    /**
     * {@code R6 -0xe0} of {@code BRX} and {@code R20 0x0} of {@code RET.ABS.NODEC}: a 64-bit register pair and an
     * offset, printed as one operand with no comma.
     */
    record RegisterOffset(int reg, long offset) implements SassOperand {}

    /** A convergence barrier {@code B0}..{@code B15} (BSSY, BSYNC, BREAK, BMOV). */
    record Barrier(int index) implements SassOperand {}

    /** A scoreboard {@code SB0} ({@code DEPBAR.LE SB0, 0x1}). */
    record Scoreboard(int index) implements SassOperand {}

    /** Anything else, kept as text ({@code 0x0} barrier ids are Imm). */
    record Other(String text) implements SassOperand {}
}
