package org.jptxas.ori.ir;

import java.util.ArrayList;
import java.util.List;

/** A straight-line run of instructions; only the last may branch. Its id is its index in the function's layout. */
public final class BasicBlock {
    private int id;
    private final String label;
    private final List<Instr> instrs = new ArrayList<>();
    /** PTX's {@code .pragma "nounroll"} stood at the start of this block: the loop it heads stays a loop. */
    private boolean noUnroll;
    /**
     * The PTX line of a conditional branch that ended this block and that constant folding deleted as never taken;
     * 0 when none. It matters only while the block stays empty. ptxas 13 gives that line to a convergence barrier set-up (BSSY) it places
     * where control falls through the emptied block (see the reconvergence pass).
     */
    private int foldedBranchLine;

    BasicBlock(int id, String label) {
        this.id = id;
        this.label = label;
    }

    public int id() {
        return id;
    }

    /** Moves the block to another layout position (only {@link FunctionBody#insertBlock}). */
    void renumber(int newId) {
        this.id = newId;
    }

    /** The PTX label this block started at, or null. */
    public String label() {
        return label;
    }

    /** The instructions, mutable in place by passes. */
    public List<Instr> instrs() {
        return instrs;
    }

    public boolean noUnroll() {
        return noUnroll;
    }

    public void setNoUnroll(boolean noUnroll) {
        this.noUnroll = noUnroll;
    }

    public int foldedBranchLine() {
        return foldedBranchLine;
    }

    public void setFoldedBranchLine(int line) {
        this.foldedBranchLine = line;
    }

    public Instr last() {
        return instrs.isEmpty() ? null : instrs.get(instrs.size() - 1);
    }

    public BlockLabel ref() {
        return new BlockLabel(id);
    }

    @Override
    public String toString() {
        return "bb" + id + (label == null ? "" : " (" + label + ")");
    }
}
