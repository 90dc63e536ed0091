package org.jptxas.ori.analysis;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.VirtualNumbering;

/**
 * Which values may differ between the threads of a warp, and which conditional branches may therefore split it.
 *
 * <p>Sources of divergence: per-thread special registers ({@code %tid}, {@code %laneid}, lane masks, clocks; not
 * {@code %ctaid}), memory reads and atomics, warp exchanges ({@code SHFL}, {@code VOTE}, {@code MATCH}) and
 * registers the function reads before writing (device-function arguments). Kernel parameters, constants and
 * uniform-datapath registers (UR, UP) are uniform. A result is divergent when any register it reads (the guard
 * included) is; and a register written inside the region of a divergent branch (the blocks between the branch and
 * its immediate post-dominator) and read outside it is divergent too, since threads left the region at different
 * times or not at all. Solved optimistically to a fixed point, so loop-carried uniform values stay uniform.
 */
public final class Divergence {
    /** Dense key numbers: virtual registers by {@link VirtualNumbering}, physical components after them. */
    private final VirtualNumbering numbers;
    private final Map<Long, Integer> physical = new HashMap<>();
    private final BitSet divergent = new BitSet();
    private final BitSet divergentBranches = new BitSet();

    /**
     * Solved with a worklist over def-use lists: a register turning divergent revisits only the instructions that
     * read it and the branches it guards (rescanning the whole body per round was quadratic on large kernels). The
     * rules are monotone, so this reaches the same least fixed point as round-robin iteration.
     */
    public Divergence(FunctionBody body, Cfg cfg, PostDominators pdom) {
        int n = cfg.size();
        this.numbers = new VirtualNumbering(body);
        // per key, the blocks reading it in increasing order (arrays: a BitSet scan from 0 costs the block number)
        IntLists useBlocks = new IntLists();
        BitSet written = new BitSet();
        List<int[]> defsInBlock = new ArrayList<>();
        // per instruction that writes a register divergence can reach: the keys it writes (users lists its reads)
        List<int[]> instrDefs = new ArrayList<>();
        BitSet inherent = new BitSet();
        IntLists users = new IntLists();
        IntLists guarded = new IntLists();
        IntBuffer keys = new IntBuffer();
        IntBuffer blockDefs = new IntBuffer();
        // indexed loops: under C1 (the compile server's code) every for-each allocates its iterator, here five per
        // instruction
        List<BasicBlock> blocks = body.blocks();
        for (int bi = 0; bi < blocks.size(); bi++) {
            BasicBlock b = blocks.get(bi);
            blockDefs.clear();
            List<Instr> instrs = b.instrs();
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr in = instrs.get(ii);
                List<Reg> used = in.usedRegs();
                List<Reg> dsts = in.dsts();
                for (int ui = 0; ui < used.size(); ui++) {
                    Reg r = used.get(ui);
                    keys.clear();
                    keys(r, keys, true);
                    for (int i = 0; i < keys.size; i++) {
                        useBlocks.addOnce(keys.data[i], b.id());
                    }
                }
                keys.clear();
                for (int di = 0; di < dsts.size(); di++) {
                    Reg r = dsts.get(di);
                    int from = keys.size;
                    keys(r, keys, true);
                    for (int i = from; i < keys.size; i++) {
                        written.set(keys.data[i]);
                        blockDefs.add(keys.data[i]);
                    }
                }
                if (dsts.isEmpty()) {
                    continue;
                }
                keys.clear();
                for (int di = 0; di < dsts.size(); di++) {
                    Reg d = dsts.get(di);
                    if (d.file() != RegFile.UR && d.file() != RegFile.UP && !d.isZero()) {
                        keys(d, keys, true);
                    }
                }
                if (keys.size == 0) {
                    continue;
                }
                int id = instrDefs.size();
                instrDefs.add(keys.toArray());
                keys.clear();
                for (int ui = 0; ui < used.size(); ui++) {
                    Reg r = used.get(ui);
                    if (r.file() != RegFile.UR && r.file() != RegFile.UP && !r.isZero()) {
                        keys(r, keys, true);
                    }
                }
                for (int i = 0; i < keys.size; i++) {
                    users.add(keys.data[i], id);
                }
                if (inherentlyDivergent(in)) {
                    inherent.set(id);
                }
            }
            defsInBlock.add(blockDefs.distinct());
        }
        for (int b = 0; b < n; b++) {
            Reg guard = guardOfBranch(body.block(b));
            if (guard != null && cfg.isReachable(b)) {
                keys.clear();
                keys(guard, keys, true);
                for (int i = 0; i < keys.size; i++) {
                    guarded.add(keys.data[i], b);
                }
            }
        }
        useBlocks.trim();
        users.trim();
        guarded.trim();
        // A key read nowhere but in the block writing it is read outside no region holding that block: dropped
        // here, it is not checked again for every divergent branch whose region holds the block (block-local
        // temporaries are most keys of a large kernel, and regions nest).
        for (int b = 0; b < defsInBlock.size(); b++) {
            defsInBlock.set(b, readElsewhere(defsInBlock.get(b), b, useBlocks));
        }
        Worklist work = new Worklist(divergent);
        for (int k = 0; k < useBlocks.size(); k++) {
            if (useBlocks.get(k).length > 0 && !written.get(k)) {
                work.mark(k);
            }
        }
        BitSet fired = new BitSet();
        for (int id = inherent.nextSetBit(0); id >= 0; id = inherent.nextSetBit(id + 1)) {
            fired.set(id);
            for (int d : instrDefs.get(id)) {
                work.mark(d);
            }
        }
        while (!work.isEmpty()) {
            int k = work.pop();
            for (int id : users.get(k)) {
                if (!fired.get(id)) {
                    fired.set(id);
                    for (int d : instrDefs.get(id)) {
                        work.mark(d);
                    }
                }
            }
            for (int b : guarded.get(k)) {
                if (divergentBranches.get(b)) {
                    continue;
                }
                divergentBranches.set(b);
                // values written inside the region (found from its blocks, not by scanning every value) and read
                // outside it
                BitSet region = region(cfg, b, pdom.ipdom(b));
                for (int r = region.nextSetBit(0); r >= 0; r = region.nextSetBit(r + 1)) {
                    for (int key : defsInBlock.get(r)) {
                        if (!divergent.get(key) && usedOutside(useBlocks.get(key), region)) {
                            work.mark(key);
                        }
                    }
                }
            }
        }
    }

    /** Keys turned divergent and not yet propagated. */
    private static final class Worklist {
        private final BitSet set;
        private final IntBuffer stack = new IntBuffer();

        Worklist(BitSet set) {
            this.set = set;
        }

        void mark(int k) {
            if (!set.get(k)) {
                set.set(k);
                stack.add(k);
            }
        }

        boolean isEmpty() {
            return stack.size == 0;
        }

        int pop() {
            return stack.data[--stack.size];
        }
    }

    /** A growable int array. */
    private static final class IntBuffer {
        private static final int[] NONE = new int[0];
        int[] data = new int[8];
        int size;

        void add(int v) {
            if (size == data.length) {
                data = java.util.Arrays.copyOf(data, size * 2);
            }
            data[size++] = v;
        }

        void clear() {
            size = 0;
        }

        int[] toArray() {
            return size == 0 ? NONE : java.util.Arrays.copyOf(data, size);
        }

        int[] distinct() {
            return java.util.Arrays.stream(data, 0, size).distinct().toArray();
        }
    }

    /** Per key, a list of ints (instructions or blocks). */
    private static final class IntLists {
        private static final int[] NONE = new int[0];
        private int[][] lists = new int[16][];
        private int[] sizes = new int[16];

        void add(int key, int v) {
            if (key >= lists.length) {
                int len = Math.max(key + 1, lists.length * 2);
                lists = java.util.Arrays.copyOf(lists, len);
                sizes = java.util.Arrays.copyOf(sizes, len);
            }
            int[] l = lists[key];
            if (l == null) {
                l = lists[key] = new int[2];
            } else if (sizes[key] == l.length) {
                l = lists[key] = java.util.Arrays.copyOf(l, l.length * 2);
            }
            l[sizes[key]++] = v;
        }

        /** Adds {@code v} unless it is the list's last element (values come in order: no repeats). */
        void addOnce(int key, int v) {
            if (key >= lists.length || lists[key] == null || lists[key][sizes[key] - 1] != v) {
                add(key, v);
            }
        }

        /** One more than the highest key with a list. */
        int size() {
            return lists.length;
        }

        /** Cuts every list to its size, so {@link #get} can hand out the arrays themselves. */
        void trim() {
            for (int k = 0; k < lists.length; k++) {
                if (lists[k] != null && lists[k].length != sizes[k]) {
                    lists[k] = java.util.Arrays.copyOf(lists[k], sizes[k]);
                }
            }
        }

        int[] get(int key) {
            return key < lists.length && lists[key] != null ? lists[key] : NONE;
        }
    }

    /**
     * The blocks a thread may run between the branch at the end of {@code branch} and the reconvergence point
     * {@code join} (exclusive): everything reachable from the branch's successors without passing {@code join}.
     */
    public static BitSet region(Cfg cfg, int branch, int join) {
        BitSet seen = new BitSet();
        // an int stack (each block pushed once at most): boxed block numbers were most of this walk's allocation,
        // once per divergent branch over its whole region
        int[] work = new int[cfg.size()];
        int top = 0;
        for (int s : cfg.succsView(branch)) {
            if (s != join && !seen.get(s)) {
                seen.set(s);
                work[top++] = s;
            }
        }
        while (top > 0) {
            int v = work[--top];
            for (int s : cfg.succsView(v)) {
                if (s != join && !seen.get(s)) {
                    seen.set(s);
                    work[top++] = s;
                }
            }
        }
        return seen;
    }

    /** The keys of {@code defs} (written in {@code block}) that some other block reads; compacts {@code defs}. */
    private static int[] readElsewhere(int[] defs, int block, IntLists useBlocks) {
        int kept = 0;
        for (int i = 0; i < defs.length; i++) {
            int[] uses = useBlocks.get(defs[i]);
            for (int u = 0; u < uses.length; u++) {
                if (uses[u] != block) {
                    defs[kept++] = defs[i];
                    break;
                }
            }
        }
        return kept == defs.length ? defs : java.util.Arrays.copyOf(defs, kept);
    }

    private static boolean usedOutside(int[] useBlocks, BitSet region) {
        for (int u : useBlocks) {
            if (!region.get(u)) {
                return true;
            }
        }
        return false;
    }

    /** True when the conditional branch ending {@code block} may send the threads of a warp different ways. */
    public boolean isDivergentBranch(int block) {
        return divergentBranches.get(block);
    }

    /** True when {@code r} may hold different values in the threads of a warp. */
    public boolean isDivergent(Reg r) {
        if (r.isZero() || r.file() == RegFile.UR || r.file() == RegFile.UP) {
            return false;
        }
        IntBuffer keys = new IntBuffer();
        keys(r, keys, false);
        for (int i = 0; i < keys.size; i++) {
            if (keys.data[i] >= 0 && divergent.get(keys.data[i])) {
                return true;
            }
        }
        return false;
    }

    /**
     * What decides where the branch ending {@code b} goes: the predicate of a conditional branch, the index register
     * of a jump-table branch; null for none.
     */
    private static Reg guardOfBranch(BasicBlock b) {
        Instr last = b.last();
        if (last != null && last.isIndirectBranch() && last.srcs().get(0).value() instanceof Reg index) {
            return index;
        }
        if (last == null || !last.op().name().equals("BRA") || last.guard().isAlways() || last.branchTarget() == null) {
            return null;
        }
        return last.guard().predicate();
    }

    /** Instructions whose result differs per thread whatever their inputs. */
    static boolean inherentlyDivergent(Instr in) {
        String op = in.op().name();
        switch (op) {
            case "S2R":
                return !blockUniform(specialReg(in));
            case "CS2R", "CS2R_32", "CS2R_64":
                return !"SRZ".equals(specialReg(in));
            case "SHFL", "VOTE", "MATCH", "B2R", "ELECT", "BMOV", "BMOV_R", "CALL", "MOVM":
                return true;
            default:
                break;
        }
        if (op.startsWith("LD")) {
            return !op.equals("LDC");
        }
        return op.startsWith("ATOM") || op.equals("RED") || op.startsWith("SU") || op.startsWith("TEX")
                || op.startsWith("TLD") || op.startsWith("TLD4") || op.startsWith("TXQ");
    }

    /** Special registers equal in every thread of a block: its index in the grid and its rank in its cluster. */
    private static boolean blockUniform(String sr) {
        return sr != null && (sr.startsWith("SR_CTAID") || sr.equals("SR_CgaCtaId"));
    }

    private static String specialReg(Instr in) {
        for (Src s : in.srcs()) {
            if (s.value() instanceof SpecialReg sr) {
                return sr.name();
            }
        }
        return null;
    }

    /**
     * One key per 32-bit register: a virtual register as a whole, a physical tuple per component. With
     * {@code add}, unseen physical components get numbers; otherwise they are -1.
     */
    private void keys(Reg r, IntBuffer out, boolean add) {
        if (r.isZero()) {
            return;
        }
        if (r.virtual()) {
            int k = numbers.of(r);
            if (k >= 0) {
                out.add(k);
            } else {
                // made after the numbering (a query about a new register): keyed like a physical one
                out.add(physicalKey(((long) r.file().ordinal() << 40) | (1L << 39) | r.index(), add));
            }
            return;
        }
        long file = (long) r.file().ordinal() << 40;
        for (int i = 0; i < r.comps(); i++) {
            out.add(physicalKey(file | (r.index() + i), add));
        }
    }

    private int physicalKey(long key, boolean add) {
        Integer k = physical.get(key);
        if (k == null) {
            if (!add) {
                return -1;
            }
            k = numbers.size() + physical.size();
            physical.put(key, k);
        }
        return k;
    }
}
