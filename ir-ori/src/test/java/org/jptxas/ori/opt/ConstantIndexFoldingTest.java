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

    /**
     * keccak_f800's round constants unrolled: {@code mov.u64 %rd, keccakf_rndc} (the table at bank 3's start, RZ),
     * then per copy {@code ld.const [%rd]; add.s64 %rd, %rd, 4}. With each copy's address its own pair (web
     * splitting), every read is a fixed word of the table, as ptxas 13 reads {@code c[0x3][0x4]} ... .
     */
    @Test
    void anUnrolledWalkOverAConstantTableReadsFixedWords() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg walk = f.newVirtual(RegFile.R, 2);
        Reg out = f.newVirtual(RegFile.R, 2);
        List<Instr> l = b.instrs();
        l.add(ins("MOV", List.of(out.component(0)), Src.of(CBank.of(0, 0x170))));
        l.add(ins("MOV", List.of(out.component(1)), Src.of(CBank.of(0, 0x174))));
        l.add(ins("MOV", List.of(walk.component(0)), Src.of(Reg.RZ)));
        l.add(ins("MOV", List.of(walk.component(1)), Src.of(Reg.RZ)));
        for (int copy = 0; copy < 6; copy++) {
            Reg x = f.newVirtual(RegFile.R, 1);
            Reg carry = f.newVirtual(RegFile.P, 1);
            l.add(ins("LDC", List.of(x), Src.of(new CBank(3, 0, walk.component(0)))));
            l.add(ins("STG", List.of(), Src.of(Addr.of(out, 4 * copy)), Src.of(x)));
            l.add(ins("IADD3", List.of(walk.component(0), carry, Reg.PT), Src.of(walk.component(0)),
                    Src.of(Imm.ofInt(4)), Src.of(Reg.RZ)));
            Instr high = new Instr(OpInfo.op("IADD3"), List.of("X"), List.of(walk.component(1), Reg.PT, Reg.PT),
                    List.of(Src.of(walk.component(1)), Src.of(Reg.RZ), Src.of(Reg.RZ), Src.of(carry),
                            new Src(Reg.PT, false, false, true)), Guard.ALWAYS, 0);
            l.add(high);
        }
        l.add(ins("EXIT", List.of()));
        OptPipeline.of(List.of(new WebSplitting(), new ConstantFolding(), new CopyPropagation(),
                new DeadCodeElimination())).verifying(true).run(new OriFunction("k", true, 0, f),
                        TestProfiles.of("sm_80"));
        StringBuilder sb = new StringBuilder();
        for (Instr in : b.instrs()) {
            sb.append(in).append('\n');
        }
        String text = sb.toString();
        assertTrue(!text.contains("LDC") && !text.contains("IADD3"), text);
        for (int copy = 0; copy < 6; copy++) {
            assertTrue(text.contains("c[0x3][0x" + Integer.toHexString(4 * copy) + "]"), text);
        }
    }
}
