package org.jptxas.ori.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.opcode.OriOpcodes;
import org.junit.jupiter.api.Test;

class DefUseWalkTest {
    /** Records each callback as text, in the order the walk makes them. */
    private static final class Recorder implements DefUseVisitor {
        final List<String> events = new ArrayList<>();

        @Override
        public void instr(BasicBlock block, int index, Instr in) {
            events.add("instr " + block.id() + ":" + index + " " + in.op().name());
        }

        @Override
        public void def(Instr in, Reg r) {
            events.add("def " + r);
        }

        @Override
        public void use(Instr in, Reg r) {
            events.add("use " + r);
        }
    }

    @Test
    void visitsBlocksInOrderEachInstructionThenItsDefinitionsThenItsUses() {
        OriOpcodes ops = OriOpcodes.get();
        FunctionBody body = new FunctionBody();
        Reg a = body.newVirtual(RegFile.R, 1);
        Reg b = body.newVirtual(RegFile.R, 1);
        Reg p = body.newVirtual(RegFile.P, 1);
        Reg physical = Reg.phys(RegFile.R, 3, 1);
        BasicBlock b0 = body.addBlock(null);
        b0.instrs().add(Instr.of(ops.require("MOV"), List.of(a), List.of(Src.of(Imm.ofInt(1)))));
        BasicBlock b1 = body.addBlock(null);
        // guarded: the guard's predicate is read after the sources
        b1.instrs().add(new Instr(ops.require("IADD3"), List.of(), List.of(b),
                List.of(Src.of(a), Src.of(physical), Src.of(a)), new Guard(p, false), 0));
        b1.instrs().add(Instr.of(ops.require("EXIT"), List.of(), List.of()));
        Recorder recorder = new Recorder();
        DefUseWalk.walk(body, recorder);
        assertEquals(List.of(
                "instr 0:0 MOV", "def " + a,
                "instr 1:0 IADD3", "def " + b, "use " + a, "use " + physical, "use " + a, "use " + p,
                "instr 1:1 EXIT"), recorder.events);
    }

    @Test
    void numberingCoversRegistersMadeWithoutTheBody() {
        FunctionBody body = new FunctionBody();
        Reg counted = body.newVirtual(RegFile.R, 1);
        // a register a rewriter named directly, past the body's count
        Reg named = Reg.virt(RegFile.R, 7, 1);
        body.addBlock(null).instrs().add(Instr.of(OriOpcodes.get().require("MOV"), List.of(named),
                List.of(Src.of(counted))));
        VirtualNumbering numbers = new VirtualNumbering(body);
        assertEquals(8, numbers.size(), "R0 ... R7, the body counting only the first");
        assertEquals(0, numbers.of(counted));
        assertEquals(7, numbers.of(named));
        assertEquals(-1, numbers.of(Reg.phys(RegFile.R, 7, 1)));
    }
}
