package org.jptxas.ori.analysis;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * Live virtual registers at block boundaries, by backward data flow over bit sets. Each virtual register is one
 * bit whatever its tuple size. A guarded definition does not kill: the old value survives where the guard is false;
 * neither does a definition of one part of a tuple (the other parts survive), unless the block writes every part
 * before reading the old ones (a 64-bit value computed half by half).
 */
public final class Liveness {
    /** Per register file (by ordinal), the key of its virtual register 0. */
    private final int[] base = new int[RegFile.values().length];
    private final int width;
    /**
     * The data flow runs over the registers some block reads before writing them (only those can be live at a
     * block boundary), numbered densely: on large kernels most registers live within one block, and sets of the
     * function's width per block were most of this analysis's time and allocation. Per key its dense number (-1
     * when never live across blocks), and per dense number its key.
     */
    private final int[] global;
    private final int[] keyOf;
    private final BitSet[] liveIn;
    private final BitSet[] liveOut;
    /**
     * Per key, the parts of the tuple some instruction reads or writes (all of them for a whole reference): a part
     * nothing mentions (its dead writes removed) need not be written for the tuple to count as defined.
     */
    private final int[] mentionedParts;
    /**
     * Per block (by id), the tuples an instruction reads after an earlier instruction of the block wrote a part of
     * them (guarded or not), in the order first read back; null when none. The register allocator's interval walk
     * treats those specially, and finding them here spares it a walk over the body.
     */
    private final int[][] readBack;
    /** The tuples some instruction writes a part of (guarded or not). */
    private final BitSet partWritten;

