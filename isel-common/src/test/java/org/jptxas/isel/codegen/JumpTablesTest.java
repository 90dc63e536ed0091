package org.jptxas.isel.codegen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
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

/** The front end's BRX made a load through a table in constant bank 2, or a compare-and-branch chain. */
class JumpTablesTest {
    private static Instr instr(String op, List<Reg> dsts, Src... srcs) {
        return new Instr(OriOpcodes.get().require(op), List.of(), dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    /** bb0: BRX a over [bb1, bb2, bb1]; bb1: BRX b over [bb3, bb2]; bb2: BRA bb3; bb3: EXIT. */
    private static FunctionBody twoTables() {
        FunctionBody f = new FunctionBody();
        List<BasicBlock> bb = java.util.stream.Stream.generate(() -> f.addBlock(null)).limit(4).toList();
        BasicBlock b0 = bb.get(0), b1 = bb.get(1), b2 = bb.get(2), b3 = bb.get(3);
        Reg a = f.newVirtual(RegFile.R, 1), b = f.newVirtual(RegFile.UR, 1);
        b0.instrs().add(instr("MOV", List.of(a), Src.of(CBank.of(0, 0x160))));
        b0.instrs().add(instr("BRX", List.of(), Src.of(a), Src.of(b1.ref()), Src.of(b2.ref()), Src.of(b1.ref())));
        b1.instrs().add(instr("MOV", List.of(b), Src.of(CBank.of(0, 0x164))));
        b1.instrs().add(instr("BRX", List.of(), Src.of(b), Src.of(b3.ref()), Src.of(b2.ref())));
        b2.instrs().add(instr("BRA", List.of(), Src.of(b3.ref())));
        b3.instrs().add(instr("EXIT", List.of()));
        return f;
    }

    @Test
    void tablesFollowOneAnotherInBankTwo() {
        FunctionBody f = twoTables();
        JumpTables.expand(f, 0);
        assertTrue(IrVerifier.verify("k", f).isEmpty(), IrVerifier.verify("k", f).toString());
        List<Instr> first = f.block(0).instrs();
        assertEquals(List.of("MOV", "SHF", "LDC", "SHF", "BRX"), first.stream().map(i -> i.op().name()).toList());
        CBank load = (CBank) first.get(2).srcs().get(0).value();
        assertEquals(JumpTables.BANK, load.bank());
        assertEquals(0, load.offset());
        Instr brx = first.get(4);
        assertEquals(2, ((Reg) brx.srcs().get(0).value()).comps(), "a 64-bit target");
        assertEquals(new Imm(0), brx.srcs().get(1).value());
        assertEquals(List.of(new BlockLabel(1), new BlockLabel(2)), brx.branchTargets());
        List<Instr> second = f.block(1).instrs();
        // a uniform index is copied to a per-thread register first
        assertEquals(List.of("MOV", "MOV", "SHF", "LDC", "SHF", "BRX"), second.stream().map(i -> i.op().name()).toList());
        assertEquals(12, ((CBank) second.get(3).srcs().get(0).value()).offset(), "after the first table's 3 words");
        assertEquals(new Imm(12), second.get(5).srcs().get(1).value());
        assertArrayEquals(new int[] {1, 2}, Cfg.of(f).successors(0));
    }

    @Test
    void aKernelsSubroutinesPlaceTheirTablesAfterTheKernelsInItsBank() {
        org.jptxas.ori.ir.OriFunction kernel = new org.jptxas.ori.ir.OriFunction("k", true, 1, twoTables());
        org.jptxas.ori.ir.OriFunction sub = new org.jptxas.ori.ir.OriFunction("$k$f", false, 1, twoTables());
        // the kernel's tables take 3 + 2 words
        assertEquals(Map.of("k", 0, "$k$f", 20), JumpTables.bases(List.of(kernel, sub), false));
        assertEquals(Map.of(), JumpTables.bases(List.of(kernel, sub), true), "relocatable output keeps chains");
        assertEquals(Map.of(), JumpTables.bases(List.of(sub), false), "a device function of its own keeps chains");
        JumpTables.expand(sub.body(), 20);
        assertEquals(20, ((CBank) sub.body().block(0).instrs().get(2).srcs().get(0).value()).offset());
    }

    @Test
    void withoutTablesEachEntryButTheLastIsACompareAndBranch() {
        FunctionBody f = twoTables();
        JumpTables.expand(f, null);
        assertTrue(IrVerifier.verify("k", f).isEmpty(), IrVerifier.verify("k", f).toString());
        // [bb1, bb2, bb1] became three blocks: two tests and a branch; [bb3, bb2] two
        assertEquals(4 + 2 + 1, f.blocks().size());
        Cfg cfg = Cfg.of(f);
        assertEquals("ISETP", f.block(0).instrs().get(1).op().name());
        Instr test = f.block(0).last();
        assertEquals("BRA", test.op().name());
        assertTrue(!test.guard().isAlways());
        assertEquals(new BlockLabel(3), test.branchTarget(), "the first entry, renumbered past the chain");
        // the second BRX (now in bb3) became a test and a branch: [bb3, bb2] is [bb6, bb5]
        assertArrayEquals(new int[] {6, 4}, cfg.successors(3));
        assertArrayEquals(new int[] {5}, cfg.successors(4));
        assertArrayEquals(new int[] {3, 1}, cfg.successors(0));
        assertArrayEquals(new int[] {5, 2}, cfg.successors(1), "bb2 is bb5 after both chains");
        assertTrue(f.block(2).last().guard().isAlways(), "the last entry is taken unconditionally");
        assertEquals(new BlockLabel(3), f.block(2).last().branchTarget());
        for (BasicBlock b : f.blocks()) {
            for (Instr in : b.instrs()) {
                assertTrue(!in.isIndirectBranch(), "no BRX is left: " + in);
            }
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"sm_80", "sm_90"}) // sm_90's offset field is shifted
    void layoutFixesTheImmediateTheTableAndTheRecord(String sm) {
        JumpTables.Layout layout = new JumpTables.Layout();
        org.jptxas.sass.SassAssembler asm = new org.jptxas.sass.SassAssembler(org.jptxas.spi.TestTargets.of(sm).isa());
        CodeLine brx = new CodeLine(null, "BRX R4 0x0", "BRX R4 0x0", null, null, 7, asm.select("BRX R4 0x0", 0, n -> 0),
                new JumpTables.Table(8, List.of(".L_a", ".L_b", ".L_a")), null);
        CodeLine fixed = layout.branch(brx, 0x80, Map.of(".L_a", 0x90L, ".L_b", 0xb0L));
        assertEquals("BRX R4 -0x90", fixed.text());
        assertEquals("BRX R4 -0x90", fixed.assembly());
        assertNotNull(fixed.op(), "typed");
        assertEquals(-0x90, fixed.op().immediate(fixed.op().lastImmediateField()));
        assertEquals(fixed.op(), asm.select("BRX R4 -0x90", 0x80, name -> 0), "the op the text assembles to");
        org.jptxas.sass.Control control = new org.jptxas.sass.Control(5, true, 7, 7, 0);
        assertArrayEquals(asm.assemble("BRX R4 -0x90", control, 0x80, null),
                new org.jptxas.sass.SassEncoder(org.jptxas.spi.TestTargets.of(sm).isa()).encode(fixed.op(), control,
                        0x80, null), sm + ": the words the text assembled to before");
        assertEquals(7, fixed.ptxLine());
        assertEquals(asm.select("BRX R4 0x0", 0, n -> 0), new org.jptxas.sass.SassEncoder(asm.isa())
                .instruction("BRX {} {}", new long[] {4, 0}, new String[2]).orElseThrow(), "the typed BRX of a table");
        int[] words = new int[5];
        ByteBuffer.wrap(layout.bank()).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(words);
        assertArrayEquals(new int[] {0, 0, 0x90, 0xb0, 0x90}, words);
        List<Attribute> attrs = layout.withRecord(List.of());
        assertEquals(1, attrs.size());
        Attribute.Words record = (Attribute.Words) attrs.get(0);
        assertEquals(0x34, record.code());
        assertArrayEquals(new int[] {0x80, 0, 3, 0x90, 0xb0, 0x90}, record.words());
        assertEquals(0, new JumpTables.Layout().bank().length);
        assertTrue(new JumpTables.Layout().withRecord(List.of()).isEmpty());
    }
}
