package org.jptxas.ori.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The code of one function: blocks in layout order (block 0 is the entry; a block without an unconditional
 * terminator falls through to the next), the virtual-register counters and the PTX names of the virtual registers
 * the front end made for PTX registers (for the {@code -g} register maps).
 */
public final class FunctionBody {
    private final List<BasicBlock> blocks = new ArrayList<>();
    private final Map<RegFile, Integer> nextVirtual = new EnumMap<>(RegFile.class);
    private final List<NamedRegister> named = new ArrayList<>();
    private long declaredLocalBytes = UNKNOWN_LOCAL_BYTES;

    /** {@link #declaredLocalBytes()} when the producer did not say. */
    public static final long UNKNOWN_LOCAL_BYTES = -1;

    /**
     * A PTX register ({@code %rd3}) and the virtual register the front end made for it.
     *
     * @param type  its declared PTX type as PTX spells it, with the dot ({@code .b64})
     * @param bytes the type's size (0 for {@code .pred})
     */
    public record NamedRegister(String name, String type, int bytes, Reg register) {}

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
        return insertBlocks(new int[] {at}, label, false).get(0);
    }

    /**
     * Inserts one empty block before each of the blocks now at {@code positions} (ascending, distinct; the block count
     * itself appends one), as {@link #insertBlock} would one by one from the last position to the first, but renumbers
     * the branch targets once: a pass over the code per insertion made many insertions quadratic. Returns the new
     * blocks in the order of {@code positions}.
     */
    public List<BasicBlock> insertBlocks(int[] positions) {
        return insertBlocks(positions, null, false);
    }

    /** Inserts {@code count} empty blocks at layout position {@code at}, one renumbering for all (loop unrolling). */
    public List<BasicBlock> insertBlocks(int at, int count) {
        int[] positions = new int[count];
        java.util.Arrays.fill(positions, at);
        return insertBlocks(positions, null, true);
    }

    /** {@code run}: equal positions insert a run of blocks at one place; otherwise positions must be distinct. */
    private List<BasicBlock> insertBlocks(int[] positions, String label, boolean run) {
        for (int k = 0; k < positions.length; k++) {
            if (positions[k] < 0 || positions[k] > blocks.size()
                    || k > 0 && (run ? positions[k] < positions[k - 1] : positions[k] <= positions[k - 1])) {
                throw new IndexOutOfBoundsException("block positions " + java.util.Arrays.toString(positions) + " of "
                        + blocks.size());
            }
        }
        if (positions.length == 0) {
            return List.of();
        }
        // old id -> new id: each old block moves down by the insertions at or before it
        int[] moved = new int[blocks.size()];
        for (int id = 0, k = 0; id < blocks.size(); id++) {
            while (k < positions.length && positions[k] <= id) {
                k++;
            }
            moved[id] = id + k;
        }
        List<BasicBlock> inserted = new ArrayList<>(positions.length);
        List<BasicBlock> layout = new ArrayList<>(blocks.size() + positions.length);
        for (int id = 0, k = 0; id <= blocks.size(); id++) {
            while (k < positions.length && positions[k] == id) {
                BasicBlock b = new BasicBlock(layout.size(), label);
                inserted.add(b);
                layout.add(b);
                k++;
            }
            if (id < blocks.size()) {
                BasicBlock b = blocks.get(id);
                b.renumber(layout.size());
                layout.add(b);
            }
        }
        blocks.clear();
        blocks.addAll(layout);
        relabel(moved);
        return inserted;
    }

    /**
     * Moves the blocks now at {@code [from, to)} to stand before the block now at {@code at} ({@code at <= from}),
     * renumbering every branch target. Control flow changes where a moved run was fallen into or fell out: the caller
     * moves only runs that neither are entered nor left by falling through, behind a block that does not fall through.
     */
    public void moveBlocks(int from, int to, int at) {
        if (at < 0 || at > from || from >= to || to > blocks.size()) {
            throw new IndexOutOfBoundsException("move [" + from + ", " + to + ") to " + at + " of " + blocks.size());
        }
        List<BasicBlock> layout = new ArrayList<>(blocks.size());
        layout.addAll(blocks.subList(0, at));
        layout.addAll(blocks.subList(from, to));
        layout.addAll(blocks.subList(at, from));
        layout.addAll(blocks.subList(to, blocks.size()));
        int[] moved = new int[blocks.size()];
        for (int pos = 0; pos < layout.size(); pos++) {
            BasicBlock b = layout.get(pos);
            moved[b.id()] = pos;
            b.renumber(pos);
        }
        blocks.clear();
        blocks.addAll(layout);
        relabel(moved);
    }

    /** Rewrites every block label in the code from its old block id to {@code moved[id]}. */
    private void relabel(int[] moved) {
        for (BasicBlock b : blocks) {
            for (Instr in : b.instrs()) {
                List<Src> srcs = in.srcs();
                for (int i = 0; i < srcs.size(); i++) {
                    Src s = srcs.get(i);
                    if (s.value() instanceof BlockLabel l && moved[l.block()] != l.block()) {
                        srcs.set(i, new Src(new BlockLabel(moved[l.block()]), s.neg(), s.abs(), s.not()));
                    }
                }
            }
        }
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

    /** Records that {@code register} holds PTX register {@code name} of declared type {@code type}. */
    public void nameRegister(String name, String type, int bytes, Reg register) {
        named.add(new NamedRegister(name, type, bytes, register));
    }

    /** Takes over {@code src}'s PTX register names: for a copy of {@code src} that keeps its register numbers. */
    public void copyNamesFrom(FunctionBody src) {
        named.addAll(src.named);
    }

    /** The PTX registers named so far, in the order the front end met them. */
    public List<NamedRegister> namedRegisters() {
        return Collections.unmodifiableList(named);
    }

    /**
     * The bytes of the {@code .local} arrays the PTX declares, from the frame's start; the frame the front end
     * allocates is rounded up past them (to 8), and no access may reach the padding. {@link #UNKNOWN_LOCAL_BYTES}
     * when not recorded (bodies built elsewhere, functions other functions' frames were inlined into).
     */
    public long declaredLocalBytes() {
        return declaredLocalBytes;
    }

    public void setDeclaredLocalBytes(long bytes) {
        declaredLocalBytes = bytes;
    }
}
