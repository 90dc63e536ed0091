package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.jptxas.ori.opt.TestInstrs.ins;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * {@link ZeroTestsOfNegations}: {@code v = p ? -r : r} compared with zero for equality is r compared with zero, the
 * same stores on r = 0, INT_MIN, +-1 and random words; other compares, and an r written again, stay.
 */
class ZeroTestsOfNegationsTest {
    private static Src s(Object o) {
        return o instanceof Integer i ? Src.of(Imm.ofInt(i)) : Src.of((Operand) o);
    }

    /** {@code MOV v, r; ISETP.LT p, x, 0; @!p IADD3 v, -r; [between]; ISETP.cmp q, v, 0; SEL; STG}. */
    private static final class Kernel {
        final FunctionBody f = new FunctionBody();
        final BasicBlock b = f.addBlock(null);
        final List<Instr> e = b.instrs();
        final Reg x = f.newVirtual(RegFile.R, 1);
        final Reg r = f.newVirtual(RegFile.R, 1);
        final Reg v = f.newVirtual(RegFile.R, 1);
        final Reg q = f.newVirtual(RegFile.P, 1);
        final Reg out = f.newVirtual(RegFile.R, 2);

        Kernel(Integer vr, String cmp, boolean rewriteR) {
            e.add(ins("MOV", List.of(), List.of(x), s(CBank.of(0, 0x160))));
            e.add(ins("MOV", List.of(), List.of(r), vr == null ? s(CBank.of(0, 0x164)) : s(vr)));
            e.add(ins("MOV", List.of(), List.of(out.component(0)), s(CBank.of(0, 0x170))));
            e.add(ins("MOV", List.of(), List.of(out.component(1)), s(CBank.of(0, 0x174))));
            Reg p = f.newVirtual(RegFile.P, 1);
            e.add(ins("MOV", List.of(), List.of(v), s(r)));
            e.add(ins("ISETP", List.of("GE", "AND"), List.of(p, Reg.PT), s(x), s(Reg.RZ), s(Reg.PT)));
            Instr negate = ins("IADD3", List.of(), List.of(v), s(r).negated(), s(Reg.RZ), s(Reg.RZ));
            negate.setGuard(new Guard(p, true));
            e.add(negate);
            if (rewriteR) {
                e.add(ins("IADD3", List.of(), List.of(r), s(r), s(1), s(Reg.RZ)));
            }
            e.add(ins("ISETP", List.of(cmp, "AND"), List.of(q, Reg.PT), s(v), s(0), s(Reg.PT)));
            Reg d = f.newVirtual(RegFile.R, 1);
            e.add(ins("SEL", List.of(), List.of(d), s(1), s(0), s(q)));
            e.add(ins("STG", List.of("E"), List.of(), s(Addr.of(out, 0)), s(d)));
            e.add(ins("STG", List.of("E"), List.of(), s(Addr.of(out, 4)), s(r)));
            e.add(ins("EXIT", List.of(), List.of()));
        }
    }

    private static String compareLine(String out) {
        return out.lines().filter(l -> l.startsWith("ISETP.EQ") || l.startsWith("ISETP.NE") || l.startsWith("ISETP.LT"))
                .findFirst().orElseThrow();
    }

    @Test
    void anEqualityTestOfTheSignFixedValueReadsTheUnfixedOne() {
        Integer[] values = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 16, null};
        for (String cmp : List.of("EQ", "NE")) {
            for (Integer vr : values) {
                Kernel before = new Kernel(vr, cmp, false);
                Kernel after = new Kernel(vr, cmp, false);
                String out = TestInstrs.run(after.f, "sm_80", new ZeroTestsOfNegations(), new DeadCodeElimination());
                assertTrue(compareLine(out).contains(", " + after.r + ", "), out);
                assertEquals(0, out.lines().filter(l -> l.contains("IADD3")).count(), out);
                for (long seed = 0; seed < 16; seed++) {
                    assertEquals(OriEvaluator.run(before.f, seed), OriEvaluator.run(after.f, seed),
                            cmp + " " + vr + " seed " + seed + ":\n" + out);
                }
            }
        }
    }

    @Test
    void orderingComparesAndARewrittenSourceStay() {
        Kernel lt = new Kernel(null, "LT", false);
        String out = TestInstrs.run(lt.f, "sm_80", new ZeroTestsOfNegations());
        assertTrue(compareLine(out).contains(", " + lt.v + ", "), out);

        Kernel rewritten = new Kernel(null, "NE", true);
        out = TestInstrs.run(rewritten.f, "sm_80", new ZeroTestsOfNegations());
        assertTrue(compareLine(out).contains(", " + rewritten.v + ", "), out);
    }
}
