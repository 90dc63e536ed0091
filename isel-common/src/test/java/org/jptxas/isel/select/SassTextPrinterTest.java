package org.jptxas.isel.select;

import static org.jptxas.isel.select.OriBuild.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassPrinter;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

class SassTextPrinterTest {
    private static final SassTextPrinter SM80 = SassTextPrinter.of(TestTargets.of("sm_80"));
    private static final SassTextPrinter SM75 = SassTextPrinter.of(TestTargets.of("sm_75"));

    /** Prints for sm_80, then checks assemble → decode → print gives the same text. */
    private static String print(SassTextPrinter printer, Instr ins) {
        SassLine line = printer.print(ins, b -> ".L_x_" + b);
        long[] w = new SassAssembler(printer.isa()).assemble(line.assemblyText(), 0x40, name -> 0x80);
        SassInstruction back = printer.isa().decode(w[0], w[1]);
        if (line.relocation() == null && back instanceof SassInstruction.Known) {
            assertEquals(line.text(), SassPrinter.text(back, 0x40, a -> a == 0x80 ? ".L_x_3" : null));
        }
        return line.text();
    }

    @Test
    void arithmeticOmitsDefaultCarryOutsButKeepsPredicateOperandsNvdisasmPrints() {
        assertEquals("IADD3 R0, R1, R2, RZ",
                print(SM80, ins("IADD3", mods(), dst(r(0)), dst(Reg.PT), dst(Reg.PT), r(1), r(2), Reg.RZ)));
        assertEquals("IADD3 R0, P0, R1, R2, RZ",
                print(SM80, ins("IADD3", mods(), dst(r(0)), dst(p(0)), dst(Reg.PT), r(1), r(2), Reg.RZ)));
        assertEquals("ISETP.GE.AND P0, PT, R0, c[0x0][0x170], PT",
                print(SM80, ins("ISETP", mods("GE", "AND"), dst(p(0)), dst(Reg.PT), r(0), c(0, 0x170), Reg.PT)));
        assertEquals("IMAD.WIDE R2, R0, 0x4, R4",
                print(SM80, ins("IMAD_WIDE", mods(), dst(r(2, 2)), r(0), imm(4), r(4, 2))));
        assertEquals("IMAD.MOV.U32 R11, RZ, RZ, 0x40200000",
                print(SM80, ins("IMAD", mods("MOV", "U32"), dst(r(11)), Reg.RZ, Reg.RZ, imm(0x40200000))));
        assertEquals("SHF.R.S32.HI R11, RZ, 0x3, R0",
                print(SM80, ins("SHF", mods("R", "S32", "HI"), dst(r(11)), Reg.RZ, imm(3), r(0))));
    }

    @Test
    void immediatesTakeTheSpellingOfTheirSlot() {
        assertEquals("FFMA R11, R2, R11, 1",
                print(SM80, ins("FFMA", mods(), dst(r(11)), r(2), r(11), imm(0x3f800000))));
        assertEquals("DFMA R8, R8, R2, 1.5",
                print(SM80, ins("DFMA", mods(), dst(r(8, 2)), r(8, 2), r(2, 2), imm(0x3ff8000000000000L))));
        assertEquals("IADD3 R0, R1, -0x4, RZ",
                print(SM80, ins("IADD3", mods(), dst(r(0)), dst(Reg.PT), dst(Reg.PT), r(1), imm(0xfffffffcL), Reg.RZ)));
        assertEquals("MOV R3, 0x40080000", print(SM80, ins("MOV", mods(), dst(r(3)), imm(0x40080000))));
    }

    @Test
    void sourceModifiersAndGuards() {
        Instr fadd = guarded(new Guard(p(1), true), "FADD", mods(), dst(r(0)),
                new Src(r(1), true, false, false), r(2));
        assertEquals("@!P1 FADD R0, -R1, R2", print(SM80, fadd));
        assertEquals("FADD R0, |R1|, R2",
                print(SM80, ins("FADD", mods(), dst(r(0)), new Src(r(1), false, true, false), r(2))));
        assertEquals("@P0 EXIT", print(SM80, guarded(new Guard(p(0), false), "EXIT", mods())));
    }

