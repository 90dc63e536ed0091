package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/** CSE's canonical sources: equal exactly when the sources print alike, the text CSE once keyed on. */
class SourceTextTest {
    private static List<Operand> operands() {
        List<Reg> regs = new ArrayList<>(List.of(Reg.RZ, Reg.URZ, Reg.PT, Reg.UPT,
                Reg.virt(RegFile.R, 5, 1), Reg.virt(RegFile.R, 5, 2), Reg.virt(RegFile.R, 5, 4),
                Reg.virt(RegFile.UR, 5, 1), Reg.virt(RegFile.P, 5, 1), Reg.virt(RegFile.R, 6, 1),
                Reg.phys(RegFile.R, 5, 1), Reg.phys(RegFile.R, 4, 2)));
        for (int comps = 2; comps <= 4; comps++) {
            for (int part = 0; part < comps; part++) {
                regs.add(new Reg(RegFile.R, 5, comps, true, part));
            }
        }
        List<Operand> all = new ArrayList<>(regs);
        all.add(new Imm(5));
        all.add(new Imm(0x100000005L));
        all.add(new SpecialReg("SR_TID.X"));
        all.add(CBank.of(0, 0x160));
        all.add(new CBank(0, 0x160, Reg.URZ));
        all.add(new CBank(0, 0x160, Reg.virt(RegFile.UR, 3, 1)));
        all.add(new CBank(0, 0x160, new Reg(RegFile.UR, 3, 3, true, 1)));
        all.add(new CBank(0, 0x160, new Reg(RegFile.UR, 3, 4, true, 1)));
        Reg[] bases = {Reg.RZ, Reg.URZ, Reg.virt(RegFile.R, 7, 2), new Reg(RegFile.R, 7, 3, true, 2),
            new Reg(RegFile.R, 7, 4, true, 2)};
        Reg[] uniforms = {null, Reg.URZ, Reg.virt(RegFile.UR, 8, 1), new Reg(RegFile.UR, 8, 3, true, 0),
            new Reg(RegFile.UR, 8, 4, true, 0)};
        for (Reg base : bases) {
            for (Reg uniform : uniforms) {
                for (long offset : new long[] {0, 0x10, -0x10}) {
                    all.add(new Addr(base, uniform, offset));
                }
            }
        }
        return all;
    }

    private static List<Src> sources() {
        List<Src> all = new ArrayList<>();
        for (Operand o : operands()) {
            all.add(Src.of(o));
            all.add(Src.of(o).negated());
            all.add(new Src(o, false, true, false));
            all.add(Src.of(o).inverted());
        }
        return all;
    }

    /** The text CSE keyed each source on: its modifiers, then its operand. */
    private static String text(Src s) {
        return "" + s.neg() + s.abs() + s.not() + s.value();
    }

    @Test
    void canonicalSourcesAreEqualExactlyWhenTheyPrintAlike() {
        List<Src> all = sources();
        int alikeButUnequal = 0;
        for (Src a : all) {
            for (Src b : all) {
                boolean alike = text(a).equals(text(b));
                assertEquals(alike, SourceText.canonical(a).equals(SourceText.canonical(b)), a + " against " + b);
                if (alike && !a.equals(b)) {
                    alikeButUnequal++;
                }
            }
        }
        // the cases the canonical forms exist for are among the pairs
        assertTrue(alikeButUnequal > 0);
    }

    @Test
    void aCanonicalSourceIsItself() {
        for (Src s : sources()) {
            Object c = SourceText.canonical(s);
            if (c instanceof Src cs) {
                assertEquals(c, SourceText.canonical(cs), s.toString());
            }
        }
        Src r = Src.of(Reg.virt(RegFile.R, 5, 2));
        assertSame(r, SourceText.canonical(r));
    }
}
