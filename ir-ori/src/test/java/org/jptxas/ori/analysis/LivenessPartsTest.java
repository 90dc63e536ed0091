package org.jptxas.ori.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
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
 * Liveness of tuples written part by part: a block's part writes define the tuple once they cover every part the
 * whole body mentions (mentions in later blocks included), a whole read after every part's write reads nothing
 * from before the block, and the tuples read back after a part write are reported per block.
 */
class LivenessPartsTest {
    private static Instr instr(String op, List<Reg> dsts, Src... srcs) {
        return Instr.of(OriOpcodes.get().byName(op).orElseThrow(), dsts, List.of(srcs));
    }

    /**
     * bb0 branches to bb1 (loop head), which stores the pair's low half; bb2 rewrites the low half and loops back;
     * bb3 exits, after reading the high half when {@code highReadLater}.
     */
    private static FunctionBody loopWritingLowHalf(boolean highReadLater) {
        FunctionBody f = new FunctionBody();
        Reg pair = f.newVirtual(RegFile.R, 2);
        Reg p = f.newVirtual(RegFile.P, 1);
        f.addBlock(null).instrs().add(instr("MOV", List.of(pair.component(0)), Src.of(Imm.ofInt(0))));
        BasicBlock head = f.addBlock("$L_head");
        BasicBlock write = f.addBlock(null);
        BasicBlock exit = f.addBlock("$L_exit");
        head.instrs().add(instr("STG", List.of(), Src.of(pair.component(0))));
        Instr out = instr("BRA", List.of(), Src.of(exit.ref()));
        out.setGuard(new Guard(p, false));
        head.instrs().add(out);
        write.instrs().add(instr("MOV", List.of(pair.component(0)), Src.of(Imm.ofInt(1))));
        write.instrs().add(instr("BRA", List.of(), Src.of(head.ref())));
        if (highReadLater) {
            exit.instrs().add(instr("STG", List.of(), Src.of(pair.component(1))));
        }
        exit.instrs().add(instr("EXIT", List.of()));
        return f;
    }

    @Test
    void partWritesDefineATupleOnlyWhenTheyCoverThePartsMentionedAnywhere() {
        Reg pair = Reg.virt(RegFile.R, 0, 2);
        FunctionBody lowOnly = loopWritingLowHalf(false);
        assertFalse(new Liveness(lowOnly, Cfg.of(lowOnly)).liveIn(2, pair),
                "the low half is the only part the body mentions: writing it defines the pair");
        FunctionBody both = loopWritingLowHalf(true);
        assertTrue(new Liveness(both, Cfg.of(both)).liveIn(2, pair),
                "a later block reads the high half: the low half's write leaves it live through the block");
    }

    @Test
    void aWholeReadAfterEveryPartIsWrittenReadsNothingFromBefore() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg pair = f.newVirtual(RegFile.R, 2);
        Reg half = f.newVirtual(RegFile.R, 2);
        b.instrs().add(instr("MOV", List.of(pair.component(0)), Src.of(Imm.ofInt(1))));
        b.instrs().add(instr("MOV", List.of(pair.component(1)), Src.of(Imm.ofInt(2))));
        b.instrs().add(instr("MOV", List.of(half.component(1)), Src.of(Imm.ofInt(3))));
        b.instrs().add(instr("STG", List.of(), Src.of(pair), Src.of(half)));
        b.instrs().add(instr("EXIT", List.of()));
        Liveness live = new Liveness(f, Cfg.of(f));
        assertFalse(live.liveIn(0, pair), "both halves written before the read");
        assertTrue(live.liveIn(0, half), "the low half comes from before the block");
    }

    @Test
    void reportsTheTuplesReadBackAfterAPartWrite() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg pair = f.newVirtual(RegFile.R, 2);
        Reg quad = f.newVirtual(RegFile.R, 4);
        Reg p = f.newVirtual(RegFile.P, 1);
        b.instrs().add(instr("STG", List.of(), Src.of(pair.component(1))));
        Instr guarded = instr("MOV", List.of(quad.component(2)), Src.of(Imm.ofInt(1)));
        guarded.setGuard(new Guard(p, false));
        b.instrs().add(guarded);
        b.instrs().add(instr("MOV", List.of(pair.component(0)), Src.of(Imm.ofInt(2))));
        b.instrs().add(instr("IADD3", List.of(x), Src.of(quad.component(2)), Src.of(pair.component(1)),
                Src.of(Reg.RZ)));
        b.instrs().add(instr("STG", List.of(), Src.of(x), Src.of(quad.component(2))));
        b.instrs().add(instr("EXIT", List.of()));
        Liveness live = new Liveness(f, Cfg.of(f));
        int pairKey = live.key(pair);
        int quadKey = live.key(quad);
        assertArrayEquals(new int[] {quadKey, pairKey}, live.readBackAfterPartWrite(0),
                "in the order first read back, the guarded write included, each once");
        BitSet written = new BitSet();
        written.set(pairKey);
        written.set(quadKey);
        assertEquals(written, live.partWrittenSet());
    }
}
