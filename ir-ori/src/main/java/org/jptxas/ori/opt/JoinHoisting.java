package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;

/**
 * Pure instructions at the join of an if-then ({@code H: @p BRA J; B: ...; J: ...}, B entered only from H and
 * leaving only to J) that neither read what the then-block writes nor write what it reads move up into H, before
 * its branch. They run exactly as often (J follows every run of H and only those), and their latency hides behind
 * the then-block instead of following its reconvergence. Only a loop's latch is such a join: a loop's counter update and exit test at the latch
 * ({@code shr; setp; @p bra} after a guarded body behind a barrier) are ready when the body ends, as ptxas has them.
 */
public final class JoinHoisting implements Pass {
    @Override
    public String name() {
        return "join-hoisting";
    }

    /** A register's identity, parts of one tuple together. */
    private record Key(boolean virtual, Object file, int index) {
        static Key of(Reg r) {
            return new Key(r.virtual(), r.file(), r.index());
        }
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        Cfg cfg = Cfg.of(body);
        boolean changed = false;
        for (BasicBlock h : body.blocks()) {
            Instr branch = h.last();
            if (branch == null || !branch.isTerminator() || branch.guard().isAlways() || !OpInfo.is(branch, "BRA")) {
                continue;
            }
            BlockLabel target = branch.branchTarget();
            int[] succ = cfg.successors(h.id());
            if (target == null || succ.length != 2 || h.id() + 1 >= body.blocks().size()) {
                continue;
            }
            int j = target.block();
            int b = h.id() + 1;
            if (j == b || j == h.id() || b == j || !single(cfg.successors(b), j) || !single(cfg.predecessors(b), h.id())
                    || cfg.predecessors(j).length != 2 || !latch(body.block(j), h)) {
                continue;
            }
            changed |= hoist(h, body.block(b), body.block(j));
        }
        return changed;
    }

    /**
     * Whether {@code join} ends its loop: a branch back to {@code h} or a block before it. Elsewhere the then-block
     * is often long (a slow path) and the hoisted values would stay live across it for little gain.
     */
    private static boolean latch(BasicBlock join, BasicBlock h) {
        Instr last = join.last();
        BlockLabel back = last == null || !last.isTerminator() || !OpInfo.is(last, "BRA") ? null : last.branchTarget();
        return back != null && back.block() <= h.id();
    }

    private static boolean single(int[] list, int x) {
        return list.length == 1 && list[0] == x;
    }

    private static boolean hoist(BasicBlock h, BasicBlock then, BasicBlock join) {
        Set<Key> thenWrites = new HashSet<>();
        Set<Key> thenReads = new HashSet<>();
        for (Instr in : then.instrs()) {
            in.dsts().forEach(d -> thenWrites.add(Key.of(d)));
            in.usedRegs().forEach(u -> thenReads.add(Key.of(u)));
        }
        Set<Key> branchReads = new HashSet<>();
        h.last().usedRegs().forEach(u -> branchReads.add(Key.of(u)));
        Set<Key> stayWrites = new HashSet<>();
        Set<Key> stayReads = new HashSet<>();
        List<Instr> moved = new ArrayList<>();
        for (Instr in : join.instrs()) {
            if (movable(in, thenWrites, thenReads, branchReads, stayWrites, stayReads)) {
                moved.add(in);
            } else {
                in.dsts().forEach(d -> stayWrites.add(Key.of(d)));
                in.usedRegs().forEach(u -> stayReads.add(Key.of(u)));
            }
        }
        if (moved.isEmpty()) {
            return false;
        }
        join.instrs().removeAll(moved);
        h.instrs().addAll(h.instrs().size() - 1, moved);
        return true;
    }

    private static boolean movable(Instr in, Set<Key> thenWrites, Set<Key> thenReads, Set<Key> branchReads,
            Set<Key> stayWrites, Set<Key> stayReads) {
        if (in.isTerminator() || !OpInfo.isRepeatable(in) || OpInfo.is(in, "S2R") || OpInfo.is(in, "CS2R")
                || OpInfo.is(in, "LDC") || OpInfo.is(in, "S2UR")) {
            return false;
        }
        for (Reg d : in.dsts()) {
            if (d.isZero()) {
                continue;
            }
            Key k = Key.of(d);
            if (!d.virtual() || thenWrites.contains(k) || thenReads.contains(k) || branchReads.contains(k)
                    || stayWrites.contains(k) || stayReads.contains(k)) {
                return false;
            }
        }
        for (Reg u : in.usedRegs()) {
            if (u.isZero()) {
                continue;
            }
            Key k = Key.of(u);
            if (!u.virtual() || thenWrites.contains(k) || stayWrites.contains(k)) {
                return false;
            }
        }
        return true;
    }
}
