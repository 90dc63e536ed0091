package org.jptxas.ori.analysis;

import java.util.BitSet;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;

/**
 * Virtual registers that some definition may have reached at each block entry (forward union data flow, keyed
 * like {@link Liveness#key}). A register live but not maybe-defined holds no value yet: whatever its physical
 * register contains is as good as anything, so register allocation need not keep it alive there.
 */
public final class MaybeDefined {
    private final BitSet[] in;
    private final BitSet[] out;
    /**
     * With a universe, the sets number its registers densely: per dense number its key, and per key below the
     * universe's highest its dense number or -1. Sets keyed by register were as wide as the highest key in the
     * universe, per block, in the register allocator most of this analysis's time and allocation. Null without one.
     */
    private final int[] keyOf;
    private final int[] denseOf;

    /** {@code atEntry}: registers defined on entry to the function (incoming values); may be empty. */
    public MaybeDefined(FunctionBody body, Cfg cfg, Liveness keys, BitSet atEntry) {
        this(body, cfg, keys, atEntry, null);
    }

    /**
     * The same, for the registers of {@code universe} only (null: all); the sets hold no other register. The data
     * flow costs blocks times the width of its sets, so a caller that needs only a few registers' answers (the
     * register allocator: those live at the function entry) names them.
     */
    public MaybeDefined(FunctionBody body, Cfg cfg, Liveness keys, BitSet atEntry, BitSet universe) {
        int n = body.blocks().size();
        BitSet[] gen = new BitSet[n];
        in = new BitSet[n];
        out = new BitSet[n];
        // the entry sets sized for the registers of the universe at once: grown by or() block after block, their
        // copies were a large share of the register allocator's allocation
        if (universe != null) {
            keyOf = new int[universe.cardinality()];
            denseOf = new int[universe.length()];
            java.util.Arrays.fill(denseOf, -1);
            int dense = 0;
            for (int k = universe.nextSetBit(0); k >= 0; k = universe.nextSetBit(k + 1)) {
                denseOf[k] = dense;
                keyOf[dense++] = k;
            }
        } else {
            keyOf = null;
            denseOf = null;
        }
        int size = universe != null ? keyOf.length : 0;
        // indexed loops: under C1 every for-each allocates its iterator, per instruction and operand list
        List<BasicBlock> blocks = body.blocks();
        for (int bi = 0; bi < n; bi++) {
            BasicBlock b = blocks.get(bi);
            BitSet g = new BitSet();
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                List<Reg> dsts = instrs.get(i).dsts();
                for (int j = 0; j < dsts.size(); j++) {
                    Reg r = dsts.get(j);
                    if (r.virtual()) {
                        int g0 = dense(keys.key(r));
                        if (g0 >= 0) {
                            g.set(g0);
                        }
                    }
                }
            }
            gen[b.id()] = g;
            in[b.id()] = new BitSet(size);
            out[b.id()] = (BitSet) g.clone();
        }
        if (n == 0) {
            return;
        }
        BitSet entry = new BitSet(size);
        for (int k = atEntry.nextSetBit(0); k >= 0; k = atEntry.nextSetBit(k + 1)) {
            int g0 = dense(k);
            if (g0 >= 0) {
                entry.set(g0);
            }
        }
        in[0].or(entry);
        out[0].or(entry);
        IntQueue work = new IntQueue(n);
        boolean[] queued = new boolean[n];
        for (int b : cfg.reversePostorder()) {
            work.add(b);
            queued[b] = true;
        }
        BitSet scratch = new BitSet(size);
        while (!work.isEmpty()) {
            int b = work.poll();
            queued[b] = false;
            BitSet newIn = in[b]; // only grows: updated in place
            for (int p : cfg.predsView(b)) {
                newIn.or(out[p]);
            }
            BitSet newOut = scratch;
            newOut.clear();
            newOut.or(newIn);
            newOut.or(gen[b]);
            if (!newOut.equals(out[b])) {
                scratch = out[b];
                out[b] = newOut;
                for (int s : cfg.succsView(b)) {
                    if (!queued[s]) {
                        queued[s] = true;
                        work.add(s);
                    }
                }
            }
        }
    }

    /** The set number of register key {@code k}; -1 outside the universe. */
    private int dense(int k) {
        if (denseOf == null) {
            return k;
        }
        return k < denseOf.length ? denseOf[k] : -1;
    }

    /** Removes from {@code keys} the registers some definition may reach at the start of {@code block}. */
    public void removeDefinedAtStart(int block, BitSet keys) {
        if (keyOf == null) {
            keys.andNot(in[block]);
            return;
        }
        // by the keys' members, not the defined set's: the defined sets only grow along the flow and hold most of
        // the universe in most blocks, while few of the keys a caller asks about are in it
        BitSet defined = in[block];
        for (int k = keys.nextSetBit(0); k >= 0; k = keys.nextSetBit(k + 1)) {
            int g = dense(k);
            if (g >= 0 && defined.get(g)) {
                keys.clear(k);
            }
        }
    }

    /**
     * Sets in {@code keys} (not cleared first) the registers of the universe no definition may reach at the end of
     * {@code block}: the universe less {@link #removeDefinedAtEnd}'s registers, found among the few clear bits of a
     * set that holds most of the universe. Only with a universe.
     */
    public void addUndefinedAtEnd(int block, BitSet keys) {
        if (keyOf == null) {
            throw new IllegalStateException("no universe: the undefined registers are unbounded");
        }
        BitSet defined = out[block];
        for (int g = defined.nextClearBit(0); g < keyOf.length; g = defined.nextClearBit(g + 1)) {
            keys.set(keyOf[g]);
        }
    }

    /** Removes from {@code keys} the registers some definition may reach at the end of {@code block}. */
    public void removeDefinedAtEnd(int block, BitSet keys) {
        remove(out[block], keys);
    }

    private void remove(BitSet set, BitSet keys) {
        if (keyOf == null) {
            keys.andNot(set);
            return;
        }
        for (int g = set.nextSetBit(0); g >= 0; g = set.nextSetBit(g + 1)) {
            keys.clear(keyOf[g]);
        }
    }
}
