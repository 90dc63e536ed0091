package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/** {@code (x & 0xfff) * 4} becomes {@code (x * 4) & 0x3ffc} on the multiply's line, as ptxas writes it. */
class MaskedShiftsTest {
    private static final int MASK_LINE = 10;
    private static final int MUL_LINE = 11;

    enum Reader { STORE, ADD }

    /** x loaded, t = x &amp; 0xfff, d = t * 4 (IMAD.SHL.U32), d stored directly or after adding x to it. */
    private static FunctionBody program(Reader reader) {
        FunctionBody f = new FunctionBody();
        BasicBlock bb = f.addBlock(null);
        List<Instr> l = bb.instrs();
        Reg base = f.newVirtual(RegFile.R, 2);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg t = f.newVirtual(RegFile.R, 1);
        Reg d = f.newVirtual(RegFile.R, 1);
        Reg s = f.newVirtual(RegFile.R, 1);
        l.add(ins("MOV", List.of(), List.of(base.component(0)), Src.of(CBank.of(0, 0x160))));
        l.add(ins("MOV", List.of(), List.of(base.component(1)), Src.of(CBank.of(0, 0x164))));
        l.add(ins("LDG", List.of("E"), List.of(x), Src.of(Addr.of(base, 0))));
        Instr mask = ins("LOP3", List.of("LUT"), List.of(t), Src.of(x), TestInstrs.imm(0xfff), Src.of(Reg.RZ),
                TestInstrs.imm(0xc0), Src.of(Reg.PT).inverted());
        mask.setLine(MASK_LINE);
        l.add(mask);
        Instr mul = ins("IMAD", List.of("SHL", "U32"), List.of(d), Src.of(t), TestInstrs.imm(4), Src.of(Reg.RZ));
        mul.setLine(MUL_LINE);
        l.add(mul);
        Reg stored = d;
        if (reader == Reader.ADD) {
            l.add(ins("IADD3", List.of(), List.of(s), Src.of(d), Src.of(x), Src.of(Reg.RZ)));
            stored = s;
        }
        l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(base, 4)), Src.of(stored)));
        l.add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    /** The multiplies and masks left, with each one's line. */
    private static String arithmetic(FunctionBody f) {
        StringBuilder sb = new StringBuilder();
        for (Instr in : f.block(0).instrs()) {
            if (List.of("LOP3", "IMAD").contains(in.op().name())) {
                sb.append(in).append("  @").append(in.line()).append('\n');
            }
        }
        return sb.toString();
    }

    @Test
    void theMaskGoesAfterTheShiftOnTheMultiplysLine() {
        FunctionBody f = program(Reader.STORE);
        String out = TestInstrs.run(f, "sm_80", new InstructionCombining(), new DeadCodeElimination());
        assertEquals("""
                IMAD.SHL.U32 %r5, %r1, 0x4, RZ  @11
                LOP3.LUT %r3, %r5, 0x3ffc, RZ, 0xc0, !PT  @11
                """, arithmetic(f), out);
    }

    @Test
    void aProductAnAddReadsKeepsTheMaskFirst() {
        FunctionBody f = program(Reader.ADD);
        String out = TestInstrs.run(f, "sm_80", new InstructionCombining(), new DeadCodeElimination());
        assertEquals(MASK_LINE, f.block(0).instrs().stream().filter(in -> in.op().name().equals("LOP3"))
                .findFirst().orElseThrow().line(), out);
    }

    @Test
    void theMovedMaskStoresTheSameValues() {
        for (Reader reader : Reader.values()) {
            FunctionBody f = program(reader);
            TestInstrs.run(f, "sm_80", new InstructionCombining(), new DeadCodeElimination());
            for (long seed : new long[] {1, -77, 0xabcdef, 0x7fffffff}) {
                assertEquals(OriEvaluator.run(program(reader), seed), OriEvaluator.run(f, seed), reader.toString());
            }
        }
    }
}
