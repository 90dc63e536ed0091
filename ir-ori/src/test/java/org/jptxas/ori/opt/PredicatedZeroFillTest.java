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

/** An all-or-nothing source size turns the zero-filling copy into a predicated plain copy. */
class PredicatedZeroFillTest {
    private static Instr ins(String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), mods, dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    /** The lowering of {@code selp.b32 n, a, b, p; cp.async.ca [s], [g], 4, n} (p: tid < param). */
    private static String run(int a, int b) {
        FunctionBody f = new FunctionBody();
        BasicBlock bb = f.addBlock(null);
        Reg g = f.newVirtual(RegFile.R, 2);
        Reg s = f.newVirtual(RegFile.R, 1);
        Reg tid = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        Reg n = f.newVirtual(RegFile.R, 1);
        Reg four = f.newVirtual(RegFile.R, 1);
        Reg t = f.newVirtual(RegFile.R, 1);
        Reg fill = f.newVirtual(RegFile.R, 1);
        Reg sum = f.newVirtual(RegFile.R, 2);
        Reg carry = f.newVirtual(RegFile.P, 1);
        Reg any = f.newVirtual(RegFile.P, 1);
        List<Instr> l = bb.instrs();
        l.add(ins("S2R", List.of(), List.of(tid), Src.of(new org.jptxas.ori.ir.SpecialReg("SR_TID.X"))));
        l.add(ins("IMAD_WIDE", List.of(), List.of(g), Src.of(tid), Src.of(Imm.ofInt(0x10)), Src.of(Reg.RZ)));
        l.add(ins("SHF", List.of("L", "U32"), List.of(s), Src.of(tid), Src.of(Imm.ofInt(2)), Src.of(Reg.RZ)));
        l.add(ins("ISETP", List.of("LT", "AND"), List.of(p, Reg.PT), Src.of(tid), Src.of(CBank.of(0, 0x168)),
                Src.of(Reg.PT)));
        l.add(ins("MOV", List.of(), List.of(four), Src.of(Imm.ofInt(a))));
        l.add(ins("SEL", List.of(), List.of(n), Src.of(four), b == 0 ? Src.of(Reg.RZ) : Src.of(Imm.ofInt(b)),
                Src.of(p)));
        l.add(ins("IADD3", List.of(), List.of(t, Reg.PT, Reg.PT), Src.of(n).negated(), Src.of(Imm.ofInt(4)),
                Src.of(Reg.RZ)));
        l.add(ins("LOP3", List.of("LUT"), List.of(Reg.PT, fill), Src.of(t), Src.of(Imm.ofInt(3)), Src.of(Reg.RZ),
                Src.of(Imm.ofInt(0xc0)), Src.of(Reg.PT).inverted()));
        l.add(ins("IADD3", List.of(), List.of(sum.component(0), carry, Reg.PT), Src.of(g.component(0)), Src.of(fill),
                Src.of(Reg.RZ)));
        l.add(ins("IADD3", List.of("X"), List.of(sum.component(1), Reg.PT, Reg.PT), Src.of(g.component(1)),
                Src.of(Reg.RZ), Src.of(Reg.RZ), Src.of(carry), Src.of(Reg.PT).inverted()));
        l.add(ins("ISETP", List.of("NE", "U32", "AND"), List.of(any, Reg.PT), Src.of(n), Src.of(Reg.RZ),
                Src.of(Reg.PT)));
        l.add(ins("LDGSTS", List.of("E", "ZFILL"), List.of(), Src.of(Addr.of(s, 0)), Src.of(Addr.of(sum, 0)),
                Src.of(any)));
        l.add(ins("LDGDEPBAR", List.of(), List.of()));
        l.add(ins("EXIT", List.of(), List.of()));
        OptPipeline.forLevel(3).encodableWhen(in -> true).verifying(true)
                .run(new OriFunction("k", true, 0, f), TestProfiles.of("sm_80"));
        StringBuilder sb = new StringBuilder();
        for (Instr in : bb.instrs()) {
            sb.append(in).append('\n');
        }
        return sb.toString();
    }

    @Test
    void allOrNothingReadsUnderTheSelectionsCondition() {
        String out = run(4, 0);
        assertTrue(out.matches("(?s).*LDGSTS\\.E \\[%r\\d+\\], \\[%r\\d+\\.64\\], %p\\d+\\n.*"), out);
        assertTrue(!out.contains("ZFILL") && !out.contains("LOP3") && !out.contains("SEL") && !out.contains("IADD3"),
                out);
    }

    @Test
    void nothingOrAllReadsUnderItsNegation() {
        String out = run(0, 4);
        assertTrue(out.matches("(?s).*LDGSTS\\.E \\[%r\\d+\\], \\[%r\\d+\\.64\\], !%p\\d+\\n.*"), out);
    }

    @Test
    void aPartialSizeKeepsTheFill() {
        String out = run(4, 2);
        assertTrue(out.contains("LDGSTS.E.ZFILL"), out);
        assertTrue(out.contains("LOP3"), out);
    }
}
