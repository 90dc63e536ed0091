package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.VirtualNumbering;

/**
 * Gives every web of a virtual register its own register: the definitions that reach a common read (and the reads
 * they reach) stay together, unrelated reuses of one PTX register get fresh names. NVVM reuses registers across
 * an {@code mma} ({@code {%f9..}} in, {@code {%f9..}} out) and across unrolled copies; with one name per value those
 * become single definitions, which copy propagation, fragment sharing and tuple coalescing need.
 *
 * <p>A definition that leaves part of the register's old value (guarded, or writing one part of a tuple) joins the
 * web of the definitions it does not kill. The web that the function's entry reaches (a read before any write)
 * keeps the name; so does the first web of a register that has none. A register read before any write on some
 * path is left whole. Two adjacent unguarded instructions that write the two halves of a pair ({@link #pairStart})
 * kill it together when the pair is a constant bank's index somewhere, the first one starting the new web: the second
 * reads the old half it replaces (the carry of a 64-bit add), and an unrolled walk over a constant table
 * ({@code ld.const [%rd]; add.s64 %rd, %rd, 4}) then gets one pair per copy, whose addresses constant folding follows
 * (ptxas 13 reads {@code c[0x3][0x4]}, {@code c[0x3][0x8]}, ...). A pointer into memory stays one pair stepped in
 * place, whose increments {@link AddressIncrements} moves into the accesses' offsets. Predicates are left as they
 * are: a single-definition predicate folds into forms (a PLOP3 reading !PT) that not every target encodes.
 */
