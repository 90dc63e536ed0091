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
    private final BitSet[] liveIn;
    private final BitSet[] liveOut;
    /**
     * Per key, the parts of the tuple some instruction reads or writes (all of them for a whole reference): a part
     * nothing mentions (its dead writes removed) need not be written for the tuple to count as defined.
     */
    private final int[] mentionedParts;

    public Liveness(FunctionBody body, Cfg cfg) {
        int offset = 0;
        for (RegFile f : RegFile.values()) {
            base[f.ordinal()] = offset;
            offset += body.virtualCount(f);
        }
        width = offset;
        int n = body.blocks().size();
        BitSet[] use = new BitSet[n];
        BitSet[] def = new BitSet[n];
        liveIn = new BitSet[n];
        liveOut = new BitSet[n];
        mentionedParts = new int[width];
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.usedRegs()) {
                    mention(r);
                }
                for (Reg r : in.dsts()) {
                    mention(r);
                }
            }
        }
        // Parts of each tuple written (unguarded) so far in the block: once every part is, the tuple is defined.
        int[] partsWritten = new int[width];
        java.util.List<Integer> touched = new java.util.ArrayList<>();
        for (BasicBlock b : body.blocks()) {
            BitSet u = new BitSet(width);
            BitSet d = new BitSet(width);
            for (Instr in : b.instrs()) {
                for (Reg r : in.usedRegs()) {
                    if (r.virtual() && !d.get(key(r))
                            && (!r.isPart() || (partsWritten[key(r)] & (1 << r.part())) == 0)) {
                        u.set(key(r));
                    }
                }
                if (in.guard().isAlways()) {
                    for (Reg r : in.dsts()) {
                        if (r.virtual() && !r.isPart()) {
                            d.set(key(r));
                        } else if (r.virtual()) {
                            int k = key(r);
                            if (partsWritten[k] == 0) {
                                touched.add(k);
                            }
                            partsWritten[k] |= 1 << r.part();
                            if (allPartsWritten(k, partsWritten[k], r.comps())) {
                                d.set(k);
                            }
                        }
                    }
                }
            }
            for (int k : touched) {
                partsWritten[k] = 0;
            }
            touched.clear();
            use[b.id()] = u;
            def[b.id()] = d;
            liveIn[b.id()] = (BitSet) u.clone();
            liveOut[b.id()] = new BitSet(width);
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
        BitSet scratch = new BitSet(width);
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
            in.andNot(def[b]);
            in.or(use[b]);
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

    /** Dense index of a virtual register across all files. */
    public int key(Reg r) {
        if (!r.virtual()) {
            throw new IllegalArgumentException("liveness tracks virtual registers only: " + r);
        }
        return base[r.file().ordinal()] + r.index();
    }

    public boolean liveIn(int block, Reg r) {
        return liveIn[block].get(key(r));
    }

    public boolean liveOut(int block, Reg r) {
        return liveOut[block].get(key(r));
    }

    public BitSet liveInSet(int block) {
        return (BitSet) liveIn[block].clone();
    }

    public BitSet liveOutSet(int block) {
        return (BitSet) liveOut[block].clone();
    }

    /**
     * The largest number of 32-bit registers of {@code file} live at once in {@code block}, walking it backwards
     * from its live-out set; tuples count their components.
     */
    public int maxPressure(BasicBlock block, RegFile file, Map<Integer, Integer> compsByKey) {
        BitSet live = (BitSet) liveOut[block.id()].clone();
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

    private void mention(Reg r) {
        if (r.virtual()) {
            int k = key(r);
            if (k < width) {
                mentionedParts[k] |= r.isPart() ? 1 << r.part() : (1 << r.comps()) - 1;
            }
        }
    }

    /** Whether {@code written} (a mask of parts) covers every part of tuple {@code k} that the body mentions. */
    public boolean allPartsWritten(int k, int written, int comps) {
        int full = (1 << comps) - 1;
        return ((written | ~mentionedParts[k]) & full) == full;
    }
}
