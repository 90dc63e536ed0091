package org.jptxas.ori.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The code of one function: blocks in layout order (block 0 is the entry; a block without an unconditional
 * terminator falls through to the next) and the virtual-register counters.
 */
public final class FunctionBody {
    private final List<BasicBlock> blocks = new ArrayList<>();
    private final Map<RegFile, Integer> nextVirtual = new EnumMap<>(RegFile.class);

    public BasicBlock addBlock(String label) {
        BasicBlock b = new BasicBlock(blocks.size(), label);
        blocks.add(b);
        return b;
    }

    /**
     * Inserts an empty block at layout position {@code at}: the blocks from {@code at} on move one place down and
     * every branch target is renumbered, so control flow is unchanged (the block before falls through into the new one).
     */
    public BasicBlock insertBlock(int at, String label) {
        if (at < 0 || at > blocks.size()) {
            throw new IndexOutOfBoundsException("block position " + at + " of " + blocks.size());
        }
        BasicBlock inserted = new BasicBlock(at, label);
        blocks.add(at, inserted);
        for (int i = at + 1; i < blocks.size(); i++) {
            blocks.get(i).renumber(i);
        }
        for (BasicBlock b : blocks) {
            for (Instr in : b.instrs()) {
                List<Src> srcs = in.srcs();
                for (int i = 0; i < srcs.size(); i++) {
                    Src s = srcs.get(i);
                    if (s.value() instanceof BlockLabel l && l.block() >= at) {
                        srcs.set(i, new Src(new BlockLabel(l.block() + 1), s.neg(), s.abs(), s.not()));
                    }
                }
            }
        }
        return inserted;
    }

    public List<BasicBlock> blocks() {
        return Collections.unmodifiableList(blocks);
    }

    public BasicBlock block(int id) {
        return blocks.get(id);
    }

    /** A fresh virtual register of {@code comps} 32-bit components. */
    public Reg newVirtual(RegFile file, int comps) {
        int id = nextVirtual.getOrDefault(file, 0);
        nextVirtual.put(file, id + 1);
        return Reg.virt(file, id, comps);
    }

    /** How many virtual registers of {@code file} have been created (their ids are 0..n-1). */
    public int virtualCount(RegFile file) {
        return nextVirtual.getOrDefault(file, 0);
    }

    public int instructionCount() {
        return blocks.stream().mapToInt(b -> b.instrs().size()).sum();
    }
}