    @Test
    void memoryAddressesAsEachTargetSpellsThem() {
        assertEquals("LDG.E R2, [R2.64]", print(SM80, ins("LDG", mods("E"), dst(r(2)), addr(r(2, 2), 0))));
        assertEquals("STG.E [R4.64+0x10], R11", print(SM80, ins("STG", mods("E"), addr(r(4, 2), 0x10), r(11))));
        assertEquals("LDG.E.SYS R2, [R2+0x10]", print(SM75, ins("LDG", mods("E", "SYS"), dst(r(2)), addr(r(2, 2), 0x10))));
        assertEquals("LDS R0, [R3+-0x8]", print(SM80, ins("LDS", mods(), dst(r(0)), addr(r(3), -8))));
    }

    @Test
    void sm90GlobalMemoryGoesThroughADescriptor() {
        SassTextPrinter sm90 = SassTextPrinter.of(TestTargets.of("sm_90"));
        SelectedInstr ldg = new SelectedInstr(Guard.ALWAYS, "LDG.E",
                java.util.List.of(Src.of(r(2)), Src.of(ur(6, 2)), Src.of(addr(r(2, 2), 0))), 1, 3);
        assertEquals("LDG.E R2, desc[UR6][R2.64]", sm90.print(ldg, b -> "x").text());
    }

    @Test
    void specialRegistersLabelsAndRelocations() {
        assertEquals("S2R R0, SR_TID.X", print(SM80, ins("S2R", mods(), dst(r(0)), new SpecialReg("SR_TID.X"))));
        assertEquals("ULDC.64 UR6, c[0x0][0x118]", print(SM80, ins("ULDC", mods("64"), dst(ur(6, 2)), c(0, 0x118))));
        assertEquals("@!P0 BRA `(.L_x_3)", print(SM80, guarded(new Guard(p(0), true), "BRA", mods(), new BlockLabel(3))));
        SassLine mov = SM80.print(ins("MOV", mods(), dst(r(2)), new Sym("g", Sym.Kind.GLOBAL, Sym.Part.LO32, 0)), b -> "x");
        assertEquals("MOV R2, 32@lo(g)", mov.text());
        assertEquals("MOV R2, 0x0", mov.assemblyText());
        assertEquals("g", mov.relocation().name());
    }

    @Test
    void unencodableTextIsAnErrorNamingInstructionAndLine() {
        SelectionException e = assertThrows(SelectionException.class,
                () -> SM80.print(ins("IADD3", mods(), dst(r(0)), c(0, 0x10), c(0, 0x20), Reg.RZ), b -> "x"));
        assertTrue(e.getMessage().contains("IADD3") && e.getMessage().contains("line 7"), e.getMessage());
        assertEquals(7, e.line());
        assertThrows(SelectionException.class,
                () -> SM80.print(ins("MOV", mods(), dst(vr(3)), r(1)), b -> "x"));
    }

    @Test
    void formsTheTablesSawWithOneRegisterOnlyTakeOtherRegisters() {
        // The learned tables hold these only with literal registers (S2R R11, SR_CTAID.Z on sm_75; HADD2 and
        // FADD |R|, -RZ with fixed registers): the assembler generalizes the literal to its sibling forms' field.
        assertEquals("S2R R12, SR_CTAID.Z", print(SM75, ins("S2R", mods(), dst(r(12)), new SpecialReg("SR_CTAID.Z"))));
        assertEquals("HADD2 R5, R0, R4", print(SM80, ins("HADD2", mods(), dst(r(5)), r(0), r(4))));
        assertEquals("FADD R2, |R0|, -RZ", print(SM80, ins("FADD", mods(), dst(r(2)), new Src(r(0), false, true, false),
                new Src(Reg.RZ, true, false, false))));
    }

    @Test
    void sharedTablesLoad() {
        assertTrue(TestTargets.of("sm_90").isa().forms().size() > 100);
    }
}
