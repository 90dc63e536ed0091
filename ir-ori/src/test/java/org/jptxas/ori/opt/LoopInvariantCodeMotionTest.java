package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.imm;
import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * {@link LoopInvariantCodeMotion}: what a loop computes from values it does not change moves to the block before the
 * loop, with its line, as ptxas 13 hoists an invariant compare (Triton's masked loads) or shift; copies, literals,
 * guarded writes and values written twice stay.
 */
class LoopInvariantCodeMotionTest {
    /** {@code entry: a, b, c = params; i = 0; acc = 0 / loop: ... acc += ...; i += 1; @(i < n) BRA loop / exit}. */
    private static final class Loop {
        final FunctionBody f = new FunctionBody();
        final BasicBlock entry = f.addBlock(null);
        final BasicBlock loop = f.addBlock(null);
        final BasicBlock exit = f.addBlock(null);
        final Reg a = f.newVirtual(RegFile.R, 1);
        final Reg b = f.newVirtual(RegFile.R, 1);
        final Reg i = f.newVirtual(RegFile.R, 1);
        final Reg acc = f.newVirtual(RegFile.R, 1);
        int line = 100;

        Loop() {
            entry.instrs().add(ins("MOV", List.of(), List.of(a), Src.of(CBank.of(0, 0x160))));
            entry.instrs().add(ins("MOV", List.of(), List.of(b), Src.of(CBank.of(0, 0x164))));
            entry.instrs().add(ins("MOV", List.of(), List.of(i), Src.of(Reg.RZ)));
            entry.instrs().add(ins("MOV", List.of(), List.of(acc), Src.of(Reg.RZ)));
        }

        /** Adds {@code in} to the loop body on a line of its own. */
        Instr add(Instr in) {
            in.setLine(line++);
            loop.instrs().add(in);
            return in;
        }

        Reg temp() {
            return f.newVirtual(RegFile.R, 1);
        }

        /**
         * Accumulates {@code v}, counts, branches back, stores the sum; the optimized body's text. {@code held}
         * compares made before the loop and read after it keep that many predicates live across it.
         */
        String run(Reg v, int held) {
            List<Reg> preds = new java.util.ArrayList<>();
            for (int k = 0; k < held; k++) {
                Reg p = f.newVirtual(RegFile.P, 1);
                preds.add(p);
                entry.instrs().add(ins("ISETP", List.of("GT", "AND"), List.of(p, Reg.PT), Src.of(a), imm(k),
                        Src.of(Reg.PT)));
            }
            add(ins("IADD3", List.of(), List.of(acc), Src.of(acc), Src.of(v), Src.of(Reg.RZ)));
            add(ins("IADD3", List.of(), List.of(i), Src.of(i), imm(1), Src.of(Reg.RZ)));
            Reg q = f.newVirtual(RegFile.P, 1);
            add(ins("ISETP", List.of("LT", "AND"), List.of(q, Reg.PT), Src.of(i), imm(8), Src.of(Reg.PT)));
            Instr back = ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(loop.id())));
            back.setGuard(new Guard(q, false));
            add(back);
            exit.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(Reg.RZ, 0)), Src.of(acc)));
            for (int k = 0; k < held; k++) {
                Instr st = ins("STG", List.of("E"), List.of(), Src.of(Addr.of(Reg.RZ, 4 + 4 * k)), Src.of(a));
                st.setGuard(new Guard(preds.get(k), false));
                exit.instrs().add(st);
            }
            exit.instrs().add(ins("EXIT", List.of(), List.of()));
            return TestInstrs.run(f, "sm_80", new LoopInvariantCodeMotion());
        }

        List<String> block(BasicBlock blk) {
            return blk.instrs().stream().map(in -> in.op().name() + "@" + in.line()).toList();
        }
    }

    /**
     * The loop of the first tests: a LOP3 of the parameters, two compares of them and their and (a PLOP3), a SEL of
     * the LOP3 and the counter by the and.
     */
    private static Loop chain(int held) {
        Loop l = new Loop();
        Reg x = l.temp();
        Reg p = l.f.newVirtual(RegFile.P, 1);
        Reg q = l.f.newVirtual(RegFile.P, 1);
        Reg both = l.f.newVirtual(RegFile.P, 1);
        Reg z = l.temp();
        l.add(ins("LOP3", List.of("LUT"), List.of(x), Src.of(l.a), Src.of(l.b), Src.of(Reg.RZ), imm(0x3c),
                Src.of(Reg.PT).inverted()));
        l.add(ins("ISETP", List.of("LT", "AND"), List.of(p, Reg.PT), Src.of(l.a), Src.of(l.b), Src.of(Reg.PT)));
        l.add(ins("ISETP", List.of("GT", "AND"), List.of(q, Reg.PT), Src.of(l.b), imm(3), Src.of(Reg.PT)));
        l.add(ins("PLOP3", List.of("LUT"), List.of(both, Reg.PT), Src.of(p), Src.of(q), Src.of(Reg.PT), imm(0x80),
                imm(0)));
        l.add(ins("SEL", List.of(), List.of(z), Src.of(x), Src.of(l.i), Src.of(both)));
        l.run(z, held);
        return l;
    }

    @Test
    void invariantComparesAndTheirJoinMoveBeforeTheLoopInOrderWithTheirLines() {
        Loop l = chain(0);
        assertEquals(List.of("MOV@0", "MOV@0", "MOV@0", "MOV@0", "ISETP@101", "ISETP@102", "PLOP3@103"),
                l.block(l.entry));
        // the LOP3's value is a general register: it stays (see the class comment)
        assertEquals(List.of("LOP3@100", "SEL@104", "IADD3@105", "IADD3@106", "ISETP@107", "BRA@108"),
                l.block(l.loop));
    }

    /**
     * A moved predicate is live across the loop. With five predicates held across it, the loop peaks at the file's
     * seven (the five, both compares); the first compare fits everywhere it was not live yet, the second would make
     * eight at the exit test (the five, the moved first, the exit test's own) and stays, and so does their join.
     */
    @Test
    void predicatesMoveOnlyWhileTheLoopKeepsThemWithinTheFile() {
        Loop l = chain(5);
        List<String> entry = l.block(l.entry);
        assertEquals("ISETP@101", entry.get(entry.size() - 1), entry::toString);
        assertEquals(List.of("LOP3@100", "ISETP@102", "PLOP3@103"), l.block(l.loop).subList(0, 3));
        // seven held: the loop already needs more than the file, and nothing moves
        Loop full = chain(7);
        assertEquals(List.of("LOP3@100", "ISETP@101", "ISETP@102", "PLOP3@103"), full.block(full.loop).subList(0, 4));
    }

    /**
     * Triton's masked loads: an invariant compare and'ed with a per-iteration bounds compare that guards a load; the
     * join guards a second load. {@code copyToo} adds a copy guarded by the bounds compare's negation (the load's
     * {@code other} value); {@code partsToo}, a copy of the loaded value under the load's own guard (how a guarded
     * vector load is lowered).
     */
    private static Loop maskedLoads(int held, boolean copyToo, boolean partsToo) {
        Loop l = new Loop();
        Reg p = l.f.newVirtual(RegFile.P, 1);
        Reg q = l.f.newVirtual(RegFile.P, 1);
        Reg both = l.f.newVirtual(RegFile.P, 1);
        Reg x = l.temp();
        Reg y = l.temp();
        Reg z = l.temp();
        l.add(ins("ISETP", List.of("LT", "AND"), List.of(p, Reg.PT), Src.of(l.a), Src.of(l.b), Src.of(Reg.PT)));
        l.add(ins("ISETP", List.of("LT", "AND"), List.of(q, Reg.PT), Src.of(l.i), Src.of(l.b), Src.of(Reg.PT)));
        l.add(ins("MOV", List.of(), List.of(x), Src.of(Reg.RZ)));
        Reg loaded = partsToo ? l.temp() : x;
        Instr first = l.add(ins("LDG", List.of("E"), List.of(loaded), Src.of(Addr.of(Reg.RZ, 0))));
        first.setGuard(new Guard(q, false));
        if (partsToo) {
            Instr part = l.add(ins("MOV", List.of(), List.of(x), Src.of(loaded)));
            part.setGuard(new Guard(q, false));
        }
        if (copyToo) {
            Instr copy = l.add(ins("MOV", List.of(), List.of(x), imm(1)));
            copy.setGuard(new Guard(q, true));
        }
        l.add(ins("PLOP3", List.of("LUT"), List.of(both, Reg.PT), Src.of(p), Src.of(q), Src.of(Reg.PT), imm(0x80),
                imm(0)));
        l.add(ins("MOV", List.of(), List.of(y), Src.of(Reg.RZ)));
        Instr second = l.add(ins("LDG", List.of("E"), List.of(y), Src.of(Addr.of(Reg.RZ, 64))));
        second.setGuard(new Guard(both, false));
        l.add(ins("IADD3", List.of(), List.of(z), Src.of(x), Src.of(y), Src.of(Reg.RZ)));
        l.run(z, held);
        return l;
    }

    /**
     * ptxas repeats the bounds compare at the join when loads alone read it otherwise, and moves the invariant
     * compare out of the loop even past the predicate file (it spills it); a bounds compare that a copy also reads
     * stays a predicate, and the invariant compare stays to be repeated at the join, however free the file is.
     */
    @Test
    void anInvariantCompareJoinedWithALoadsBoundsMovesUnlessTheBoundsCompareIsKept() {
        for (boolean parts : new boolean[] {false, true}) {
            Loop full = maskedLoads(7, false, parts);
            List<String> entry = full.block(full.entry);
            assertEquals("ISETP@100", entry.get(entry.size() - 1), entry::toString);
            assertEquals("ISETP@101", full.block(full.loop).get(0));
        }
        Loop kept = maskedLoads(0, true, false);
        assertEquals(List.of("ISETP@100", "ISETP@101"), kept.block(kept.loop).subList(0, 2));
        assertEquals(4, kept.block(kept.entry).size(), kept.block(kept.entry)::toString);
    }

    @Test
    void copiesLiteralsGuardedWritesAndValuesWrittenTwiceStay() {
        Loop l = new Loop();
        Reg copy = l.temp();
        Reg lit = l.temp();
        Reg guarded = l.temp();
        Reg twice = l.temp();
        Reg sum = l.temp();
        l.entry.instrs().add(ins("MOV", List.of(), List.of(guarded), Src.of(Reg.RZ)));
        l.add(ins("MOV", List.of(), List.of(copy), Src.of(l.a)));
        l.add(ins("MOV", List.of(), List.of(lit), imm(7)));
        Reg p = l.f.newVirtual(RegFile.P, 1);
        l.entry.instrs().add(ins("ISETP", List.of("LT", "AND"), List.of(p, Reg.PT), Src.of(l.a), imm(3), Src.of(Reg.PT)));
        Instr g = ins("IADD3", List.of(), List.of(guarded), Src.of(l.a), Src.of(l.b), Src.of(Reg.RZ));
        g.setGuard(new Guard(p, false));
        l.add(g);
        l.add(ins("IADD3", List.of(), List.of(twice), Src.of(l.a), imm(1), Src.of(Reg.RZ)));
        l.add(ins("IADD3", List.of(), List.of(twice), Src.of(twice), Src.of(l.i), Src.of(Reg.RZ)));
        l.add(ins("IADD3", List.of(), List.of(sum), Src.of(copy), Src.of(lit), Src.of(guarded)));
        Reg all = l.temp();
        l.add(ins("IADD3", List.of(), List.of(all), Src.of(sum), Src.of(twice), Src.of(Reg.RZ)));
        String before = String.join(",", l.block(l.loop));
        l.run(all, 0);
        assertEquals(6, l.block(l.entry).size());
        assertEquals(List.of("MOV@100", "MOV@101", "IADD3@102", "IADD3@103", "IADD3@104", "IADD3@105", "IADD3@106",
                "IADD3@107", "IADD3@108", "ISETP@109", "BRA@110"), l.block(l.loop), before);
    }

    @Test
    void aLoopEnteredFromTwoBlocksKeepsItsCode() {
        FunctionBody f = new FunctionBody();
        BasicBlock entry = f.addBlock(null);
        BasicBlock side = f.addBlock(null);
        BasicBlock loop = f.addBlock(null);
        BasicBlock exit = f.addBlock(null);
        Reg a = f.newVirtual(RegFile.R, 1);
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.P, 1);
        entry.instrs().add(ins("MOV", List.of(), List.of(a), Src.of(CBank.of(0, 0x160))));
        entry.instrs().add(ins("ISETP", List.of("LT", "AND"), List.of(p, Reg.PT), Src.of(a), imm(3), Src.of(Reg.PT)));
        Instr skip = ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(loop.id())));
        skip.setGuard(new Guard(p, false));
        entry.instrs().add(skip);
        side.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(Reg.RZ, 4)), Src.of(a)));
        loop.instrs().add(ins("SHF", List.of("L", "U32"), List.of(x), Src.of(a), imm(2), Src.of(Reg.RZ)));
        loop.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(Reg.RZ, 0)), Src.of(x)));
        Instr back = ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(loop.id())));
        back.setGuard(new Guard(p, true));
        loop.instrs().add(back);
        exit.instrs().add(ins("EXIT", List.of(), List.of()));
        TestInstrs.run(f, "sm_80", new LoopInvariantCodeMotion());
        assertEquals("SHF", loop.instrs().get(0).op().name());
    }
}