public final class WebSplitting implements Pass {
    @Override
    public String name() {
        return "webs";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        // one walk checks the branches and finds the highest virtual index per file, for the numbering and for
        // fresh names; indexed loops, as C1 allocates an iterator per for-each
        List<BasicBlock> bodyBlocks = body.blocks();
        int[] maxIndex = VirtualNumbering.newCounts();
        Set<Reg> tableIndices = new java.util.HashSet<>();
        for (int bi = 0; bi < bodyBlocks.size(); bi++) {
            List<Instr> instrs = bodyBlocks.get(bi).instrs();
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr in = instrs.get(ii);
                String op = in.op().name();
                if ((op.equals("BRX") || op.equals("JMX")) && in.branchTargets().isEmpty()) {
                    return false; // targets the CFG does not list: reaching definitions would be incomplete
                }
                List<Reg> dsts = in.dsts();
                for (int di = 0; di < dsts.size(); di++) {
                    VirtualNumbering.see(dsts.get(di), maxIndex);
                }
                List<Reg> used = in.usedRegs();
                for (int ui = 0; ui < used.size(); ui++) {
                    VirtualNumbering.see(used.get(ui), maxIndex);
                }
                List<Src> srcs = in.srcs();
                for (int si = 0; si < srcs.size(); si++) {
                    if (srcs.get(si).value() instanceof CBank c && c.index() != null) {
                        tableIndices.add(c.index().whole());
                    }
                }
            }
        }
        VirtualNumbering num = new VirtualNumbering(body, maxIndex);
        // Only a register with two killing definitions (unguarded writes of the whole register) can have two webs:
        // the definitions that keep part of the old value join whatever reaches them, so with at most one killing
        // definition every definition and read joins the entry's web or that one definition's, and either the
        // entry's web is used (the register stays whole) or the killing definition's web is the only one (it keeps
        // the name). Leaving the others out of the analysis changes no name; the analysis is a bit set per block
        // over every candidate's definitions, and re-run after every change, most of this pass's time.
        int[] killingDefs = new int[num.size()];
        Map<Instr, Reg> pairStarts = new java.util.IdentityHashMap<>();
        for (int bi = 0; bi < bodyBlocks.size(); bi++) {
            List<Instr> instrs = bodyBlocks.get(bi).instrs();
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr in = instrs.get(ii);
                if (!in.guard().isAlways()) {
                    continue;
                }
                Reg pair = pairStart(instrs, ii);
                if (pair != null && tableIndices.contains(pair)) {
                    pairStarts.put(in, pair);
                    killingDefs[num.of(pair)]++;
                }
                List<Reg> dsts = in.dsts();
                for (int di = 0; di < dsts.size(); di++) {
                    Reg d = dsts.get(di);
                    if (d.virtual() && !d.isPart()) {
                        killingDefs[num.of(d)]++;
                    }
                }
            }
        }
        // Candidates (registers with two killing definitions) get dense numbers c; definition id c is the entry's.
        int[] cand = new int[num.size()];
        List<Reg> regs = new ArrayList<>();
        for (int i = 0; i < cand.length; i++) {
            cand[i] = -1;
        }
        for (int bi = 0; bi < bodyBlocks.size(); bi++) {
            List<Instr> instrs = bodyBlocks.get(bi).instrs();
            for (int ii = 0; ii < instrs.size(); ii++) {
                List<Reg> dsts = instrs.get(ii).dsts();
                for (int di = 0; di < dsts.size(); di++) {
                    Reg d = dsts.get(di);
                    int k = d.virtual() ? num.of(d) : -1;
                    if (k >= 0 && killingDefs[k] > 1 && cand[k] < 0 && !d.file().isPredicate()) {
                        cand[k] = regs.size();
                        regs.add(d.whole());
                    }
                }
            }
        }
        int nc = regs.size();
        if (nc == 0) {
            return false;
        }
        // Real definitions: one id per (instruction, written candidate), numbered candidate by candidate (the
        // entry's id c, then c's definitions in instruction order from first[c]), so that a candidate's definitions
        // are one range of the bit sets: killing them, or finding those that reach a read, costs that candidate's
        // definitions, not the whole function's. inOrder lists the ids in instruction order, the order names are
        // given in.
        int[] defsPer = new int[nc];
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg d : in.dsts()) {
                    int c = candidate(d, num, cand);
                    if (c >= 0) {
                        defsPer[c]++;
                    }
                }
            }
        }
        int[] first = new int[nc + 1];
        first[0] = nc;
        for (int c = 0; c < nc; c++) {
            first[c + 1] = first[c] + defsPer[c];
        }
        int nd = first[nc];
        int[] next = java.util.Arrays.copyOf(first, nc);
        int[] defCand = new int[nd];
        boolean[] killing = new boolean[nd];
        int[] inOrder = new int[nd - nc];
        int seenDefs = 0;
        for (int c = 0; c < nc; c++) {
            defCand[c] = c;
            killing[c] = true;
        }
        // per block (by position in the body) and instruction: the definition ids of its written candidates
        List<BasicBlock> blocks = body.blocks();
        int[][][] defIds = new int[blocks.size()][][];
        for (int bi = 0; bi < blocks.size(); bi++) {
            List<Instr> instrs = blocks.get(bi).instrs();
            defIds[bi] = new int[instrs.size()][];
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr in = instrs.get(ii);
                int[] ids = null;
                List<Reg> d = in.dsts();
                for (int s = 0; s < d.size(); s++) {
                    int c = candidate(d.get(s), num, cand);
                    if (c >= 0) {
                        if (ids == null) {
                            ids = new int[d.size()];
                            java.util.Arrays.fill(ids, -1);
                        }
                        int id = next[c]++;
                        ids[s] = id;
                        defCand[id] = c;
                        killing[id] = in.guard().isAlways()
                                && (!d.get(s).isPart() || d.get(s).whole().equals(pairStarts.get(in)));
                        inOrder[seenDefs++] = id;
                    }
                }
                defIds[bi][ii] = ids;
            }
        }
        Cfg cfg = Cfg.of(body);
        int n = body.blocks().size();
        BitSet[] gen = new BitSet[n];
        BitSet[] kill = new BitSet[n];
        for (int bi = 0; bi < blocks.size(); bi++) {
            BasicBlock b = blocks.get(bi);
            BitSet g = new BitSet(nd);
            BitSet k = new BitSet(nd);
            for (int[] ids : defIds[bi]) {
                if (ids == null) {
                    continue;
                }
                for (int id : ids) {
                    if (id < 0) {
                        continue;
                    }
                    if (killing[id]) {
                        int c = defCand[id];
                        g.clear(c);
                        g.clear(first[c], first[c + 1]);
                        k.set(c);
                        k.set(first[c], first[c + 1]);
                    }
                    g.set(id);
                }
            }
            gen[b.id()] = g;
            kill[b.id()] = k;
        }
        BitSet[] in = new BitSet[n];
        BitSet[] out = new BitSet[n];
        for (int b = 0; b < n; b++) {
            in[b] = new BitSet(nd);
            out[b] = (BitSet) gen[b].clone();
        }
        in[0].set(0, nc);
        // sets are recomputed in place, a changed out set swapping with the scratch one: a fresh set of every
        // definition per block and round was most of this pass's allocation on large kernels
        BitSet scratch = new BitSet(nd);
        // A worklist in reverse postorder: after the first visit, only blocks whose predecessors' out sets changed
        // are computed again (whole sweeps recomputed every block until one sweep changed none). The least fixed
        // point is the same either way.
        int[] rpo = cfg.reversePostorder();
        int[] queue = new int[n];
        boolean[] queued = new boolean[n];
        int head = 0;
        int queuedCount = 0;
        for (int b : rpo) {
            queue[queuedCount++] = b;
            queued[b] = true;
        }
        while (queuedCount > 0) {
            int b = queue[head];
            head = (head + 1) % n;
            queuedCount--;
            queued[b] = false;
            BitSet i = in[b];
            if (b != 0) {
                i.clear(); // the entry's set keeps its entry definitions and only grows
            }
            for (int p : cfg.predecessors(b)) {
                i.or(out[p]);
            }
            BitSet o = scratch;
            o.clear();
            o.or(i);
            o.andNot(kill[b]);
            o.or(gen[b]);
            if (!o.equals(out[b])) {
                scratch = out[b];
                out[b] = o;
                for (int s : cfg.successors(b)) {
                    if (!queued[s]) {
                        queued[s] = true;
                        queue[(head + queuedCount) % n] = s;
                        queuedCount++;
                    }
                }
            }
        }
        // Join each read's reaching definitions, and each partial definition with those it keeps.
        int[] parent = new int[nd];
        for (int i = 0; i < nd; i++) {
            parent[i] = i;
        }
        // per block and instruction: (candidate, a reaching definition) per read candidate
        int[][][] useDef = new int[blocks.size()][][];
        BitSet cur = new BitSet(nd);
        for (int bi = 0; bi < blocks.size(); bi++) {
            BasicBlock b = blocks.get(bi);
            cur.clear();
            cur.or(in[b.id()]);
            List<Instr> instrs = b.instrs();
            useDef[bi] = new int[instrs.size()][];
            // a pair's second half reads the old half it replaces: the web that reached the pair's first write
            int pairCand = -1;
            int pairOld = -1;
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr ins = instrs.get(ii);
                int[] reads = null;
                List<Reg> used = ins.usedRegs();
                for (int ui = 0; ui < used.size(); ui++) {
                    int c = candidate(used.get(ui), num, cand);
                    if (c < 0) {
                        continue;
                    }
                    int any = c == pairCand ? pairOld : joinReaching(cur, first, parent, c);
                    reads = reads == null ? new int[2] : java.util.Arrays.copyOf(reads, reads.length + 2);
                    reads[reads.length - 2] = c;
                    reads[reads.length - 1] = any;
                }
                useDef[bi][ii] = reads;
                Reg pair = pairStarts.get(ins);
                pairCand = pair == null ? -1 : candidate(pair, num, cand);
                if (pairCand >= 0) {
                    pairOld = joinReaching(cur, first, parent, pairCand);
                }
                int[] ids = defIds[bi][ii];
                if (ids == null) {
                    continue;
                }
                for (int id : ids) {
                    if (id < 0) {
                        continue;
                    }
                    int c = defCand[id];
                    if (killing[id]) {
                        cur.clear(c);
                        cur.clear(first[c], first[c + 1]);
                    } else {
                        union(parent, id, joinReaching(cur, first, parent, c));
                    }
                    cur.set(id);
                }
            }
        }
        // Name the webs: the entry's web (or the first one met) keeps the register.
        Map<Integer, Reg> names = new java.util.HashMap<>();
        boolean[] named = new boolean[nc];
        boolean[] entryUsed = new boolean[nc];
        for (int[][] block : useDef) {
            for (int[] u : block) {
                for (int i = 0; u != null && i < u.length; i += 2) {
                    if (find(parent, u[i + 1]) == find(parent, u[i])) {
                        entryUsed[u[i]] = true;
                    }
                }
            }
        }
        for (int id = nc; id < nd; id++) {
            if (find(parent, id) == find(parent, defCand[id])) {
                entryUsed[defCand[id]] = true;
            }
        }
        for (int c = 0; c < nc; c++) {
            if (entryUsed[c]) {
                names.put(find(parent, c), regs.get(c));
                named[c] = true;
            }
        }
        boolean changed = false;
        for (int id : inOrder) {
            int root = find(parent, id);
            if (names.containsKey(root)) {
                continue;
            }
            int c = defCand[id];
            Reg r = regs.get(c);
            if (entryUsed[c]) {
                // read before any write on some path: the register stays whole (a web without a write would
                // read a register nothing defines)
                names.put(root, r);
            } else if (!named[c]) {
                named[c] = true;
                names.put(root, r);
            } else {
                names.put(root, fresh(body, r, maxIndex));
                changed = true;
            }
        }
        if (!changed) {
            return false;
        }
        for (int bi = 0; bi < blocks.size(); bi++) {
            List<Instr> instrs = blocks.get(bi).instrs();
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr ins = instrs.get(ii);
                int[] u = useDef[bi][ii];
                if (u != null) {
                    for (int i = 0; i < u.length; i += 2) {
                        Reg to = names.get(find(parent, u[i + 1]));
                        Reg from = regs.get(u[i]);
                        if (to != null && !to.equals(from)) {
                            Rewrites.replaceUses(ins, from, to);
                        }
                    }
                }
                int[] ids = defIds[bi][ii];
                if (ids != null) {
                    List<Reg> d = ins.dsts();
                    for (int s = 0; s < ids.length; s++) {
                        if (ids[s] >= 0) {
                            Reg to = names.get(find(parent, ids[s]));
                            Reg old = d.get(s);
                            d.set(s, old.isPart() ? to.component(old.part()) : to);
                        }
                    }
                }
            }
        }
        return true;
    }

    /**
     * The pair whose one half instruction {@code ii} writes when the next instruction writes the other half: both
     * unguarded, each writing one half, and the second reading the pair only as the half it writes (its old value).
     * Together they replace the whole pair, so the first write starts a new web; null otherwise.
     */
    private static Reg pairStart(List<Instr> instrs, int ii) {
        if (ii + 1 >= instrs.size()) {
            return null;
        }
        Instr first = instrs.get(ii);
        Instr second = instrs.get(ii + 1);
        if (!first.guard().isAlways() || !second.guard().isAlways()) {
            return null;
        }
        Reg half = null;
        for (Reg d : first.dsts()) {
            if (d.virtual() && d.isPart() && d.comps() == 2 && !d.file().isPredicate()) {
                if (half != null) {
                    return null;
                }
                half = d;
            }
        }
        if (half == null) {
            return null;
        }
        Reg other = half.whole().component(1 - half.part());
        int written = 0;
        for (Reg d : second.dsts()) {
            if (d.sameRegister(half)) {
                if (!d.equals(other)) {
                    return null;
                }
                written++;
            }
        }
        for (Reg d : first.dsts()) {
            if (d != half && d.sameRegister(half)) {
                return null;
            }
        }
        if (written != 1) {
            return null;
        }
        for (Reg u : second.usedRegs()) {
            if (u.sameRegister(half) && !u.equals(other)) {
                return null;
            }
        }
        return half.whole();
    }

    /** A register no instruction names yet (bodies built without newVirtual, as tests build them, included). */
    private static Reg fresh(FunctionBody body, Reg like, int[] maxIndex) {
        Reg r = body.newVirtual(like.file(), like.comps());
        while (r.index() < maxIndex[like.file().ordinal()]) {
            r = body.newVirtual(like.file(), like.comps());
        }
        return r;
    }

    private static int candidate(Reg r, VirtualNumbering num, int[] cand) {
        if (!r.virtual()) {
            return -1;
        }
        int k = num.of(r);
        return k < 0 ? -1 : cand[k];
    }

    /**
     * Unites the definitions of candidate {@code c} in {@code cur} (its entry id c and its range from
     * {@code firstDef[c]}); returns one of them (the entry's id {@code c} when none reaches, as in an unreachable
     * block, so the read keeps the name).
     */
    private static int joinReaching(BitSet cur, int[] firstDef, int[] parent, int c) {
        int found = cur.get(c) ? c : -1;
        int end = firstDef[c + 1];
        for (int id = cur.nextSetBit(firstDef[c]); id >= 0 && id < end; id = cur.nextSetBit(id + 1)) {
            if (found < 0) {
                found = id;
            } else {
                union(parent, found, id);
            }
        }
        return found < 0 ? c : found;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }
}