    public Liveness(FunctionBody body, Cfg cfg) {
        int offset = 0;
        for (RegFile f : RegFile.values()) {
            base[f.ordinal()] = offset;
            offset += body.virtualCount(f);
        }
        width = offset;
        int n = body.blocks().size();
        // per block, the keys it reads before writing and the keys it writes, as arrays: two sets per block grown
        // to the keys' range were most of this analysis's allocation
        int[][] useKeys = new int[n][];
        int[][] defKeys = new int[n][];
        BitSet anyUse = new BitSet(width);
        liveIn = new BitSet[n];
        liveOut = new BitSet[n];
        // One forward scan finds the upward-exposed uses, the definitions and which parts of each tuple the body
        // mentions (a second walk over the body for the mentions alone was a third of this analysis's time). Whether
        // a block's part writes complete a tuple depends on the parts the whole body mentions, so that is decided
        // after the scan from each block's part writes. A whole read needs no such wait: it mentions every part
        // itself, so the tuple is defined before it exactly when every part has been written.
        KeyTables t = new KeyTables(width);
        // indexed loops below: under C1 every for-each allocates its iterator, per instruction and list
        List<BasicBlock> blocks = body.blocks();
        // the keys whose partsWritten entry this block set, to reset them at its end (unboxed: C1 keeps the boxes)
        KeyList touched = new KeyList();
        // per block, the tuples it writes part by part (unguarded) and the parts it writes of each, when any
        int[][] partKeys = new int[n][];
        int[][] partMasks = new int[n][];
        // Per key, the block that last put it in its upward-exposed uses (u) or its whole definitions (d), plus one,
        // and those keys in the order found: width-sized sets cleared and scanned at every block cost time in the
        // number of registers per block, which grows with the function on large kernels.
        KeyList u = new KeyList();
        KeyList d = new KeyList();
        KeyList backs = new KeyList();
        readBack = new int[n][];
        partWritten = new BitSet(width);
        for (int bi = 0; bi < n; bi++) {
            BasicBlock b = blocks.get(bi);
            int stamp = bi + 1;
            u.clear();
            d.clear();
            backs.clear();
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                List<Reg> used = in.usedRegs();
                for (int j = 0; j < used.size(); j++) {
                    Reg r = used.get(j);
                    if (!r.virtual()) {
                        continue;
                    }
                    int k = t.mention(key(r), r);
                    if (t.dStamp[k] != stamp && t.uStamp[k] != stamp && (r.isPart()
                            ? (t.partsWritten[k] & (1 << r.part())) == 0
                            : (t.partsWritten[k] & fullMask(r.comps())) != fullMask(r.comps()))) {
                        t.uStamp[k] = stamp;
                        u.add(k);
                    }
                    if (t.partStamp[k] == stamp && t.backStamp[k] != stamp) {
                        t.backStamp[k] = stamp;
                        backs.add(k);
                    }
                }
                List<Reg> dsts = in.dsts();
                boolean unguarded = in.guard().isAlways();
                for (int j = 0; j < dsts.size(); j++) {
                    Reg r = dsts.get(j);
                    if (!r.virtual()) {
                        continue;
                    }
                    int k = t.mention(key(r), r);
                    if (r.isPart()) {
                        t.partStamp[k] = stamp;
                        partWritten.set(k);
                    }
                    if (!unguarded) {
                        continue;
                    }
                    if (!r.isPart()) {
                        if (t.dStamp[k] != stamp) {
                            t.dStamp[k] = stamp;
                            d.add(k);
                        }
                    } else {
                        if (t.partsWritten[k] == 0) {
                            touched.add(k);
                        }
                        t.partsWritten[k] |= 1 << r.part();
                        t.comps[k] = r.comps();
                    }
                }
            }
            if (touched.size > 0) {
                partKeys[bi] = touched.toArray();
                partMasks[bi] = new int[touched.size];
                for (int i = 0; i < touched.size; i++) {
                    partMasks[bi][i] = t.partsWritten[touched.keys[i]];
                    t.partsWritten[touched.keys[i]] = 0;
                }
                touched.clear();
            }
            if (backs.size > 0) {
                readBack[b.id()] = backs.toArray();
            }
            useKeys[b.id()] = u.toArray();
            defKeys[b.id()] = d.toArray();
            for (int i = 0; i < u.size; i++) {
                anyUse.set(u.keys[i]);
            }
        }
        mentionedParts = t.mentionedParts;
        // a tuple written part by part is defined in its block once the writes cover every part the body mentions
        for (int bi = 0; bi < n; bi++) {
            if (partKeys[bi] == null) {
                continue;
            }
            int stamp = bi + 1;
            d.clear();
            for (int i = 0; i < partKeys[bi].length; i++) {
                int k = partKeys[bi][i];
                if (t.dStamp[k] != stamp && allPartsWritten(k, partMasks[bi][i], t.comps[k])) {
                    d.add(k);
                }
            }
            if (d.size > 0) {
                int id = blocks.get(bi).id();
                int[] whole = defKeys[id];
                int[] all = java.util.Arrays.copyOf(whole, whole.length + d.size);
                System.arraycopy(d.keys, 0, all, whole.length, d.size);
                defKeys[id] = all;
            }
        }
        // (a body built without newVirtual, as tests build them, may name registers past the counted width)
        global = new int[Math.max(width, anyUse.length())];
        java.util.Arrays.fill(global, -1);
        keyOf = new int[anyUse.cardinality()];
        int dense = 0;
        for (int k = anyUse.nextSetBit(0); k >= 0; k = anyUse.nextSetBit(k + 1)) {
            global[k] = dense;
            keyOf[dense++] = k;
        }
        // per block, the dense numbers it reads before writing and those it writes, as arrays: blocks hold a few
        // of them each, and two sets of the dense width per block were a large share of this analysis's allocation
        int[][] use = new int[n][];
        int[][] def = new int[n][];
        for (BasicBlock b : body.blocks()) {
            use[b.id()] = toDense(useKeys[b.id()]);
            def[b.id()] = toDense(defKeys[b.id()]);
            BitSet in = new BitSet(dense);
            for (int g : use[b.id()]) {
                in.set(g);
            }
            liveIn[b.id()] = in;
            liveOut[b.id()] = new BitSet(dense);
        }
        IntQueue work = new IntQueue(n);
        boolean[] queued = new boolean[n];
        int[] rpo = cfg.reversePostorder();
        for (int i = rpo.length - 1; i >= 0; i--) {
            work.add(rpo[i]);
            queued[rpo[i]] = true;
        }
        // sets are recomputed in place and a changed live-in swaps with the scratch set: allocating two sets of the
        // function's width per visit was most of the cost on large kernels
        BitSet scratch = new BitSet(dense);
        while (!work.isEmpty()) {
            int b = work.poll();
            queued[b] = false;
            BitSet out = liveOut[b];
            out.clear();
            for (int s : cfg.succsView(b)) {
                out.or(liveIn[s]);
            }
            BitSet in = scratch;
            in.clear();
            in.or(out);
            int[] defs = def[b];
            for (int i = 0; i < defs.length; i++) {
                in.clear(defs[i]);
            }
            int[] uses = use[b];
            for (int i = 0; i < uses.length; i++) {
                in.set(uses[i]);
            }
            if (!in.equals(liveIn[b])) {
                scratch = liveIn[b];
                liveIn[b] = in;
                for (int p : cfg.predsView(b)) {
                    if (!queued[p]) {
                        queued[p] = true;
                        work.add(p);
                    }
                }
            }
        }
    }

    private static final int[] NONE = new int[0];

    /**
     * The keys of the tuples that an instruction of {@code block} reads after an earlier instruction of the block
     * wrote a part of them (guarded or not), in the order first read back. Not to be modified.
     */
    public int[] readBackAfterPartWrite(int block) {
        return readBack[block] == null ? NONE : readBack[block];
    }

    /** The keys of the tuples some instruction writes a part of (guarded or not); a new set. */
    public BitSet partWrittenSet() {
        return (BitSet) partWritten.clone();
    }

    /** Dense index of a virtual register across all files. */
    public int key(Reg r) {
        if (!r.virtual()) {
            throw new IllegalArgumentException("liveness tracks virtual registers only: " + r);
        }
        return base[r.file().ordinal()] + r.index();
    }

    public boolean liveIn(int block, Reg r) {
        int g = denseOf(key(r));
        return g >= 0 && liveIn[block].get(g);
    }

    public boolean liveOut(int block, Reg r) {
        int g = denseOf(key(r));
        return g >= 0 && liveOut[block].get(g);
    }

    /** Whether the register of {@link #key} {@code k} is live at the start of {@code block}. */
    public boolean liveInKey(int block, int k) {
        int g = denseOf(k);
        return g >= 0 && liveIn[block].get(g);
    }

    /** Whether the register of {@link #key} {@code k} is live at the end of {@code block}. */
    public boolean liveOutKey(int block, int k) {
        int g = denseOf(k);
        return g >= 0 && liveOut[block].get(g);
    }

    /** The keys live at the start of {@code block}; a new set. */
    public BitSet liveInSet(int block) {
        return toKeys(liveIn[block]);
    }

    /** The keys live at the end of {@code block}; a new set. */
    public BitSet liveOutSet(int block) {
        return toKeys(liveOut[block]);
    }

    /** The keys live at the end of {@code block}, into {@code keys} (cleared first): a caller's reused set. */
    public BitSet liveOutInto(int block, BitSet keys) {
        keys.clear();
        return into(liveOut[block], keys);
    }

    private int denseOf(int key) {
        return key < global.length ? global[key] : -1;
    }

    private static int fullMask(int comps) {
        return (1 << comps) - 1;
    }

    /**
     * The scan's per-key tables, grown past the counted width for the registers a body built without newVirtual
     * names (as tests build them).
     */
    private static final class KeyTables {
        int[] uStamp;
        int[] dStamp;
        /** The block that last wrote a part of the key (guarded or not), and that last read it back after. */
        int[] partStamp;
        int[] backStamp;
        /** Parts of each tuple written (unguarded) so far in the block. */
        int[] partsWritten;
        /** Per key, the parts of the tuple some instruction reads or writes (all of them for a whole reference). */
        int[] mentionedParts;
        /** Per tuple written part by part, its number of parts. */
        int[] comps;

        KeyTables(int width) {
            resize(width);
        }

        /** Records that {@code r} (of key {@code k}) is mentioned; returns {@code k}. */
        int mention(int k, Reg r) {
            if (k >= uStamp.length) {
                resize(Math.max(k + 1, 2 * uStamp.length));
            }
            mentionedParts[k] |= r.isPart() ? 1 << r.part() : fullMask(r.comps());
            return k;
        }

        private void resize(int size) {
            uStamp = grown(uStamp, size);
            dStamp = grown(dStamp, size);
            partStamp = grown(partStamp, size);
            backStamp = grown(backStamp, size);
            partsWritten = grown(partsWritten, size);
            mentionedParts = grown(mentionedParts, size);
            comps = grown(comps, size);
        }

        private static int[] grown(int[] a, int size) {
            return a == null ? new int[size] : java.util.Arrays.copyOf(a, size);
        }
    }

    /** Keys in the order added, each once (the caller's stamps see to that). */
    private static final class KeyList {
        int[] keys = new int[16];
        int size;

        void clear() {
            size = 0;
        }

        void add(int k) {
            if (size == keys.length) {
                keys = java.util.Arrays.copyOf(keys, 2 * size);
            }
            keys[size++] = k;
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(keys, size);
        }
    }

    /** The keys of {@code keys} that take part in the data flow, by dense number (each key once, as given). */
    private int[] toDense(int[] keys) {
        int[] d = new int[keys.length];
        int size = 0;
        for (int k : keys) {
            if (k < global.length && global[k] >= 0) {
                d[size++] = global[k];
            }
        }
        return size == d.length ? d : java.util.Arrays.copyOf(d, size);
    }

    private BitSet toKeys(BitSet dense) {
        // sized for its highest key at once: grown bit by bit, the copies were a large share of the allocator's
        // allocation on large kernels
        int n = dense.length();
        BitSet keys = new BitSet(n == 0 ? 0 : keyOf[n - 1] + 1);
        return into(dense, keys);
    }

    /** Sets in {@code keys} the keys of the dense numbers in {@code dense}. */
    private BitSet into(BitSet dense, BitSet keys) {
        for (int g = dense.nextSetBit(0); g >= 0; g = dense.nextSetBit(g + 1)) {
            keys.set(keyOf[g]);
        }
        return keys;
    }

    /**
     * The largest number of 32-bit registers of {@code file} live at once in {@code block}, walking it backwards
     * from its live-out set; tuples count their components.
     */
    public int maxPressure(BasicBlock block, RegFile file, Map<Integer, Integer> compsByKey) {
        BitSet live = liveOutSet(block.id());
        int max = pressure(live, file, compsByKey);
        List<Instr> instrs = block.instrs();
        for (int i = instrs.size() - 1; i >= 0; i--) {
            Instr in = instrs.get(i);
            if (in.guard().isAlways()) {
                for (Reg r : in.dsts()) {
                    if (r.virtual() && !r.isPart()) {
                        live.clear(key(r));
                    }
                }
            }
            for (Reg r : in.usedRegs()) {
                if (r.virtual()) {
                    live.set(key(r));
                }
            }
            max = Math.max(max, pressure(live, file, compsByKey));
        }
        return max;
    }

    private int pressure(BitSet live, RegFile file, Map<Integer, Integer> compsByKey) {
        int from = base[file.ordinal()];
        int to = file.ordinal() + 1 < RegFile.values().length ? base[file.ordinal() + 1] : width;
        int sum = 0;
        for (int k = live.nextSetBit(from); k >= 0 && k < to; k = live.nextSetBit(k + 1)) {
            sum += compsByKey.getOrDefault(k, 1);
        }
        return sum;
    }

    /** Whether {@code written} (a mask of parts) covers every part of tuple {@code k} that the body mentions. */
    public boolean allPartsWritten(int k, int written, int comps) {
        int full = (1 << comps) - 1;
        return ((written | ~mentionedParts[k]) & full) == full;
    }
}
