package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** Neighbouring constant words read by moves: one LDC.64 on sm_90, the moves kept where the ALU reads c[] (sm_80). */
class ConstantPairLoadsTest {
    private static Instr ins(String op, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), List.of(), dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    /** {@code out[tid] = w + h} with a pointer parameter at 0x210 and two ints at 0x220 and 0x224. */
    private static FunctionBody kernel() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg ptr = f.newVirtual(RegFile.R, 2);
        Reg w = f.newVirtual(RegFile.R, 1);
        Reg h = f.newVirtual(RegFile.R, 1);
        Reg tid = f.newVirtual(RegFile.R, 1);
        Reg sum = f.newVirtual(RegFile.R, 1);
        List<Instr> l = b.instrs();
        l.add(ins("MOV", List.of(ptr.component(0)), Src.of(CBank.of(0, 0x210))));
        l.add(ins("MOV", List.of(ptr.component(1)), Src.of(CBank.of(0, 0x214))));
        l.add(ins("MOV", List.of(w), Src.of(CBank.of(0, 0x220))));
        l.add(ins("S2R", List.of(tid), Src.of(new SpecialReg("SR_TID.X"))));
        l.add(ins("MOV", List.of(h), Src.of(CBank.of(0, 0x224))));
        l.add(ins("IADD3", List.of(sum, Reg.PT, Reg.PT), Src.of(w), Src.of(h), Src.of(tid)));
        l.add(ins("STG", List.of(), Src.of(Addr.of(ptr, 0)), Src.of(sum)));
        l.add(ins("EXIT", List.of()));
        return f;
    }

    private static String run(FunctionBody body, String sm) {
        OptPipeline.of(List.of(new ConstantPairLoads())).verifying(true)
                .run(new OriFunction("k", true, 0, body), TestProfiles.of(sm));
        StringBuilder sb = new StringBuilder();
        for (Instr in : body.blocks().get(0).instrs()) {
            sb.append(in).append('\n');
        }
        return sb.toString();
    }

    @Test
    void neighbouringWordsBecomeOneLdc64OnSm90() {
        FunctionBody body = kernel();
        String out = run(body, "sm_90");
        assertTrue(out.contains("LDC.64 %r0.64, c[0x0][0x210]"), out);
        assertTrue(out.contains("LDC.64 %r5.64, c[0x0][0x220]"), out);
        assertTrue(out.contains("IADD3 %r4, PT, PT, %r5.lo, %r5.hi, %r3"), out);
        assertEquals(6, body.instructionCount(), out);
    }

    @Test
    void movesStayWhereTheAluReadsTheConstantBank() {
        FunctionBody body = kernel();
        String out = run(body, "sm_80");
        assertEquals(8, body.instructionCount(), out);
    }
}
