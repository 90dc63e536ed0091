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
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/**
 * {@code ld.param [%rd + 8]} through a copied parameter address ({@code mov.b64 %rd, k_param_0}): ptxas 13 reads
 * {@code c[0x0][0x168]} in the add, with no instruction (and so no line-table row) of the load's own; the indexed
 * {@code LDC} whose index holds a known value becomes a fixed constant operand.
 */
class ConstantIndexFoldingTest {
    private static Instr ins(String op, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), List.of(), dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    private static String run(boolean knownAddress) {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg param = f.newVirtual(RegFile.R, 2);
        Reg copy = f.newVirtual(RegFile.R, 2);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg out = f.newVirtual(RegFile.R, 2);
        Reg tid = f.newVirtual(RegFile.R, 1);
        Reg sum = f.newVirtual(RegFile.R, 1);
        List<Instr> l = b.instrs();
        l.add(ins("MOV", List.of(param.component(0)),
                knownAddress ? Src.of(Imm.ofInt(0x160)) : Src.of(CBank.of(0, 0x178))));
        l.add(ins("MOV", List.of(param.component(1)), Src.of(Reg.RZ)));
        l.add(ins("MOV", List.of(copy.component(0)), Src.of(param.component(0))));
        l.add(ins("MOV", List.of(copy.component(1)), Src.of(param.component(1))));
        l.add(ins("LDC", List.of(x), Src.of(new CBank(0, 0x8, copy.component(0)))));
        l.add(ins("MOV", List.of(out.component(0)), Src.of(CBank.of(0, 0x170))));
        l.add(ins("MOV", List.of(out.component(1)), Src.of(CBank.of(0, 0x174))));
        l.add(ins("S2R", List.of(tid), Src.of(new SpecialReg("SR_TID.X"))));
        l.add(ins("IADD3", List.of(sum, Reg.PT, Reg.PT), Src.of(tid), Src.of(x), Src.of(Reg.RZ)));
        l.add(ins("STG", List.of(), Src.of(Addr.of(out, 0)), Src.of(sum)));
        l.add(ins("EXIT", List.of()));
        OptPipeline.of(List.of(new ConstantFolding(), new CopyPropagation(), new DeadCodeElimination())).verifying(true).run(new OriFunction("k", true, 0, f), TestProfiles.of("sm_80"));
        StringBuilder sb = new StringBuilder();
        for (Instr in : b.instrs()) {
            sb.append(in).append('\n');
        }
        return sb.toString();
    }

    @Test
    void aParameterReadThroughAKnownAddressIsAConstantOperand() {
        String out = run(true);
        assertTrue(!out.contains("LDC"), out);
        assertTrue(out.contains("c[0x0][0x168]"), out);
    }

    @Test
    void anUnknownIndexStaysAnIndexedLoad() {
        String out = run(false);
        assertTrue(out.contains("LDC"), out);
    }
}
