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
