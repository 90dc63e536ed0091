package org.jptxas.ori.opt;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Dominators;
import org.jptxas.ori.analysis.LoopNesting;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * A move of a constant (an immediate or a fixed constant-bank word) whose readers are all in one later block moves
 * to just before the first of them, as ptxas places it: {@code ld.param} of a bound checked before a branch and
 * stored after it is {@code MOV R5, c[0x0][0x168]} next to the {@code STG}, where the compare reads the bank itself.
 * The register then lives only where it is read. A move never goes into a loop its block is not in.
 */
public final class ConstantMoveSinking implements Pass {
    @Override
    public String name() {
        return "constant-sinking";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = null;
        Map<Instr, Integer> blockOf = null;
        LoopNesting loops = null;
        Cfg cfg = null;
        Dominators dominators = null;
        boolean changed = false;
        List<BasicBlock> blocks = body.blocks();
        for (int b = 0; b < blocks.size(); b++) {
            List<Instr> is = blocks.get(b).instrs();
            for (int i = 0; i < is.size(); i++) {
                Instr mov = is.get(i);
                if (!constantMove(mov)) {
                    continue;
                }
                if (sd == null) {
                    sd = cx.singleDefs(body);
                    blockOf = blockIndex(blocks);
                    cfg = Cfg.of(body);
                    dominators = new Dominators(cfg);
                    loops = new LoopNesting(cfg, dominators);
                }
                Reg d = mov.dsts().get(0);
                if (sd.soleDef(d) != mov) {
                    continue;
                }
                int target = readersBlock(sd.uses(d), blockOf);
                if (target < 0 || target == b || !outsideOtherLoops(cfg, dominators, loops, b, target)) {
                    continue;
                }
                List<Instr> into = blocks.get(target).instrs();
                int at = 0;
                while (!Rewrites.reads(into.get(at), d)) {
                    at++;
                }
                is.remove(i--);
                into.add(at, mov);
                changed = true;
            }
        }
        return changed;
    }

    /** An unguarded {@code MOV} of an immediate or a fixed constant-bank word into a 32-bit virtual register. */
    private static boolean constantMove(Instr in) {
        Src src = OpInfo.movSource(in);
        if (src == null || src.hasModifiers() || !in.guard().isAlways()) {
            return false;
        }
        Reg d = in.dsts().get(0);
        return d.virtual() && d.file() == RegFile.R && d.comps() == 1 && !d.isPart()
                && (src.value() instanceof Imm || src.value() instanceof CBank c && c.index() == null);
    }

    /** The one block all {@code readers} are in, or -1. */
    private static int readersBlock(List<Instr> readers, Map<Instr, Integer> blockOf) {
        int block = -1;
        for (Instr r : readers) {
            Integer at = blockOf.get(r);
            if (at == null || block >= 0 && at != block) {
                return -1;
            }
            block = at;
        }
        return block;
    }

    /**
     * Whether every loop holding {@code target} also holds {@code from}, so the move runs no more often there:
     * natural loops nest, so it is enough that {@code from} is in {@code target}'s innermost loop.
     */
    private static boolean outsideOtherLoops(Cfg cfg, Dominators dominators, LoopNesting loops, int from, int target) {
        int header = loops.innermostHeader(target);
        return header < 0 || LoopNesting.naturalLoop(cfg, dominators, header).get(from);
    }

    private static Map<Instr, Integer> blockIndex(List<BasicBlock> blocks) {
        Map<Instr, Integer> at = new IdentityHashMap<>();
        for (int b = 0; b < blocks.size(); b++) {
            for (Instr in : blocks.get(b).instrs()) {
                at.put(in, b);
            }
        }
        return at;
    }
}
