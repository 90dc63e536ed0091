package org.jptxas.isel.select;

import static org.jptxas.isel.select.OriBuild.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;

class PrintShapeTest {
    private static PrintShape shape(Instr in) {
        return PrintShape.of(SelectedInstr.passThrough(in));
    }

    @Test
    void registerNumbersAndLabelsDoNotMatterButTheirPatternDoes() {
        Instr a = ins("IADD3", mods(), dst(r(0)), dst(Reg.PT), dst(Reg.PT), r(1), r(2), Reg.RZ);
        Instr b = ins("IADD3", mods(), dst(r(12)), dst(Reg.PT), dst(Reg.PT), r(17), r(6), Reg.RZ);
        assertEquals(shape(a), shape(b));
        assertEquals(shape(a).hashCode(), shape(b).hashCode());
        // a repeated register stays repeated, a zero register stays zero, the alignment modulo 4 stays
        assertNotEquals(shape(a), shape(ins("IADD3", mods(), dst(r(0)), dst(Reg.PT), dst(Reg.PT), r(1), r(1), Reg.RZ)));
        assertNotEquals(shape(a), shape(ins("IADD3", mods(), dst(r(0)), dst(Reg.PT), dst(Reg.PT), r(1), Reg.RZ, Reg.RZ)));
        assertNotEquals(shape(a), shape(ins("IADD3", mods(), dst(r(1)), dst(Reg.PT), dst(Reg.PT), r(1), r(2), Reg.RZ)));
        // immediates keep their value (their spelling depends on it)
        assertNotEquals(shape(ins("MOV", mods(), dst(r(3)), imm(1))), shape(ins("MOV", mods(), dst(r(3)), imm(2))));
        assertEquals(shape(guarded(new Guard(p(0), false), "BRA", mods(), new BlockLabel(3))),
                shape(guarded(new Guard(p(4), false), "BRA", mods(), new BlockLabel(9))));
        assertNotEquals(shape(guarded(new Guard(p(0), false), "BRA", mods(), new BlockLabel(3))),
                shape(guarded(new Guard(p(0), true), "BRA", mods(), new BlockLabel(3))));
    }

    @Test
    void aShapesSpellingPrintsWhatAFreshSearchPrints() {
        List<Instr> first = List.of(
                ins("IADD3", mods(), dst(r(0)), dst(Reg.PT), dst(Reg.PT), r(1), r(2), Reg.RZ),
                ins("LDG", mods("E"), dst(r(2)), addr(r(2, 2), 0)),
                ins("FFMA", mods(), dst(r(11)), r(2), r(11), imm(0x3f800000)),
                guarded(new Guard(p(0), false), "BRA", mods(), new BlockLabel(3)));
        List<Instr> second = List.of(
                ins("IADD3", mods(), dst(r(9)), dst(Reg.PT), dst(Reg.PT), r(13), r(6), Reg.RZ),
                ins("LDG", mods("E"), dst(r(7)), addr(r(10, 2), 0)),
                ins("FFMA", mods(), dst(r(5)), r(4), r(5), imm(0x3f800000)),
                guarded(new Guard(p(2), false), "BRA", mods(), new BlockLabel(5)));
        SassTextPrinter warm = SassTextPrinter.of(TestTargets.of("sm_80"));
        for (Instr in : first) {
            warm.print(in, b -> ".L_x_" + b);
        }
        for (Instr in : second) {
            SassTextPrinter fresh = SassTextPrinter.of(TestTargets.of("sm_80"));
            assertEquals(fresh.print(in, b -> ".L_x_" + b), warm.print(in, b -> ".L_x_" + b));
        }
        assertEquals("LDG.E R7, [R10.64]", warm.print(second.get(1), b -> ".L_x_" + b).text());
    }
}
