package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/**
 * {@link PredicateFolding} in {@link ConstantFolding}: a PLOP3 table whose known inputs decide it is a constant, and
 * the chain a specialised flag test leaves ({@code q = false; r = PT xor q; s = !r; @!s BRA}) folds through to an
 * unconditional branch; a table an unknown input still decides stays.
 */
class PredicateFoldingTest {
    private static Instr plop3(Reg d, Src a, Src b, Src c, int lut) {
        return new Instr(OpInfo.op("PLOP3"), List.of("LUT"), List.of(d, Reg.PT),
                List.of(a, b, c, Src.of(Imm.ofInt(lut)), Src.of(Imm.ofInt(0))), Guard.ALWAYS, 0);
    }

    private static final Src PT = Src.of(Reg.PT);
    private static final Src NOT_PT = new Src(Reg.PT, false, false, true);

    @Test
    void knownInputsDecideTheTable() {
        Reg p = Reg.virt(RegFile.P, 0, 1);
        Src unknown = Src.of(p);
        assertEquals(Boolean.FALSE, PredicateFolding.value(plop3(p, PT, PT, PT, 0x00), s -> OpInfo.constPred(s)));
        assertEquals(Boolean.TRUE, PredicateFolding.value(plop3(p, PT, PT, PT, 0xff), s -> OpInfo.constPred(s)));
        // PT xor !PT, and !(PT xor PT)
        assertEquals(Boolean.TRUE, PredicateFolding.value(plop3(p, PT, NOT_PT, PT, 0x3c), s -> OpInfo.constPred(s)));
        assertEquals(Boolean.TRUE, PredicateFolding.value(plop3(p, PT, PT, PT, 0xc3), s -> OpInfo.constPred(s)));
        // x and !PT is false whatever x is; x and PT is x, not known
        assertEquals(Boolean.FALSE, PredicateFolding.value(plop3(p, unknown, NOT_PT, PT, 0xc0), s -> OpInfo.constPred(s)));
        assertNull(PredicateFolding.value(plop3(p, unknown, PT, PT, 0xc0), s -> OpInfo.constPred(s)));
        // the table is a itself: a decides it
        assertNull(PredicateFolding.value(plop3(p, unknown, PT, PT, 0xf0), s -> OpInfo.constPred(s)));
        assertEquals(Boolean.TRUE, PredicateFolding.value(plop3(p, unknown, unknown, PT, 0xff), s -> null));
    }

    @Test
    void aFalseInputGoesIntoTheTable() {
        // x xor false is x: no target encodes a PLOP3 input of !PT, so the table takes it and the input reads PT
        Reg p = Reg.virt(RegFile.P, 0, 1);
        Reg x = Reg.virt(RegFile.P, 1, 1);
        Instr in = plop3(p, Src.of(x), NOT_PT, PT, 0x3c);
        assertTrue(PredicateFolding.dropFalseInputs(in));
        assertEquals(List.of(Src.of(x), PT, PT, Src.of(Imm.ofInt(0xf0)), Src.of(Imm.ofInt(0))), in.srcs());
        assertFalse(PredicateFolding.dropFalseInputs(in), "nothing left to fix");
        // a and !b with b false: a
        Instr andNot = plop3(p, Src.of(x), PT, NOT_PT, 0x50);
        assertTrue(PredicateFolding.dropFalseInputs(andNot));
        assertEquals(Src.of(Imm.ofInt(0xf0)), andNot.srcs().get(3));
    }

    @Test
    void theFlagTestChainFoldsToAnUnconditionalBranch() {
        for (boolean taken : new boolean[] {true, false}) {
            FunctionBody f = new FunctionBody();
            Reg r = f.newVirtual(RegFile.R, 1);
            Reg q = f.newVirtual(RegFile.P, 1);
            Reg x = f.newVirtual(RegFile.P, 1);
            Reg s = f.newVirtual(RegFile.P, 1);
            BasicBlock b0 = f.addBlock(null);
            BasicBlock b1 = f.addBlock(null);
            BasicBlock b2 = f.addBlock(null);
            b0.instrs().add(plop3(q, PT, PT, PT, taken ? 0x00 : 0xff)); // mov.pred q, 0 (or 1)
            b0.instrs().add(plop3(x, PT, Src.of(q), PT, 0x3c)); // xor.pred x, true, q
            b0.instrs().add(plop3(s, Src.of(x), PT, PT, 0x0f)); // not.pred s, x
            Instr bra = new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(b2.ref())),
                    new Guard(s, true), 0);
            b0.instrs().add(bra);
            b1.instrs().add(new Instr(OpInfo.op("MOV"), List.of(), List.of(r), List.of(Src.of(Imm.ofInt(1))),
                    Guard.ALWAYS, 0));
            b1.instrs().add(new Instr(OpInfo.op("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0));
            b2.instrs().add(new Instr(OpInfo.op("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0));
            OptContext cx = new OptContext(TestProfiles.of("sm_80"), "f");
            assertTrue(new ConstantFolding().run(f, cx));
            if (taken) {
                assertTrue(b0.last().guard().isAlways(), "the branch always goes: " + b0.instrs());
                assertEquals("BRA", b0.last().op().name());
            } else {
                assertFalse(b0.instrs().contains(bra), "the branch never goes: " + b0.instrs());
            }
            assertEquals("PLOP3.LUT %p2, PT, PT, PT, PT, " + (taken ? "0x0" : "0xff") + ", 0x0",
                    b0.instrs().get(2).toString().replaceAll(" +//.*", ""));
        }
    }
}
