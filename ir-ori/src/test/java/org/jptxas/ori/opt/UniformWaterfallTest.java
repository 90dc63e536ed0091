package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.jptxas.ori.opt.TestInstrs.imm;
import static org.jptxas.ori.opt.TestInstrs.ins;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/** The operand loop the front end builds around a uniform-register instruction, with a uniform or a varying operand. */
class UniformWaterfallTest {
    /**
     * {@code SYNCS.EXCH.64 [ua], word} served by the loop of one distinct address per trip (not per lane), the
     * address read from a kernel parameter ({@code varying} false) or made from {@code %tid.x}.
     */
    private static FunctionBody loop(boolean varying) {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        BasicBlock loop = f.addBlock(null);
        BasicBlock exit = f.addBlock(null);
        Reg v = f.newVirtual(RegFile.R, 1);
        Reg word = f.newVirtual(RegFile.UR, 2);
        Reg here = f.newVirtual(RegFile.R, 1);
        Reg pending = f.newVirtual(RegFile.P, 1);
        List<Instr> e = entry.instrs();
        e.add(varying ? ins("S2R", List.of(), List.of(v), Src.of(new SpecialReg("SR_TID.X")))
                : ins("MOV", List.of(), List.of(v), Src.of(CBank.of(0, 0x210))));
        e.add(ins("UMOV", List.of(), List.of(word.component(0)), imm(1)));
        e.add(ins("UMOV", List.of(), List.of(word.component(1)), imm(2)));
        e.add(ins("VOTE", List.of("ANY"), List.of(here, Reg.PT), Src.of(Reg.PT)));
        e.add(ins("PLOP3", List.of("LUT"), List.of(pending, Reg.PT), Src.of(Reg.PT), Src.of(Reg.PT), Src.of(Reg.PT),
                imm(0x80), imm(0)));
        Reg elected = f.newVirtual(RegFile.P, 1);
        Reg leader = f.newVirtual(RegFile.UR, 1);
        Reg lane = f.newVirtual(RegFile.R, 1);
        Reg led = f.newVirtual(RegFile.R, 1);
        Reg ua = f.newVirtual(RegFile.UR, 1);
        Reg same = f.newVirtual(RegFile.P, 1);
        Reg any = f.newVirtual(RegFile.P, 1);
        List<Instr> l = loop.instrs();
        l.add(ins("WARPSYNC", List.of(), List.of(), Src.of(here)));
        l.add(ins("ELECT", List.of(), List.of(elected, leader), Src.of(pending)));
        l.add(ins("MOV", List.of(), List.of(lane), Src.of(leader)));
        l.add(ins("WARPSYNC", List.of(), List.of(), Src.of(here)));
        l.add(ins("SHFL", List.of("IDX"), List.of(Reg.PT, led), Src.of(v), Src.of(lane), imm(0x1f)));
        l.add(ins("R2UR", List.of(), List.of(ua), Src.of(led)));
        l.add(ins("ISETP", List.of("EQ", "U32", "AND"), List.of(same, Reg.PT), Src.of(v), Src.of(led),
                Src.of(pending)));
        l.add(ins("SYNCS", List.of("EXCH", "64"), List.of(Reg.URZ), Src.of(Addr.of(ua, 0)), Src.of(word)));
        l.add(ins("PLOP3", List.of("LUT"), List.of(pending, Reg.PT), Src.of(pending), Src.of(same), Src.of(Reg.PT),
                imm(0x30), imm(0)));
        l.add(ins("WARPSYNC", List.of(), List.of(), Src.of(here)));
        l.add(ins("VOTE", List.of("ANY"), List.of(f.newVirtual(RegFile.R, 1), any), Src.of(pending)));
        Instr back = ins("BRA", List.of(), List.of(), Src.of(loop.ref()));
        back.setGuard(new Guard(any, false));
        l.add(back);
        exit.instrs().add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    @Test
    void aUniformOperandIsReadDirectlyAndTheLoopIsOneTrip() {
        String out = TestInstrs.run(loop(false), "sm_90", new UniformWaterfall());
        assertFalse(out.contains("SHFL"), out);
        assertFalse(out.contains("ELECT") || out.contains("VOTE") || out.contains("BRA") || out.contains("WARPSYNC"),
                out);
        assertTrue(out.contains("MOV %r3, %r0\nR2UR %ur2, %r3"), out); // the shuffle became a copy
        assertTrue(out.contains("SYNCS.EXCH.64"), out);
    }

    @Test
    void aPerThreadOperandKeepsTheLoop() {
        FunctionBody body = loop(true);
        int before = body.instructionCount();
        String out = TestInstrs.run(body, "sm_90", new UniformWaterfall());
        assertTrue(out.contains("SHFL.IDX"), out);
        assertTrue(out.contains("ELECT") && out.contains("BRA"), out);
        assertEquals(before, body.instructionCount(), out);
    }
}
