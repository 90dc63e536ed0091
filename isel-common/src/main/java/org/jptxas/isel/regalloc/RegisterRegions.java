package org.jptxas.isel.regalloc;

import java.util.List;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.RegFile;

/**
 * Per-region general register counts of a function that changes its warps' register allocation
 * ({@code USETMAXREG.DEALLOC/TRY_ALLOC.CTAPOOL N}, from {@code setmaxnreg}): from the entry the count is the
 * function's limit; after a USETMAXREG it is that instruction's N, until the next one. Where paths with different
 * counts join, the smaller holds. A value may sit only in registers below the count (less the two ptxas keeps for
 * itself, as for the function's limit) at every position it is live: one live across a DEALLOC stays below its N.
 * Positions are {@link IntervalBuilder}'s (instruction {@code i} of the layout reads at {@code 2i}, writes at
 * {@code 2i+1}).
 */
final class RegisterRegions {
    /** Per position, the highest general register a value live there may use. */
    private final int[][] sparse;

    private RegisterRegions(int[] highest) {
        int n = highest.length;
        int levels = 1;
        while ((1 << levels) <= n) {
            levels++;
        }
        sparse = new int[levels][];
        sparse[0] = highest;
        for (int l = 1; l < levels; l++) {
            int half = 1 << (l - 1);
            int[] prev = sparse[l - 1];
            int[] cur = new int[Math.max(0, n - (1 << l) + 1)];
            for (int i = 0; i < cur.length; i++) {
                cur[i] = Math.min(prev[i], prev[i + half]);
            }
            sparse[l] = cur;
        }
    }

    /** Whether the body changes its register allocation anywhere. */
    static boolean present(FunctionBody body) {
        return maximum(body) > 0;
    }

    /** The largest count a USETMAXREG of the body grants, or 0 when there is none. */
    static int maximum(FunctionBody body) {
        int max = 0;
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                int n = count(in);
                max = Math.max(max, n);
            }
        }
        return max;
    }

    /** The count a USETMAXREG sets, or 0 for any other instruction. */
    private static int count(Instr in) {
        if (!in.op().name().equals("USETMAXREG") || in.srcs().isEmpty() || !(in.srcs().get(0).value() instanceof Imm i)) {
            return 0;
        }
        return (int) i.bits();
    }

    /** The regions of {@code body}, entered with {@code entryCount} registers. */
    static RegisterRegions of(FunctionBody body, int entryCount) {
        List<BasicBlock> blocks = body.blocks();
        Cfg cfg = Cfg.of(body);
        int nb = blocks.size();
        int[] in = new int[nb];
        int[] out = new int[nb];
        java.util.Arrays.fill(in, Integer.MAX_VALUE);
        java.util.Arrays.fill(out, Integer.MAX_VALUE);
        if (nb > 0) {
            in[0] = entryCount;
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int b = 0; b < nb; b++) {
                int v = b == 0 ? entryCount : Integer.MAX_VALUE;
                for (int p : cfg.predecessors(b)) {
                    v = Math.min(v, out[p]);
                }
                if (b == 0) {
                    v = Math.min(v, entryCount);
                }
                int o = v;
                for (Instr ins : blocks.get(b).instrs()) {
                    int c = count(ins);
                    if (c > 0) {
                        o = c;
                    }
                }
                if (v != in[b] || o != out[b]) {
                    in[b] = v;
                    out[b] = o;
                    changed = true;
                }
            }
        }
        int positions = 0;
        for (BasicBlock b : blocks) {
            positions += 2 * b.instrs().size();
        }
        int[] highest = new int[Math.max(1, positions)];
        java.util.Arrays.fill(highest, Integer.MAX_VALUE);
        int pos = 0;
        for (int b = 0; b < nb; b++) {
            int cur = in[b];
            for (Instr ins : blocks.get(b).instrs()) {
                int c = count(ins);
                if (c > 0) {
                    // a value live across a DEALLOC must already be below N; one live across a TRY_ALLOC below the
                    // smaller of the two counts (the attempt may fail)
                    int here = Math.min(cur, c);
                    highest[pos] = top(here);
                    highest[pos + 1] = top(here);
                    cur = c;
                } else {
                    highest[pos] = top(cur);
                    highest[pos + 1] = top(cur);
                }
                pos += 2;
            }
        }
        return new RegisterRegions(highest);
    }

    private static int top(int count) {
        return count == Integer.MAX_VALUE ? Integer.MAX_VALUE : count - RegisterLimits.EXTRA_COUNTED - 1;
    }

    /** The highest general register allowed over positions [from, to). */
    int highest(int from, int to) {
        int n = sparse[0].length;
        from = Math.max(0, from);
        to = Math.min(n, to);
        if (from >= to) {
            return Integer.MAX_VALUE;
        }
        int l = 31 - Integer.numberOfLeadingZeros(to - from);
        return Math.min(sparse[l][from], sparse[l][to - (1 << l)]);
    }

    /** Sets each general register interval's highest allowed register (precoloured ones keep theirs). */
    void limit(LiveInterval[] intervals) {
        for (LiveInterval iv : intervals) {
            if (iv != null && iv.file == RegFile.R && iv.fixed < 0 && !iv.isEmpty()) {
                iv.highest = iv.highestOver(this::highest);
            }
        }
    }
}
