package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/**
 * If-conversion of a side that ends in a return or exit: ptxas 13 writes {@code @!P0 MOV; @!P0 ST; @!P0 RET} for
 * {@code @P0 BRA C; MOV; ST; RET; C:} (four instructions before the return, not six, nor a load and its store).
 */
class IfConversionLeavingSideTest {
    private static final OptContext CX = new OptContext(TestProfiles.of("sm_80"), "f");

    private record Shape(FunctionBody body, BasicBlock a, BasicBlock b, BasicBlock c, Reg p) {}

    private static Instr ret() {
        return new Instr(OpInfo.op("RET"), List.of("REL", "NODEC"), List.of(),
                List.of(Src.of(Reg.phys(RegFile.R, 6, 1)), Src.of(Reg.phys(RegFile.R, 7, 1)),
                        Src.of(new Sym("k", Sym.Kind.FUNCTION))), Guard.ALWAYS, 30);
    }

    private static Instr exit() {
        return new Instr(OpInfo.op("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 30);
    }

    private static Instr mov(Reg d, int v) {
        return new Instr(OpInfo.op("MOV"), List.of(), List.of(d), List.of(Src.of(Imm.ofInt(v))), Guard.ALWAYS, 10);
    }

    private static Instr store(Reg base, int offset, Reg value) {
        return new Instr(OpInfo.op("ST"), List.of("E"), List.of(), List.of(Src.of(Addr.of(base, offset)), Src.of(value)),
                Guard.ALWAYS, 20);
    }

    private static Instr load(Reg d, Reg base, int offset) {
        return new Instr(OpInfo.op("LD"), List.of("E"), List.of(d), List.of(Src.of(Addr.of(base, offset))),
                Guard.ALWAYS, 20);
    }

    /** {@code A: @P BRA C; B: stores (each after its load, if asked), then leave; C: a store, leave}. */
    private static Shape shape(int stores, boolean load, Instr leave) {
        FunctionBody body = new FunctionBody();
        Reg a = body.newVirtual(RegFile.R, 2);
        Reg p = body.newVirtual(RegFile.P, 1);
        BasicBlock ba = body.addBlock(null);
        BasicBlock bb = body.addBlock(null);
        BasicBlock bc = body.addBlock("$C");
        ba.instrs().add(mov(a.component(0), 0));
        ba.instrs().add(mov(a.component(1), 0));
        ba.instrs().add(new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(bc.ref())),
                new Guard(p, false), 5));
        // the value comes from A: without the backend's answer, MOV is not among the forms predicated
        Reg v = body.newVirtual(RegFile.R, 1);
        ba.instrs().add(0, mov(v, 11));
        for (int i = 0; i < stores; i++) {
            if (load) {
                bb.instrs().add(load(v, a, 64 + 4 * i));
            }
            bb.instrs().add(store(a, 4 * i, v));
        }
        bb.instrs().add(leave);
        Reg w = body.newVirtual(RegFile.R, 1);
        bc.instrs().add(mov(w, 51));
        bc.instrs().add(store(a, 100, w));
        bc.instrs().add(OpInfo.is(leave, "RET") ? ret() : exit());
        return new Shape(body, ba, bb, bc, p);
    }

    @Test
    void aShortSideEndingInReturnIsPredicatedWithItsReturn() {
        Shape s = shape(4, false, ret());
        assertTrue(new IfConversion().run(s.body(), CX));
        assertEquals("MOV", s.a().last().op().name(), "A's branch is gone");
        for (Instr in : s.b().instrs()) {
            assertEquals(new Guard(s.p(), true), in.guard(), in.toString());
        }
        assertEquals("RET", s.b().last().op().name());
        assertTrue(s.c().instrs().stream().allMatch(in -> in.guard().isAlways()), "C runs as it did");
    }

    @Test
    void aShortSideEndingInExitIsPredicatedWithItsExit() {
        Shape s = shape(1, false, exit());
        assertTrue(new IfConversion().run(s.body(), CX));
        assertEquals(new Guard(s.p(), true), s.b().last().guard());
        assertEquals("EXIT", s.b().last().op().name());
    }

    @Test
    void aLongerSideKeepsItsBranch() {
        Shape s = shape(5, false, ret());
        assertFalse(new IfConversion().run(s.body(), CX));
        assertEquals("BRA", s.a().last().op().name());
    }

    @Test
    void aSideThatLoadsKeepsItsBranch() {
        Shape s = shape(1, true, ret());
        assertFalse(new IfConversion().run(s.body(), CX));
        assertTrue(s.b().last().guard().isAlways());
    }
}
