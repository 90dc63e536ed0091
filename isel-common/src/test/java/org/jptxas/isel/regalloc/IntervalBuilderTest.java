package org.jptxas.isel.regalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;
import org.junit.jupiter.api.Test;

/**
 * The live intervals with maybe-defined sets narrowed to the registers that can be live undefined equal those with
 * the sets over every register: on random functions, and on the cases liveness alone does not cover (a tuple part
 * read after its own write, a register undefined on one path, a block no path reaches).
 */
class IntervalBuilderTest {
    private static String intervals(FunctionBody body, boolean narrowed) {
        return Arrays.toString(IntervalBuilder.build(body, new ValueTable(body, new ValueTable.Constraints()), narrowed));
    }

    private static Instr instr(String op, List<Reg> dsts, Src... srcs) {
        return Instr.of(OriOpcodes.get().byName(op).orElseThrow(), dsts, List.of(srcs));
    }

    @Test
    void narrowedEqualsFullOnRandomFunctions() {
        for (long seed = 1; seed <= 120; seed++) {
            FunctionBody body = RandomFunctions.generate(seed, 400).body();
            assertEquals(intervals(body, false), intervals(body, true), "seed " + seed);
        }
    }

    @Test
    void narrowedEqualsFullWherePartsUndefinedPathsAndUnreachableBlocksMeet() {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        BasicBlock parts = f.addBlock("$L_parts");
        BasicBlock loop = f.addBlock("$L_loop");
        BasicBlock dead = f.addBlock("$L_dead");
        BasicBlock exit = f.addBlock("$L_exit");
        Reg pair = f.newVirtual(RegFile.R, 2);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg y = f.newVirtual(RegFile.R, 1);
        Reg z = f.newVirtual(RegFile.R, 1);
        entry.instrs().add(instr("MOV", List.of(x), Src.of(Imm.ofInt(1))));
        // one part of the pair written and read back: liveness sees no use before a definition, the interval walk
        // keeps the (incomplete) tuple live up to the block start, which no definition reaches
        parts.instrs().add(instr("MOV", List.of(y), Src.of(Imm.ofInt(3))));
        parts.instrs().add(instr("MOV", List.of(pair.component(0)), Src.of(Imm.ofInt(2))));
        parts.instrs().add(instr("IADD3", List.of(y), Src.of(pair.component(0)), Src.of(x), Src.of(Reg.RZ)));
        // z is read before any definition on the first trip round the loop
        loop.instrs().add(instr("IADD3", List.of(x), Src.of(y), Src.of(z), Src.of(Reg.RZ)));
        loop.instrs().add(instr("MOV", List.of(z), Src.of(x)));
        loop.instrs().add(instr("BRA", List.of(), Src.of(loop.ref())));
        // no path reaches these
        dead.instrs().add(instr("IADD3", List.of(y), Src.of(x), Src.of(z), Src.of(Reg.RZ)));
        exit.instrs().add(instr("EXIT", List.of()));
        assertEquals(intervals(f, false), intervals(f, true));
    }

    @Test
    void narrowedEqualsFullForPartWrittenTuplesLiveAcrossReachableAndUnreachableBlocks() {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        BasicBlock dead = f.addBlock("$L_dead");
        BasicBlock join = f.addBlock("$L_join");
        BasicBlock half = f.addBlock("$L_half");
        BasicBlock exit = f.addBlock("$L_exit");
        Reg pair = f.newVirtual(RegFile.R, 2);
        Reg other = f.newVirtual(RegFile.R, 2);
        Reg third = f.newVirtual(RegFile.R, 2);
        Reg fresh = f.newVirtual(RegFile.R, 2);
        Reg y = f.newVirtual(RegFile.R, 1);
        // both parts written before any read: liveness alone keeps the pair defined wherever it is live
        entry.instrs().add(instr("MOV", List.of(pair.component(0)), Src.of(Imm.ofInt(1))));
        entry.instrs().add(instr("MOV", List.of(pair.component(1)), Src.of(Imm.ofInt(2))));
        entry.instrs().add(instr("MOV", List.of(other.component(0)), Src.of(Imm.ofInt(3))));
        entry.instrs().add(instr("MOV", List.of(other.component(1)), Src.of(Imm.ofInt(4))));
        entry.instrs().add(instr("MOV", List.of(third.component(0)), Src.of(Imm.ofInt(6))));
        entry.instrs().add(instr("BRA", List.of(), Src.of(join.ref())));
        // no path reaches this block; it falls into the join, where both pairs are live, and writes one part of one
        dead.instrs().add(instr("MOV", List.of(other.component(1)), Src.of(Imm.ofInt(5))));
        join.instrs().add(instr("IADD3", List.of(y), Src.of(pair.component(0)), Src.of(other.component(1)),
                Src.of(Reg.RZ)));
        // a part rewritten and read back in a later block, the other part still the join's
        half.instrs().add(instr("MOV", List.of(third.component(1)), Src.of(y)));
        half.instrs().add(instr("IADD3", List.of(y), Src.of(third.component(1)), Src.of(third.component(0)),
                Src.of(Reg.RZ)));
        half.instrs().add(instr("IADD3", List.of(y), Src.of(y), Src.of(other.component(0)), Src.of(Reg.RZ)));
        // a tuple no earlier block writes: one part written and read back, then the other written and never read
        // (liveness: not live at the block start; the walk: live up to it, as the completing write comes later)
        half.instrs().add(instr("MOV", List.of(fresh.component(0)), Src.of(y)));
        half.instrs().add(instr("IADD3", List.of(y), Src.of(fresh.component(0)), Src.of(y), Src.of(Reg.RZ)));
        half.instrs().add(instr("MOV", List.of(fresh.component(1)), Src.of(y)));
        exit.instrs().add(instr("EXIT", List.of()));
        assertEquals(intervals(f, false), intervals(f, true));
    }

    /**
     * A 64-bit parameter loaded whole is loaded again where a spilled copy would be reloaded; a load of one half,
     * or through an index register, is not repeated that way.
     */
    @Test
    void aWholeParameterPairIsRematerializable() {
        FunctionBody f = new FunctionBody();
        Reg pair = f.newVirtual(RegFile.R, 2);
        Reg index = f.newVirtual(RegFile.R, 1);
        Instr whole = new Instr(OriOpcodes.get().byName("LDC").orElseThrow(), List.of("64"), List.of(pair),
                List.of(Src.of(new CBank(0, 0x218, null))), Guard.ALWAYS, 0);
        assertTrue(IntervalBuilder.rematerializable(whole));
        Instr indexed = new Instr(OriOpcodes.get().byName("LDC").orElseThrow(), List.of("64"), List.of(pair),
                List.of(Src.of(new CBank(0, 0x218, index))), Guard.ALWAYS, 0);
        assertFalse(IntervalBuilder.rematerializable(indexed));
        Instr half = new Instr(OriOpcodes.get().byName("LDC").orElseThrow(), List.of("64"), List.of(pair.component(0)),
                List.of(Src.of(new CBank(0, 0x218, null))), Guard.ALWAYS, 0);
        assertFalse(IntervalBuilder.rematerializable(half));
    }
}
