package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * Constant folding puts a known register into an f32 instruction's immediate slot with the sign bit flipped where the
 * source is negated: {@code FADD d, x, -c} with c = 9.575 (0x41193308) becomes {@code FADD d, x, -9.575}
 * (0xc1193308), not the two's complement 0x3ee6ccf8 (0.4508), which random programs 2072, 2334, 2534, 2553, 2561,
 * 2623 and 2645 computed. An absolute value stays a register read.
 */
class FloatOperandSubstitutionTest {
    private static final float C = Float.intBitsToFloat(0x41193308);

    /** {@code MOV c, C; op d, x, <c with modifiers>[, third]; STG d} through constant folding. */
    private static Instr fold(String op, List<String> mods, boolean neg, boolean abs, boolean third) {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg c = f.newVirtual(RegFile.R, 1);
        Reg d = f.newVirtual(RegFile.R, 1);
        List<Instr> l = b.instrs();
        l.add(TestInstrs.ins("MOV", List.of(), List.of(p.component(0)), Src.of(CBank.of(0, 0x160))));
        l.add(TestInstrs.ins("MOV", List.of(), List.of(p.component(1)), Src.of(CBank.of(0, 0x164))));
        l.add(TestInstrs.ins("LDG", List.of("E"), List.of(x), Src.of(Addr.of(p, 0))));
        l.add(TestInstrs.ins("MOV", List.of(), List.of(c), Src.of(Imm.ofFloat(C))));
        Src k = new Src(c, neg, abs, false);
        Instr use = third ? TestInstrs.ins(op, mods, List.of(d), Src.of(x), k, Src.of(x))
                : TestInstrs.ins(op, mods, List.of(d), Src.of(x), k);
        l.add(use);
        l.add(TestInstrs.ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(d)));
        l.add(TestInstrs.ins("EXIT", List.of(), List.of()));
        TestInstrs.run(f, "sm_80", new ConstantFolding());
        return use;
    }

    private static long immediate(Instr in) {
        assertTrue(in.srcs().get(1).value() instanceof Imm, in.toString());
        assertTrue(!in.srcs().get(1).hasModifiers(), in.toString());
        return ((Imm) in.srcs().get(1).value()).bits() & 0xffffffffL;
    }

    @Test
    void aNegatedKnownRegisterIsTheConstantWithItsSignFlipped() {
        assertEquals(0xc1193308L, immediate(fold("FADD", List.of(), true, false, false)));
        assertEquals(0xc1193308L, immediate(fold("FADD", List.of("FTZ"), true, false, false)));
        assertEquals(0xc1193308L, immediate(fold("FMUL", List.of(), true, false, false)));
        assertEquals(0xc1193308L, immediate(fold("FFMA", List.of(), true, false, true)));
        assertEquals(0x41193308L, immediate(fold("FADD", List.of(), false, false, false)));
    }

    @Test
    void anAbsoluteValueIsNotSubstituted() {
        Instr in = fold("FADD", List.of(), true, true, false);
        assertTrue(in.srcs().get(1).value() instanceof Reg, in.toString());
    }

    @Test
    void integerNegationStaysTwosComplement() {
        Instr in = fold("IADD3", List.of(), true, false, true);
        assertEquals(-0x41193308L & 0xffffffffL, immediate(in));
    }
}
