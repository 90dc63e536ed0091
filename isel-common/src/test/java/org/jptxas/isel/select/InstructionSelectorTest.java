package org.jptxas.isel.select;

import static org.jptxas.isel.select.OriBuild.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/** Per-target spellings, each as ptxas 13 / nvdisasm 12.5 print the same PTX for the targets compared. */
class InstructionSelectorTest {
    static final InstructionSelector SM75 = InstructionSelector.of(TestTargets.of("sm_75"));
    static final InstructionSelector SM80 = InstructionSelector.of(TestTargets.of("sm_80"));
    static final InstructionSelector SM86 = InstructionSelector.of(TestTargets.of("sm_86"));
    static final InstructionSelector SM89 = InstructionSelector.of(TestTargets.of("sm_89"));
    static final InstructionSelector SM90 = InstructionSelector.of(TestTargets.of("sm_90"));

    private static String text(InstructionSelector s, Instr ins) {
        return s.emit(ins, b -> ".L_x_" + b).text();
    }

    /** The Ori as lowering writes it, plus the descriptor sm_90's legalizer appends. */
    private static Instr withDescriptor(Instr ins) {
        ins.srcs().add(org.jptxas.ori.ir.Src.of(ur(6, 2)));
        return ins;
    }

    @Test
    void globalMemory() {
        Instr ldg = ins("LDG", mods("E"), dst(r(0)), addr(r(4, 2), 0x8));
        assertEquals("LDG.E R0, [R4.64+0x8]", text(SM80, ldg));
        assertEquals("LDG.E R0, [R4.64+0x8]", text(SM86, ldg));
        assertEquals("LDG.E R0, [R4.64+0x8]", text(SM89, ldg));
        assertEquals("LDG.E.SYS R0, [R4+0x8]", text(SM75, ldg));
        assertEquals("LDG.E R0, desc[UR6][R4.64+0x8]", text(SM90, withDescriptor(ldg)));
        Instr strong = ins("STG", mods("E", "STRONG", "SYS"), addr(r(4, 2), 0x14), r(9));
        assertEquals("STG.E.STRONG.SYS [R4+0x14], R9", text(SM75, strong));
        Instr st = ins("STG", mods("E", "64"), addr(r(6, 2), 0), r(8, 2));
        assertEquals("STG.E.64.SYS [R6], R8", text(SM75, st));
        assertEquals("STG.E.64 desc[UR6][R6.64], R8", text(SM90, withDescriptor(st)));
        Instr ro = ins("LDG", mods("E", "CONSTANT"), dst(r(4)), addr(r(2, 2), 0));
        assertEquals("LDG.E.CONSTANT.SYS R4, [R2]", text(SM75, ro));
    }

    @Test
    void reductionsAndAtomics() {
        Instr red = guarded(new Guard(p(0), false), "RED", mods("E", "ADD", "STRONG", "GPU"), addr(r(4, 2), 0), r(7));
        assertEquals("@P0 RED.E.ADD.STRONG.GPU [R4.64], R7", text(SM80, red));
        assertEquals("RED.E.ADD.STRONG.GPU [R4], R7",
                text(SM75, ins("RED", mods("E", "ADD", "STRONG", "GPU"), addr(r(4, 2), 0), r(7))));
        assertEquals("@P0 REDG.E.ADD.STRONG.GPU desc[UR6][R4.64], R7", text(SM90, withDescriptor(red)));
        Instr atom = ins("ATOMG", mods("E", "ADD", "STRONG", "GPU"), dst(Reg.PT), dst(r(6)), addr(r(4, 2), 0), r(9));
        assertEquals("ATOMG.E.ADD.STRONG.GPU PT, R6, [R4.64], R9", text(SM80, atom));
        assertEquals("ATOMG.E.ADD.STRONG.GPU PT, R6, desc[UR6][R4.64], R9", text(SM90, withDescriptor(atom)));
    }

