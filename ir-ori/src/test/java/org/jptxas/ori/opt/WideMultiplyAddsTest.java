package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * {@code mul.lo.s64} read only by {@code add.s64}: the multiply accumulates into the add's term
 * ({@code IMAD.WIDE.U32 w, a.lo, b.lo, y}), the cross products go to the high word, all on the add's line.
 */
class WideMultiplyAddsTest {
    private static final int MUL_LINE = 10;
    private static final int ADD_LINE = 11;

    enum Operand { FULL, ZERO_EXTENDED, SIGN_EXTENDED }

    /**
     * a and b 64-bit (a zero- or sign-extended from a 32-bit load, or loaded whole), y a loaded pair or the
     * parameter at c[0x0][0x178]; the multiply and add as the front end lowers them; d stored.
     */
    private static FunctionBody program(Operand kind, boolean constantAddend) {
        FunctionBody f = new FunctionBody();
        BasicBlock bb = f.addBlock(null);
        List<Instr> l = bb.instrs();
        Reg base = f.newVirtual(RegFile.R, 2);
        Reg a = f.newVirtual(RegFile.R, 2);
        Reg b = f.newVirtual(RegFile.R, 2);
        Reg y = f.newVirtual(RegFile.R, 2);
        Reg t = f.newVirtual(RegFile.R, 2);
        Reg k = f.newVirtual(RegFile.R, 1);
        Reg m = f.newVirtual(RegFile.R, 2);
        Reg d = f.newVirtual(RegFile.R, 2);
        Reg p = f.newVirtual(RegFile.P, 1);
        Reg x = f.newVirtual(RegFile.R, 1);
        l.add(ins("MOV", List.of(), List.of(base.component(0)), Src.of(CBank.of(0, 0x160))));
        l.add(ins("MOV", List.of(), List.of(base.component(1)), Src.of(CBank.of(0, 0x164))));
        l.add(ins("LDG", List.of("E"), List.of(x), Src.of(Addr.of(base, 0))));
        l.add(ins("MOV", List.of(), List.of(a.component(0)), Src.of(x)));
        switch (kind) {
            case FULL -> l.add(ins("LDG", List.of("E"), List.of(a.component(1)), Src.of(Addr.of(base, 4))));
            case ZERO_EXTENDED -> l.add(ins("MOV", List.of(), List.of(a.component(1)), Src.of(Reg.RZ)));
            case SIGN_EXTENDED -> l.add(ins("SHF", List.of("R", "S32", "HI"), List.of(a.component(1)),
                    Src.of(Reg.RZ), TestInstrs.imm(0x1f), Src.of(x)));
        }
        l.add(ins("LDG", List.of("E"), List.of(b.component(0)), Src.of(Addr.of(base, 8))));
        l.add(ins("LDG", List.of("E"), List.of(b.component(1)), Src.of(Addr.of(base, 12))));
        l.add(ins("LDG", List.of("E"), List.of(y.component(0)), Src.of(Addr.of(base, 16))));
        l.add(ins("LDG", List.of("E"), List.of(y.component(1)), Src.of(Addr.of(base, 20))));
        Src yLo = constantAddend ? Src.of(CBank.of(0, 0x178)) : Src.of(y.component(0));
        Src yHi = constantAddend ? Src.of(CBank.of(0, 0x17c)) : Src.of(y.component(1));
        List<Instr> mul = List.of(
                ins("IMAD_WIDE", List.of("U32"), List.of(t), Src.of(a.component(0)), Src.of(b.component(0)),
                        Src.of(Reg.RZ)),
                ins("IMAD", List.of(), List.of(k), Src.of(a.component(0)), Src.of(b.component(1)),
                        Src.of(t.component(1))),
                ins("IMAD", List.of(), List.of(m.component(1)), Src.of(a.component(1)), Src.of(b.component(0)),
                        Src.of(k)),
                ins("MOV", List.of(), List.of(m.component(0)), Src.of(t.component(0))));
        mul.forEach(in -> in.setLine(MUL_LINE));
        l.addAll(mul);
        List<Instr> add = List.of(
                ins("IADD3", List.of(), List.of(d.component(0), p, Reg.PT), yLo, Src.of(m.component(0)),
                        Src.of(Reg.RZ)),
                ins("IADD3", List.of("X"), List.of(d.component(1), Reg.PT, Reg.PT), yHi, Src.of(m.component(1)),
                        Src.of(Reg.RZ), Src.of(p), Src.of(Reg.PT).inverted()));
        add.forEach(in -> in.setLine(ADD_LINE));
        l.addAll(add);
        l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(base, 24)), Src.of(d.component(0))));
        l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(base, 28)), Src.of(d.component(1))));
        l.add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    private static String combined(FunctionBody f) {
        return TestInstrs.run(f, "sm_80", new InstructionCombining(), new DeadCodeElimination());
    }

    /** The arithmetic left after combining, with each instruction's line. */
    private static String arithmetic(FunctionBody f) {
        StringBuilder sb = new StringBuilder();
        for (Instr in : f.block(0).instrs()) {
            if (List.of("IMAD", "IMAD_WIDE", "IADD3", "MOV").contains(in.op().name()) && in.line() != 0) {
                sb.append(in).append("  @").append(in.line()).append('\n');
            }
        }
        return sb.toString();
    }

    @Test
    void aFullMultiplyAccumulatesIntoTheAddendOnTheAddsLine() {
        FunctionBody f = program(Operand.FULL, false);
        combined(f);
        assertEquals("""
                IMAD %r9, %r1.hi, %r2.lo, RZ  @11
                IMAD_WIDE.U32 %r7.64, %r1.lo, %r2.lo, %r3.64  @11
                IMAD %r10, %r1.lo, %r2.hi, %r9  @11
                IADD3 %r7.hi, %r7.hi, %r10, RZ  @11
                """, arithmetic(f));
    }

    @Test
    void aZeroExtendedOperandLeavesOneCrossProduct() {
        FunctionBody f = program(Operand.ZERO_EXTENDED, true);
        combined(f);
        assertEquals("""
                IMAD_WIDE.U32 %r7.64, %r1.lo, %r2.lo, c[0x0][0x178]  @11
                IMAD %r7.hi, %r1.lo, %r2.hi, %r7.hi  @11
                """, arithmetic(f));
    }

    @Test
    void theMultiplyKeepsItsLineWhenSomethingElseReadsIt() {
        FunctionBody f = program(Operand.FULL, false);
        Reg m = Reg.virt(RegFile.R, 6, 2);
        List<Instr> l = f.block(0).instrs();
        l.add(l.size() - 1, ins("STG", List.of("E"), List.of(), Src.of(Addr.of(Reg.virt(RegFile.R, 0, 2), 32)),
                Src.of(m.component(1))));
        String out = combined(f);
        assertTrue(out.contains("IMAD_WIDE.U32 %r4.64, %r1.lo, %r2.lo, RZ"), out);
        assertTrue(out.contains("IADD3.X"), out);
    }

    /** a.lo written again (a loop's variable): read at the add only when not written between the multiply and the add. */
    private static FunctionBody rewrittenOperand(boolean betweenMultiplyAndAdd) {
        FunctionBody f = program(Operand.FULL, false);
        Reg aLo = Reg.virt(RegFile.R, 1, 2).component(0);
        List<Instr> l = f.block(0).instrs();
        int wide = 0;
        while (!l.get(wide).op().name().equals("IMAD_WIDE")) {
            wide++;
        }
        l.add(betweenMultiplyAndAdd ? wide + 4 : wide, ins("IADD3", List.of(), List.of(aLo), Src.of(aLo),
                TestInstrs.imm(1), Src.of(Reg.RZ)));
        return f;
    }

    @Test
    void anOperandWrittenAgainIsReadAtTheAddWhenItStillHoldsTheMultipliedValue() {
        for (boolean between : new boolean[] {false, true}) {
            FunctionBody f = rewrittenOperand(between);
            String out = combined(f);
            assertEquals(between, out.contains("IADD3.X"), out);
            for (long seed : new long[] {1, -77, 0xabcdef}) {
                assertEquals(OriEvaluator.run(rewrittenOperand(between), seed), OriEvaluator.run(f, seed), out);
            }
        }
    }

    /**
     * Copy propagation went through the multiply's low-word copy: the add reads {@code t.lo}, the copy unread
     * ({@code copyLeft}) or removed.
     */
    private static FunctionBody propagated(boolean copyLeft) {
        FunctionBody f = program(Operand.FULL, false);
        Reg t = Reg.virt(RegFile.R, 4, 2);
        Reg m = Reg.virt(RegFile.R, 6, 2);
        List<Instr> l = f.block(0).instrs();
        for (Instr in : l) {
            if (in.op().name().equals("IADD3") && in.mods().isEmpty()) {
                Rewrites.replaceUses(in, m.component(0), t.component(0));
            }
        }
        if (!copyLeft) {
            l.removeIf(in -> in.dsts().contains(m.component(0)));
        }
        return f;
    }

    @Test
    void theAddReadingTheWideLowWordDirectlyIsFusedToo() {
        for (boolean copyLeft : new boolean[] {true, false}) {
            FunctionBody f = propagated(copyLeft);
            String out = combined(f);
            assertEquals("""
                    IMAD %r9, %r1.hi, %r2.lo, RZ  @11
                    IMAD_WIDE.U32 %r7.64, %r1.lo, %r2.lo, %r3.64  @11
                    IMAD %r10, %r1.lo, %r2.hi, %r9  @11
                    IADD3 %r7.hi, %r7.hi, %r10, RZ  @11
                    """, arithmetic(f), "copy left " + copyLeft + ":\n" + out);
            for (long seed : new long[] {1, -77, 0xabcdef, 0x7fffffff}) {
                assertEquals(OriEvaluator.run(propagated(copyLeft), seed), OriEvaluator.run(f, seed), out);
            }
        }
    }

    /** Every shape computes what the multiply and add did (the one-thread Ori evaluator, loads hashed by seed). */
    @Test
    void theFusedFormStoresTheSameValues() {
        for (Operand kind : Operand.values()) {
            for (boolean constantAddend : new boolean[] {false, true}) {
                FunctionBody f = program(kind, constantAddend);
                String out = combined(f);
                assertTrue(!out.contains("IADD3.X"), kind + " " + constantAddend + ":\n" + out);
                for (long seed : new long[] {1, -77, 0xabcdef, 0x7fffffff, 12345}) {
                    assertEquals(OriEvaluator.run(program(kind, constantAddend), seed), OriEvaluator.run(f, seed),
                            kind + " " + constantAddend + " seed " + seed + ":\n" + out);
                }
            }
        }
    }
}
