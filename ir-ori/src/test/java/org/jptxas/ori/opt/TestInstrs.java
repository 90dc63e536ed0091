package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;

/** Building Ori bodies by hand for pass tests, and running passes on them. */
final class TestInstrs {
    private TestInstrs() {
    }

    static Instr ins(String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), mods, dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    static Src imm(int v) {
        return Src.of(Imm.ofInt(v));
    }

    /** Runs {@code passes} (verifying the Ori between them) on an entry function for {@code sm}; the body's text. */
    static String run(FunctionBody body, String sm, Pass... passes) {
        OptPipeline.of(List.of(passes)).verifying(true).run(new OriFunction("k", true, 0, body), TestProfiles.of(sm));
        StringBuilder sb = new StringBuilder();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                sb.append(in).append('\n');
            }
        }
        return sb.toString();
    }
}
