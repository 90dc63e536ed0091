package org.jptxas.simulator.ptx;

/** A source operand: a register, an immediate, a special register or a variable's address. */
@FunctionalInterface
interface Src {
    long get(ThreadState t);

    static Src reg(int index) {
        return t -> t.frame.regs[index];
    }

    static Src imm(long bits) {
        return t -> bits;
    }
}
