package org.jptxas.ori.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Checks the structural invariants every pass must keep (run between passes with {@code --verify-ir}). Returns
 * the problems found, each naming the block and instruction; an empty list means the body is well formed.
 */
public final class IrVerifier {
    private IrVerifier() {}

    public static List<String> verify(String function, FunctionBody body) {
        List<String> problems = new ArrayList<>();
        int n = body.blocks().size();
        if (n == 0) {
            problems.add(function + ": no blocks");
            return problems;
        }
        Map<String, Integer> comps = new HashMap<>();
        Set<String> defined = new HashSet<>();
        Set<String> used = new HashSet<>();
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                String where = function + ": " + b + " #" + i + " (" + in + ")";
                if (in.isTerminator() && in.guard().isAlways() && i != instrs.size() - 1) {
                    problems.add(where + ": unconditional " + in.op().name() + " is not the last instruction");
                }
                for (Src s : in.srcs()) {
                    if (s.value() instanceof BlockLabel l && (l.block() < 0 || l.block() >= n)) {
                        problems.add(where + ": branch to missing block bb" + l.block());
                    }
                }
                for (Reg r : in.dsts()) {
                    if (r.isZero()) {
                        continue;
                    }
                    checkReg(where, r, body, comps, problems);
                    if (r.virtual()) {
                        defined.add(key(r));
                    }
                }
                for (Reg r : in.usedRegs()) {
                    checkReg(where, r, body, comps, problems);
                    if (r.virtual()) {
                        used.add(key(r));
                    }
                }
            }
        }
        BasicBlock lastBlock = body.blocks().get(n - 1);
        Instr last = lastBlock.last();
        // an emptied last block nothing reaches (its code moved up behind its only predecessor) falls nowhere
        boolean labelsResolve = problems.stream().noneMatch(p -> p.contains("branch to missing block"));
        if ((last == null || !last.endsControl()) && (n == 1 || !labelsResolve || Cfg.of(body).isReachable(n - 1))) {
            problems.add(function + ": " + lastBlock + " falls off the end of the function");
        }
        for (String u : used) {
            if (!defined.contains(u)) {
                problems.add(function + ": virtual register " + u + " is used but never defined");
            }
        }
        return problems;
    }

    private static void checkReg(String where, Reg r, FunctionBody body, Map<String, Integer> comps,
            List<String> problems) {
        if (!r.virtual()) {
            return;
        }
        if (r.index() >= body.virtualCount(r.file())) {
            problems.add(where + ": " + r + " was not allocated by the function body");
        }
        Integer previous = comps.putIfAbsent(key(r), r.comps());
        if (previous != null && previous != r.comps()) {
            problems.add(where + ": " + key(r) + " used with " + r.comps() + " components, elsewhere " + previous);
        }
    }

    private static String key(Reg r) {
        return "%" + r.file().prefix().toLowerCase() + r.index();
    }
}
