package org.jptxas.ori.analysis;

import java.util.BitSet;
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
        int size = universe != null ? universe.length() : 0;
        for (BasicBlock b : body.blocks()) {
            BitSet g = new BitSet();
            for (Instr i : b.instrs()) {
                for (Reg r : i.dsts()) {
                    // outside the universe not even set for a moment: the set would grow to the function's width
                    if (r.virtual() && (universe == null || universe.get(keys.key(r)))) {
                        g.set(keys.key(r));
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
        BitSet entry = (BitSet) atEntry.clone();
        if (universe != null) {
            entry.and(universe);
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

    /** Registers some definition may reach at the start of {@code block}; do not modify. */
    public BitSet inView(int block) {
        return in[block];
    }

    /** Registers some definition may reach at the end of {@code block}; do not modify. */
    public BitSet outView(int block) {
        return out[block];
    }
}
