package org.jptxas.ori.opt;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;

/**
 * For {@link LocalArrayPromotion}: the frame words some later load may still read after each store at a computed
 * offset (a load at a computed offset reads every word; a store at a known word overwrites it). A computed store
 * needs no compare and copy for the other words: nvcc's sinf reduction stores its last word at a computed offset in
 * its loop and then again at a known offset after the loop, before any load, and ptxas 13 compares for six words
 * in that loop, not seven.
 */
final class FrameWordLiveness {
    private FrameWordLiveness() {
    }

    /**
     * The words live after each computed store of {@code body}; {@code at} gives each access's known frame offset
     * (absent: computed).
     */
    static Map<Instr, BitSet> afterComputedStores(FunctionBody body, Map<Instr, Long> at, int words) {
        List<BasicBlock> blocks = body.blocks();
        Cfg cfg = Cfg.of(body);
        BitSet[] liveIn = new BitSet[blocks.size()];
        for (int i = 0; i < liveIn.length; i++) {
            liveIn[i] = new BitSet(words);
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = blocks.size() - 1; i >= 0; i--) {
                BitSet live = liveOut(cfg, liveIn, i, words);
                List<Instr> code = blocks.get(i).instrs();
                for (int j = code.size() - 1; j >= 0; j--) {
                    step(code.get(j), at, live, words);
                }
                if (!live.equals(liveIn[i])) {
                    liveIn[i] = live;
                    changed = true;
                }
            }
        }
        Map<Instr, BitSet> after = new HashMap<>();
        for (int i = 0; i < blocks.size(); i++) {
            BitSet live = liveOut(cfg, liveIn, i, words);
            List<Instr> code = blocks.get(i).instrs();
            for (int j = code.size() - 1; j >= 0; j--) {
                Instr in = code.get(j);
                if (OpInfo.is(in, "STL") && at.get(in) == null) {
                    after.put(in, (BitSet) live.clone());
                }
                step(in, at, live, words);
            }
        }
        return after;
    }

    private static BitSet liveOut(Cfg cfg, BitSet[] liveIn, int block, int words) {
        BitSet out = new BitSet(words);
        for (int s : cfg.successors(block)) {
            out.or(liveIn[s]);
        }
        return out;
    }

    /** {@code live} before {@code in} from {@code live} after it. */
    private static void step(Instr in, Map<Instr, Long> at, BitSet live, int words) {
        if (!LocalArrayPromotion.isAccess(in)) {
            return;
        }
        Long offset = at.get(in);
        if (OpInfo.is(in, "LDL")) {
            if (offset == null) {
                live.set(0, words);
            } else {
                live.set((int) (offset / 4));
            }
        } else if (offset != null) {
            live.clear((int) (offset / 4));
        }
    }
}
