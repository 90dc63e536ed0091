package org.jptxas.ori.ir;

/**
 * What {@link DefUseWalk} tells about each instruction of a body, in block and instruction order: the instruction
 * with its place, then each register it writes ({@link Instr#dsts()}), then each it reads ({@link Instr#usedRegs()}).
 * One visitor object serves a whole walk, so nothing is allocated per instruction or operand.
 */
public interface DefUseVisitor {
    /** Called before the instruction's definitions and uses; {@code index} is its place in {@code block}. */
    default void instr(BasicBlock block, int index, Instr in) {}

    /** {@code in} writes {@code r} (virtual or physical). */
    void def(Instr in, Reg r);

    /** {@code in} reads {@code r} (virtual or physical). */
    void use(Instr in, Reg r);
}
