package org.jptxas.ori.ir;

/** A value an instruction reads or writes. */
public sealed interface Operand permits Reg, Imm, CBank, BlockLabel, Sym, SpecialReg, Addr, BarrierReg {
}
