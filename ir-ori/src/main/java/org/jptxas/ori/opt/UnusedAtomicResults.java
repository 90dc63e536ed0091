package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;

/**
 * A global atomic whose old value nothing reads ({@code atom.global.inc} into a register left unused) is a reduction:
 * {@code ATOMG PT, d, [a], v} becomes {@code RED [a], v}, which writes no register and waits for no reply, as ptxas
 * issues it. Exchanges and compare-and-swaps stay (RED has neither), and so does any form the backend does not encode.
 */
public final class UnusedAtomicResults implements Pass {
    @Override
    public String name() {
        return "unused-atomic-results";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        if (!OpInfo.exists("RED")) {
            return false;
        }
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (!OpInfo.is(in, "ATOMG") || in.dsts().size() != 2 || !in.dsts().get(0).equals(Reg.PT)
                        || in.srcs().size() != 2 || in.mods().contains("EXCH") || in.mods().contains("CAS")) {
                    continue;
                }
                Reg d = in.dsts().get(1);
                if (!d.virtual() || read(body, d)) {
                    continue;
                }
                Instr red = new Instr(OpInfo.op("RED"), in.mods(), List.of(), in.srcs(), in.guard(), in.line());
                if (!cx.canEncode(red).orElse(false)) {
                    continue;
                }
                in.setOp(red.op());
                in.dsts().clear();
                changed = true;
            }
        }
        return changed;
    }

    private static boolean read(FunctionBody body, Reg r) {
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (Rewrites.reads(in, r)) {
                    return true;
                }
            }
        }
        return false;
    }
}
