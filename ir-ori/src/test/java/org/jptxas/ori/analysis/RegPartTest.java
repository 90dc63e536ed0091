package org.jptxas.ori.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;
import org.junit.jupiter.api.Test;

class RegPartTest {
    @Test
    void partsOfVirtualTuples() {
        Reg r = Reg.virt(RegFile.R, 5, 2);
        Reg hi = r.component(1);
        assertTrue(hi.isPart());
        assertEquals(2, hi.comps());
        assertEquals(1, hi.width());
        assertEquals(r, hi.whole());
        assertEquals("%r5.hi", hi.toString());
        assertEquals("%r5.lo", r.component(0).toString());
        assertEquals(Reg.phys(RegFile.R, 5, 1), Reg.phys(RegFile.R, 4, 2).component(1));
        assertThrows(IllegalArgumentException.class, () -> new Reg(RegFile.R, 4, 2, false, 1));
    }

    @Test
    void writingOnePartDoesNotKillTheOther() {
        FunctionBody body = new FunctionBody();
        Reg r = body.newVirtual(RegFile.R, 2);
        Reg lo = body.newVirtual(RegFile.R, 1);
        OriOpcodes ops = OriOpcodes.get();
        var b0 = body.addBlock(null);
        b0.instrs().add(Instr.of(ops.require("MOV"), List.of(lo), List.of(Src.of(Imm.ofInt(1)))));
        b0.instrs().add(Instr.of(ops.require("MOV"), List.of(r.component(1)), List.of(Src.of(lo))));
        b0.instrs().add(new Instr(ops.require("STG"), List.of("E", "64"), List.of(),
                List.of(Src.of(r), Src.of(r)), Guard.ALWAYS, 0));
        b0.instrs().add(Instr.of(ops.require("EXIT"), List.of(), List.of()));
        Liveness live = new Liveness(body, Cfg.of(body));
        assertTrue(live.liveIn(0, r), "the low half is read before it is written in full");
        assertEquals(List.of(), IrVerifier.verify("f", body), "a part definition defines the register");
    }
}
