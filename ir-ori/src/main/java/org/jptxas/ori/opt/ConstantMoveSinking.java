package org.jptxas.ori.opt;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
        LoopNesting loops = null;
        // the body of each loop asked about, by header (a large kernel asks about one loop for many moves)
        Map<Integer, BitSet> loopBodies = new HashMap<>();
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
                    loops = new LoopNesting(sd.cfg(), sd.dominators());
                }
                Reg d = mov.dsts().get(0);
                // a part of a pair (a 64-bit constant moved as .lo and .hi) moves by itself to the same place as the
                // other part when that is a constant's move too: the pair stays together, one LDC.64 when combined
                if ((d.isPart() ? sd.soleWrite(d) : sd.soleDef(d)) != mov) {
                    continue;
                }
                // readers never move (a constant's move reads no register), so their positions stay right
                int target = readersBlock(sd.uses(d), sd);
                if (target < 0 || target == b || !outsideOtherLoops(sd, loops, loopBodies, b, target)) {
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

    /**
     * An unguarded {@code MOV} of an immediate or a fixed constant-bank word into a 32-bit virtual register or one
     * part of a virtual pair.
     */
    private static boolean constantMove(Instr in) {
        Src src = OpInfo.movSource(in);
        if (src == null || src.hasModifiers() || !in.guard().isAlways()) {
            return false;
        }
        Reg d = in.dsts().get(0);
        return d.virtual() && d.file() == RegFile.R && (d.comps() == 1 || d.comps() == 2 && d.isPart())
                && (src.value() instanceof Imm || src.value() instanceof CBank c && c.index() == null);
    }

    /** The one block all {@code readers} are in, or -1. */
    private static int readersBlock(List<Instr> readers, SingleDefs sd) {
        int block = -1;
        for (Instr r : readers) {
            SingleDefs.Position at = sd.position(r);
            if (at == null || block >= 0 && at.block() != block) {
                return -1;
            }
            block = at.block();
        }
        return block;
    }

    /**
     * Whether every loop holding {@code target} also holds {@code from}, so the move runs no more often there:
     * natural loops nest, so it is enough that {@code from} is in {@code target}'s innermost loop.
     */
    private static boolean outsideOtherLoops(SingleDefs sd, LoopNesting loops, Map<Integer, BitSet> loopBodies,
            int from, int target) {
        int header = loops.innermostHeader(target);
        return header < 0 || loopBodies.computeIfAbsent(header,
                h -> LoopNesting.naturalLoop(sd.cfg(), sd.dominators(), h)).get(from);
    }
}
