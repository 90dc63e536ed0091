package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
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

/**
 * Kokkos's grid-stride begin: {@code ld.param.u64 %rd10, [k_param_0+88]} (line 20) read by the add of line 40.
 * ptxas 13 on sm_90 loads the parameter for the add with the add's line ({@code LDC.64 R4, c[0x0][0x268]} on
 * line 77 of Kokkos_Cuda_Parallel_Range.hpp, none on Kokkos_ExecPolicy.hpp:90); on sm_80 the add reads
 * {@code c[0x0][0x1b8]} itself. {@code %ntid.y} ({@code c[0x0][0x4]}, below the parameters) keeps its line.
 */
class ParameterReadLinesTest {
    private static final int NTID_LINE = 10;
    private static final int PARAM_LINE = 20;
    private static final int TID_LINE = 30;
    private static final int ADD_LINE = 40;

    private static Instr ins(String op, List<Reg> dsts, int line, Src... srcs) {
        return new Instr(OpInfo.op(op), List.of(), dsts, List.of(srcs), Guard.ALWAYS, line);
    }

    /** The lines of the ntid read, the parameter's two reads, after the passes ran for the target. */
    private static List<Integer> linesAfter(String target, boolean readersInNextBlock) {
        int paramBase = TestProfiles.of(target).paramBase();
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg ntid = f.newVirtual(RegFile.R, 1);
        Reg begin = f.newVirtual(RegFile.R, 2);
        Reg tid = f.newVirtual(RegFile.R, 1);
        Reg sum = f.newVirtual(RegFile.R, 2);
        Reg out = f.newVirtual(RegFile.R, 1);
        List<Instr> l = b.instrs();
        Instr ntidRead = ins("MOV", List.of(ntid), NTID_LINE, Src.of(CBank.of(0, 0x4)));
        Instr lo = ins("MOV", List.of(begin.component(0)), PARAM_LINE, Src.of(CBank.of(0, paramBase + 88)));
        Instr hi = ins("MOV", List.of(begin.component(1)), PARAM_LINE, Src.of(CBank.of(0, paramBase + 92)));
        l.add(ntidRead);
        l.add(lo);
        l.add(hi);
        if (readersInNextBlock) {
            l = f.addBlock(null).instrs();
        }
        l.add(ins("S2R", List.of(tid), TID_LINE, Src.of(new SpecialReg("SR_TID.Y"))));
        l.add(ins("IMAD", List.of(out), TID_LINE, Src.of(tid), Src.of(ntid), Src.of(Reg.RZ)));
        l.add(ins("IADD3", List.of(sum.component(0), Reg.PT, Reg.PT), ADD_LINE, Src.of(out),
                Src.of(begin.component(0)), Src.of(Reg.RZ)));
        l.add(ins("IADD3", List.of(sum.component(1), Reg.PT, Reg.PT), ADD_LINE, Src.of(Reg.RZ),
                Src.of(begin.component(1)), Src.of(Reg.RZ)));
        l.add(ins("STG", List.of(), 50, Src.of(org.jptxas.ori.ir.Addr.of(sum, 0)), Src.of(out)));
        l.add(ins("EXIT", List.of(), 60));
        OptPipeline.of(List.of(new ParameterReadLines())).verifying(true)
                .run(new OriFunction("k", true, 0, f), TestProfiles.of(target));
        return List.of(ntidRead.line(), lo.line(), hi.line());
    }

    @Test
    void aParameterReadTakesItsReadersLineWhereTheAluReadsNoConstantBank() {
        assertEquals(List.of(NTID_LINE, ADD_LINE, ADD_LINE), linesAfter("sm_90", false));
    }

    @Test
    void readsKeepTheirLinesWhereTheAluReadsTheBank() {
        assertEquals(List.of(NTID_LINE, PARAM_LINE, PARAM_LINE),
                linesAfter("sm_80", false));
    }

    @Test
    void aReadWhoseReadersAreInAnotherBlockKeepsItsLine() {
        // ptxas loads such an operand apart from its readers (a Triton kernel's compare in a loop), not on their line
        assertEquals(List.of(NTID_LINE, PARAM_LINE, PARAM_LINE), linesAfter("sm_90", true));
    }
}
