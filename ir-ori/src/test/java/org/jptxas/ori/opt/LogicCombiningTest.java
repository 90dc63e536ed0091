package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * Two logic operations, the first read only by the second, become one three-input LOP3 on the second's line, also
 * when an input of the first is a variable written again later (as a loop's variables are), provided it is not
 * written between the two.
 */
class LogicCombiningTest {
    private static final int INNER_LINE = 10;
    private static final int OUTER_LINE = 11;

    enum Rewrite { NONE, AFTER, BETWEEN }

    /** {@code t = a ^ b; d = t ^ c}, a, b, c loaded, a written again where {@code where} says; d and a stored. */
    private static FunctionBody program(Rewrite where) {
        FunctionBody f = new FunctionBody();
        BasicBlock bb = f.addBlock(null);
        List<Instr> l = bb.instrs();
        Reg base = f.newVirtual(RegFile.R, 2);
        Reg a = f.newVirtual(RegFile.R, 1);
        Reg b = f.newVirtual(RegFile.R, 1);
        Reg c = f.newVirtual(RegFile.R, 1);
        Reg t = f.newVirtual(RegFile.R, 1);
        Reg d = f.newVirtual(RegFile.R, 1);
        l.add(ins("MOV", List.of(), List.of(base.component(0)), Src.of(CBank.of(0, 0x160))));
        l.add(ins("MOV", List.of(), List.of(base.component(1)), Src.of(CBank.of(0, 0x164))));
        l.add(ins("LDG", List.of("E"), List.of(a), Src.of(Addr.of(base, 0))));
        l.add(ins("LDG", List.of("E"), List.of(b), Src.of(Addr.of(base, 4))));
        l.add(ins("LDG", List.of("E"), List.of(c), Src.of(Addr.of(base, 8))));
        Instr inner = ins("LOP3", List.of("LUT"), List.of(Reg.PT, t), Src.of(a), Src.of(b), Src.of(Reg.RZ),
                TestInstrs.imm(0x3c), Src.of(Reg.PT).inverted());
        inner.setLine(INNER_LINE);
        l.add(inner);
        Instr bump = ins("IADD3", List.of(), List.of(a), Src.of(a), TestInstrs.imm(1), Src.of(Reg.RZ));
        if (where == Rewrite.BETWEEN) {
            l.add(bump);
        }
        Instr outer = ins("LOP3", List.of("LUT"), List.of(Reg.PT, d), Src.of(t), Src.of(c), Src.of(Reg.RZ),
                TestInstrs.imm(0x3c), Src.of(Reg.PT).inverted());
        outer.setLine(OUTER_LINE);
        l.add(outer);
        if (where != Rewrite.NONE) {
            l.add(where == Rewrite.AFTER ? bump : ins("IADD3", List.of(), List.of(a), Src.of(a), TestInstrs.imm(2),
                    Src.of(Reg.RZ)));
        }
        l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(base, 12)), Src.of(d)));
        l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(base, 16)), Src.of(a)));
        l.add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    /** The LOP3s left after combining, with each one's line. */
    private static String logic(FunctionBody f) {
        StringBuilder sb = new StringBuilder();
        for (Instr in : f.block(0).instrs()) {
            if (in.op().name().equals("LOP3")) {
                sb.append(in).append("  @").append(in.line()).append('\n');
            }
        }
        return sb.toString();
    }

    @Test
    void twoXorsBecomeOneThreeInputLop3OnTheReadersLine() {
        for (Rewrite where : new Rewrite[] {Rewrite.NONE, Rewrite.AFTER}) {
            FunctionBody f = program(where);
            String out = TestInstrs.run(f, "sm_80", new InstructionCombining(), new DeadCodeElimination());
            assertEquals("LOP3.LUT %r5, %r1, %r2, %r3, 0x96, !PT  @11\n", logic(f), where + ":\n" + out);
        }
    }

    @Test
    void anInputWrittenBetweenTheTwoKeepsThemApart() {
        FunctionBody f = program(Rewrite.BETWEEN);
        String out = TestInstrs.run(f, "sm_80", new InstructionCombining(), new DeadCodeElimination());
        assertEquals(2, logic(f).lines().count(), out);
    }

    @Test
    void theCombinedFormStoresTheSameValues() {
        for (Rewrite where : Rewrite.values()) {
            FunctionBody f = program(where);
            TestInstrs.run(f, "sm_80", new InstructionCombining(), new DeadCodeElimination());
            for (long seed : new long[] {1, -77, 0xabcdef}) {
                assertEquals(OriEvaluator.run(program(where), seed), OriEvaluator.run(f, seed), where.toString());
            }
        }
    }
}
