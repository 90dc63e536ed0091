package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.ir.Addr;
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
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** Which definitions WebSplitting keeps together under one register and which it renames. */
class WebSplittingTest {
    private static Instr ins(String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), mods, dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    private static Src s(Object o) {
        return o instanceof Integer i ? Src.of(Imm.ofInt(i)) : Src.of((org.jptxas.ori.ir.Operand) o);
    }

    private static boolean split(FunctionBody f) {
        boolean changed = new WebSplitting().run(f, new OptContext(TestProfiles.of("sm_80"), "k"));
        assertTrue(IrVerifier.verify("k", f).isEmpty(), () -> IrVerifier.verify("k", f).toString());
        return changed;
    }

    private static Reg pointer(FunctionBody f, BasicBlock b) {
        Reg p = f.newVirtual(RegFile.R, 2);
        b.instrs().add(ins("MOV", List.of(), List.of(p.component(0)), s(CBank.of(0, 0x160))));
        b.instrs().add(ins("MOV", List.of(), List.of(p.component(1)), s(CBank.of(0, 0x164))));
        return p;
    }

    /** One PTX register loaded, stored, loaded again (NVVM's {@code %f9} in and out of an mma): two registers. */
    @Test
    void unrelatedReusesGetTheirOwnRegister() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = pointer(f, b);
        Reg r = f.newVirtual(RegFile.R, 1);
        List<Instr> i = b.instrs();
        i.add(ins("LDG", List.of("E"), List.of(r), s(Addr.of(p, 0))));
        i.add(ins("IADD3", List.of(), List.of(r), s(r), s(1), s(Reg.RZ)));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 4)), s(r)));
        i.add(ins("LDG", List.of("E"), List.of(r), s(Addr.of(p, 8))));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 12)), s(r)));
        i.add(ins("EXIT", List.of(), List.of()));
        assertTrue(split(f));
        Reg first = i.get(2).dsts().get(0);
        Reg second = i.get(3).dsts().get(0);
        Reg third = i.get(5).dsts().get(0);
        assertEquals(r, first, "the first web keeps the name");
        assertNotEquals(first, second);
        assertNotEquals(second, third);
        assertNotEquals(first, third);
        assertEquals(first, i.get(3).srcs().get(0).value(), "the add reads the load before it");
        assertEquals(second, i.get(4).srcs().get(1).value());
        assertEquals(third, i.get(6).srcs().get(1).value());
        assertFalse(split(f), "a second run finds nothing to split");
    }

    /** Writes on both arms of a branch reach one read: one web; the reload after it is another. */
    @Test
    void definitionsMeetingAtAReadStayTogether() {
        FunctionBody f = new FunctionBody();
        BasicBlock b0 = f.addBlock(null);
        BasicBlock b1 = f.addBlock(null);
        BasicBlock b2 = f.addBlock(null);
        Reg p = pointer(f, b0);
        Reg c = f.newVirtual(RegFile.R, 1);
        Reg q = f.newVirtual(RegFile.P, 1);
        Reg r = f.newVirtual(RegFile.R, 1);
        b0.instrs().add(ins("LDG", List.of("E"), List.of(c), s(Addr.of(p, 0))));
        b0.instrs().add(ins("ISETP", List.of("NE", "AND"), List.of(q, Reg.PT), s(c), s(Reg.RZ), s(Reg.PT)));
        b0.instrs().add(ins("MOV", List.of(), List.of(r), s(0)));
        Instr br = ins("BRA", List.of(), List.of(), s(new BlockLabel(2)));
        br.setGuard(new Guard(q, false));
        b0.instrs().add(br);
        b1.instrs().add(ins("MOV", List.of(), List.of(r), s(1)));
        Instr guarded = ins("MOV", List.of(), List.of(r), s(2));
        guarded.setGuard(new Guard(q, true));
        b1.instrs().add(guarded);
        b2.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 4)), s(r)));
        b2.instrs().add(ins("LDG", List.of("E"), List.of(r), s(Addr.of(p, 8))));
        b2.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 12)), s(r)));
        b2.instrs().add(ins("EXIT", List.of(), List.of()));
        assertTrue(split(f));
        assertEquals(r, b0.instrs().get(4).dsts().get(0));
        assertEquals(r, b1.instrs().get(0).dsts().get(0));
        assertEquals(r, b1.instrs().get(1).dsts().get(0), "a guarded write keeps the old value: same web");
        assertEquals(r, b2.instrs().get(0).srcs().get(1).value());
        Reg reload = b2.instrs().get(1).dsts().get(0);
        assertNotEquals(r, reload);
        assertEquals(reload, b2.instrs().get(2).srcs().get(1).value());
    }

    /** A register read before any write on some path is left alone (no web may lose its every write). */
    @Test
    void readsBeforeAnyWriteKeepTheRegisterWhole() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = pointer(f, b);
        Reg r = f.newVirtual(RegFile.R, 1);
        List<Instr> i = b.instrs();
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 0)), s(r)));
        i.add(ins("MOV", List.of(), List.of(r), s(1)));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 4)), s(r)));
        i.add(ins("MOV", List.of(), List.of(r), s(2)));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 8)), s(r)));
        i.add(ins("EXIT", List.of(), List.of()));
        assertFalse(split(f));
        assertEquals(r, i.get(5).dsts().get(0));
    }

    /** The two halves of an address stepped by a constant: its low-word add and the high word's carry add. */
    private static void step(List<Instr> i, FunctionBody f, Reg a, int by) {
        Reg carry = f.newVirtual(RegFile.P, 1);
        i.add(ins("IADD3", List.of(), List.of(a.component(0), carry, Reg.PT), s(a.component(0)), s(by), s(Reg.RZ)));
        i.add(ins("IADD3", List.of("X"), List.of(a.component(1), Reg.PT, Reg.PT), s(a.component(1)), s(Reg.RZ),
                s(Reg.RZ), s(carry), new Src(Reg.PT, false, false, true)));
    }

    /**
     * An unrolled pointer walk ({@code add.s64 %rd, %rd, 4} once per copy) writes the pair's low and then its high
     * word: together they replace it, so each copy's address is a register of its own, the carry add reading the
     * old high word.
     */
    @Test
    void aPairWrittenHalfByHalfStartsANewWeb() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = pointer(f, b);
        Reg a = f.newVirtual(RegFile.R, 2);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg y = f.newVirtual(RegFile.R, 1);
        List<Instr> i = b.instrs();
        i.add(ins("MOV", List.of(), List.of(a.component(0)), s(0)));
        i.add(ins("MOV", List.of(), List.of(a.component(1)), s(0)));
        i.add(ins("LDC", List.of(), List.of(x), s(new CBank(3, 0, a.component(0)))));
        step(i, f, a, 4);
        i.add(ins("LDC", List.of(), List.of(y), s(new CBank(3, 0, a.component(0)))));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 0)), s(x)));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 4)), s(y)));
        i.add(ins("EXIT", List.of(), List.of()));
        assertTrue(split(f));
        Reg stepped = i.get(5).dsts().get(0).whole();
        assertEquals(a, i.get(2).dsts().get(0).whole(), "the first web keeps the name");
        assertNotEquals(a, stepped);
        assertEquals(stepped.component(1), i.get(6).dsts().get(0), "the carry add writes the new pair's high word");
        assertEquals(a.component(0), i.get(5).srcs().get(0).value(), "the low add reads the old address");
        assertEquals(a.component(1), i.get(6).srcs().get(0).value(), "the carry add reads the old high word");
        assertEquals(stepped.component(0), ((CBank) i.get(7).srcs().get(0).value()).index());
        assertEquals(a.component(0), ((CBank) i.get(4).srcs().get(0).value()).index());
    }

    /** A guarded high-word write keeps the old high word where it does not run: the pair stays one web. */
    @Test
    void aPairWithAGuardedHalfStaysWhole() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = pointer(f, b);
        Reg a = f.newVirtual(RegFile.R, 2);
        Reg q = f.newVirtual(RegFile.P, 1);
        List<Instr> i = b.instrs();
        i.add(ins("MOV", List.of(), List.of(a.component(0)), s(0)));
        i.add(ins("MOV", List.of(), List.of(a.component(1)), s(0)));
        i.add(ins("STG", List.of("E", "64"), List.of(), s(Addr.of(p, 0)), s(a)));
        i.add(ins("ISETP", List.of("NE", "AND"), List.of(q, Reg.PT), s(p.component(0)), s(Reg.RZ), s(Reg.PT)));
        i.add(ins("MOV", List.of(), List.of(a.component(0)), s(1)));
        Instr high = ins("MOV", List.of(), List.of(a.component(1)), s(1));
        high.setGuard(new Guard(q, false));
        i.add(high);
        i.add(ins("STG", List.of("E", "64"), List.of(), s(Addr.of(p, 8)), s(a)));
        i.add(ins("EXIT", List.of(), List.of()));
        assertFalse(split(f));
        assertEquals(a.component(0), i.get(6).dsts().get(0));
    }

    /** A pointer into memory stepped half by half stays one pair: AddressIncrements moves its steps into offsets. */
    @Test
    void aPointerIntoMemoryStaysOnePair() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = pointer(f, b);
        Reg a = f.newVirtual(RegFile.R, 2);
        Reg x = f.newVirtual(RegFile.R, 1);
        List<Instr> i = b.instrs();
        i.add(ins("MOV", List.of(), List.of(a.component(0)), s(0x1000)));
        i.add(ins("MOV", List.of(), List.of(a.component(1)), s(0)));
        i.add(ins("LDG", List.of("E"), List.of(x), s(Addr.of(a, 0))));
        step(i, f, a, 4);
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(a, 0)), s(x)));
        i.add(ins("STG", List.of("E"), List.of(), s(Addr.of(p, 0)), s(x)));
        i.add(ins("EXIT", List.of(), List.of()));
        assertFalse(split(f));
        assertEquals(a.component(0), i.get(5).dsts().get(0));
    }
}
