package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** Global atomics whose old value is unused become reductions, with their address constant in the offset. */
class UnusedAtomicResultsTest {
    private static Instr ins(String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), mods, dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    /** {@code atom.global.<op> d, [p+4], 1} on a pointer parameter; {@code d} stored back when {@code used}. */
    private static String run(String op, boolean used) {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg q = f.newVirtual(RegFile.R, 2);
        Reg carry = f.newVirtual(RegFile.P, 1);
        Reg d = f.newVirtual(RegFile.R, 1);
        List<Instr> l = b.instrs();
        l.add(ins("MOV", List.of(), List.of(p.component(0)), Src.of(CBank.of(0, 0x160))));
        l.add(ins("MOV", List.of(), List.of(p.component(1)), Src.of(CBank.of(0, 0x164))));
        l.add(ins("IADD3", List.of(), List.of(q.component(0), carry, Reg.PT), Src.of(p.component(0)),
                Src.of(Imm.ofInt(4)), Src.of(Reg.RZ)));
        l.add(ins("IADD3", List.of("X"), List.of(q.component(1), Reg.PT, Reg.PT), Src.of(p.component(1)),
                Src.of(Reg.RZ), Src.of(Reg.RZ), Src.of(carry), Src.of(Reg.PT).inverted()));
        l.add(ins("ATOMG", List.of("E", op, "STRONG", "GPU"), List.of(Reg.PT, d), Src.of(Addr.of(q, 0)),
                Src.of(Imm.ofInt(1))));
        if (used) {
            l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(d)));
        }
        l.add(ins("EXIT", List.of(), List.of()));
        OptPipeline.forLevel(3).encodableWhen(in -> true).verifying(true)
                .run(new OriFunction("k", true, 0, f), TestProfiles.of("sm_80"));
        StringBuilder sb = new StringBuilder();
        for (Instr in : b.instrs()) {
            sb.append(in).append('\n');
        }
        return sb.toString();
    }

    @Test
    void anUnreadIncrementIsAReductionAtTheOffset() {
        String out = run("INC", false);
        assertTrue(out.contains("RED.E.INC.STRONG.GPU [%r0.64+0x4]"), out);
        assertTrue(!out.contains("ATOMG") && !out.contains("IADD3"), out);
    }

    @Test
    void aReadResultOrAnExchangeKeepsTheAtomic() {
        assertTrue(run("INC", true).contains("ATOMG.E.INC.STRONG.GPU PT, "), run("INC", true));
        assertTrue(run("EXCH", false).contains("ATOMG.E.EXCH"), run("EXCH", false));
    }
}
