package org.jptxas.ori.ir;

/** A branch target: the id of a block of the same function. */
public record BlockLabel(int block) implements Operand {
    @Override
    public String toString() {
        return "bb" + block;
    }
}