    @Test
    void sharedMemoryAndBarriers() {
        Instr lds = ins("LDS", mods(), dst(r(8)), addr(Reg.RZ, 4));
        assertEquals("LDS R8, [0x4]", text(SM80, lds));
        assertEquals("LDS.U R5, [0x4]", text(SM75, ins("LDS", mods(), dst(r(5)), addr(Reg.RZ, 4))));
        Instr bar = ins("BAR", mods("SYNC", "DEFER_BLOCKING"), imm(0));
        assertEquals("BAR.SYNC.DEFER_BLOCKING 0x0", text(SM80, bar));
        assertEquals("BAR.SYNC 0x0", text(SM75, bar));
        assertEquals("BAR.SYNC.DEFER_BLOCKING 0x0", text(SM90, bar));
    }

    @Test
    void arithmeticSpelledDifferentlyOnHopperAndTuring() {
        Instr mn = ins("IMNMX", mods("U32"), dst(r(5)), r(0), imm(0x1388), Reg.PT);
        assertEquals("IMNMX.U32 R5, R0, 0x1388, PT", text(SM80, mn));
        assertEquals("VIMNMX.U32 R5, R0, 0x1388, PT", text(SM90, mn));
        assertEquals("IMNMX.U32 R5, R0, 0x1388, PT", text(SM89, mn));
        Instr i2f = ins("I2F", mods(), dst(r(0)), r(4));
        assertEquals("I2F R0, R4", text(SM80, i2f));
        assertEquals("I2FP.F32.S32 R0, R4", text(SM90, i2f));
        assertEquals("I2FP.F32.U32 R3, R9", text(SM90, ins("I2F", mods("U32"), dst(r(3)), r(9))));
        Instr pack = ins("F2FP", mods("PACK_AB"), dst(r(0)), Reg.RZ, r(0));
        assertEquals("F2FP.PACK_AB R0, RZ, R0", text(SM80, pack));
        assertEquals("F2FP.F16.F32.PACK_AB R0, RZ, R0", text(SM90, pack));
        assertEquals("F2F.F16.F32 R0, R0", text(SM75, pack));
        assertEquals("NANOSLEEP.WARP 0x1", text(SM75, ins("NANOSLEEP", mods(), imm(1))));
        assertEquals("NANOSLEEP 0x1", text(SM80, ins("NANOSLEEP", mods(), imm(1))));
    }

    @Test
    void highestPriorityWinsAndTheFallbackIsLowest() {
        Instr ldg = ins("LDG", mods("E"), dst(r(0)), addr(r(4, 2), 0));
        List<Matcher> c = SM75.candidates(ldg);
        assertEquals(List.of("weak-global-memory-is-sys", "sm80-spelling"), c.stream().map(Matcher::name).toList());
        assertEquals("weak-global-memory-is-sys", SM75.select(ldg, b -> "x").matcher().name());
        for (int i = 1; i < SM90.matchers().size(); i++) {
            assertTrue(SM90.matchers().get(i - 1).priority() >= SM90.matchers().get(i).priority());
        }
    }

    @Test
    void anInstructionNoMatcherEncodesIsAnErrorNamingItAndItsLine() {
        // REDUX is sm_80+: nothing selects it for sm_75.
        Instr redux = ins("REDUX", mods("SUM"), dst(ur(5)), r(9));
        assertEquals("REDUX.SUM UR5, R9", text(SM80, redux));
        SelectionException e = assertThrows(SelectionException.class, () -> text(SM75, redux));
        assertTrue(e.getMessage().contains("no sm_75 matcher selects 'REDUX.SUM UR5, R9' (PTX line 7)"), e.getMessage());
        assertEquals(7, e.line());
    }

    @Test
    void sm87And88UseTheSm86EncodingTable() {
        assertEquals("sm_86", InstructionSelector.of(TestTargets.of("sm_88")).printer().isa().sm());
        assertEquals("sm_90", InstructionSelector.of(TestTargets.of("sm_90a")).printer().isa().sm());
        InstructionSelector sm87 = InstructionSelector.of(TestTargets.of("sm_87"));
        assertEquals("LDG.E R0, [R4.64]", text(sm87, ins("LDG", mods("E"), dst(r(0)), addr(r(4, 2), 0))));
    }
}
