package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.jptxas.ori.opt.TestInstrs.ins;

import java.util.ArrayList;
import java.util.List;
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
import org.junit.jupiter.api.Test;

/**
 * {@link CompareChaining}: an and/or/xor of two predicates goes into the compare of the first one (or of the second),
 * as ptxas 13 writes it, also where that compare has other readers (it is repeated); the joined compare has no PTX
 * line (ptxas writes no line-table row for it).
 */
class CompareChainingTest {
    private static Src s(Object o) {
        return o instanceof Integer i ? Src.of(Imm.ofInt(i)) : Src.of((org.jptxas.ori.ir.Operand) o);
    }

    /** A kernel's body being built: four parameter words, a store address, and the predicates made so far. */
    private static final class Kernel {
        final FunctionBody f = new FunctionBody();
        final BasicBlock b = f.addBlock(null);
        final List<Instr> e = b.instrs();
        final Reg[] v = new Reg[4];
        final Reg out = f.newVirtual(RegFile.R, 2);
        int stores;

        Kernel() {
            for (int k = 0; k < 4; k++) {
                v[k] = f.newVirtual(RegFile.R, 1);
                e.add(ins("MOV", List.of(), List.of(v[k]), s(CBank.of(0, 0x160 + 4 * k))));
            }
            e.add(ins("MOV", List.of(), List.of(out.component(0)), s(CBank.of(0, 0x170))));
            e.add(ins("MOV", List.of(), List.of(out.component(1)), s(CBank.of(0, 0x174))));
        }

        Reg compare(String op, String cmp, int x, int y) {
            Reg p = f.newVirtual(RegFile.P, 1);
            e.add(ins(op, List.of(cmp, "AND"), List.of(p, Reg.PT), s(v[x]), s(v[y]), s(Reg.PT)));
            return p;
        }

        Instr join(Reg a, Reg b, int lut) {
            Reg d = f.newVirtual(RegFile.P, 1);
            Instr in = ins("PLOP3", List.of("LUT"), List.of(d, Reg.PT), s(a), s(b), s(Reg.PT), s(lut), s(0));
            e.add(in);
            return in;
        }

        /** Stores 1 where {@code p} holds, else 0 (a SEL read by a store). */
        void store(Reg p) {
            Reg r = f.newVirtual(RegFile.R, 1);
            e.add(ins("SEL", List.of(), List.of(r), s(1), s(0), s(p)));
            e.add(ins("STG", List.of("E"), List.of(), s(Addr.of(out, 4 * stores++)), s(r)));
        }

        /** A store of the first word guarded by {@code p}: a second reader of the predicate. */
        void guardedStore(Reg p) {
            Instr st = ins("STG", List.of("E"), List.of(), s(Addr.of(out, 4 * stores++)), s(v[0]));
            st.setGuard(new Guard(p, false));
            e.add(st);
        }

        String chain() {
            e.add(ins("EXIT", List.of(), List.of()));
            return TestInstrs.run(f, "sm_90", new CompareChaining(), new DeadCodeElimination());
        }
    }

    private static long count(String out, String prefix) {
        return out.lines().map(l -> l.replaceFirst("^@!?\\S+ ", "")).filter(l -> l.startsWith(prefix)).count();
    }

    /** The PLOP3 table's two-input function (the third input true): bit a*2+b. */
    private static int table(int lut) {
        int t = 0;
        for (int a = 0; a < 2; a++) {
            for (int b = 0; b < 2; b++) {
                t |= ((lut >> (a * 4 + b * 2 + 1)) & 1) << (a * 2 + b);
            }
        }
        return t;
    }

    /** Every PLOP3 table of two integer compares: the same stores before and after, and no PLOP3 where it folds. */
    @Test
    void everyTableOfTwoComparesKeepsItsMeaning() {
        // and/or with any negated inputs, xor and xnor: ten of the sixteen two-input functions
        java.util.Set<Integer> joins = new java.util.HashSet<>();
        for (int n = 0; n < 4; n++) {
            int and = 0;
            int or = 0;
            for (int a = 0; a < 2; a++) {
                for (int b = 0; b < 2; b++) {
                    boolean x = (a == 1) != ((n & 1) != 0);
                    boolean y = (b == 1) != ((n & 2) != 0);
                    and |= (x && y ? 1 : 0) << (a * 2 + b);
                    or |= (x || y ? 1 : 0) << (a * 2 + b);
                }
            }
            joins.add(and);
            joins.add(or);
        }
        joins.add(0b0110);
        joins.add(0b1001);
        assertEquals(10, joins.size());
        for (int lut = 0; lut < 256; lut++) {
            List<FunctionBody> bodies = new ArrayList<>();
            String out = null;
            for (int copy = 0; copy < 2; copy++) {
                Kernel k = new Kernel();
                Reg a = k.compare("ISETP", "LT", 0, 1);
                Reg b = k.compare("ISETP", "GE", 2, 3);
                k.store(k.join(a, b, lut).dsts().get(0));
                if (copy == 1) {
                    out = k.chain();
                } else {
                    k.e.add(ins("EXIT", List.of(), List.of()));
                }
                bodies.add(k.f);
            }
            for (long seed = 0; seed < 64; seed++) {
                assertEquals(OriEvaluator.run(bodies.get(0), seed), OriEvaluator.run(bodies.get(1), seed),
                        "lut 0x" + Integer.toHexString(lut) + ", seed " + seed + ":\n" + out);
            }
            assertEquals(joins.contains(table(lut)) ? 0 : 1, count(out, "PLOP3"),
                    "lut 0x" + Integer.toHexString(lut) + ":\n" + out);
        }
    }

    @Test
    void theJoinGoesIntoTheFirstInputsCompareWithoutALine() {
        Kernel k = new Kernel();
        Reg a = k.compare("ISETP", "LT", 0, 1);
        Reg b = k.compare("ISETP", "LT", 2, 3);
        Instr join = k.join(a, b, 0xc0);
        join.setLine(50);
        Reg d = join.dsts().get(0);
        k.store(d);
        String out = k.chain();
        assertEquals(0, count(out, "PLOP3"), out);
        assertTrue(out.contains("ISETP.LT.AND " + d + ", PT, " + k.v[0] + ", " + k.v[1] + ", " + b), out);
        assertFalse(out.contains(a + ","), out);
        Instr chained = k.e.stream().filter(in -> in.dsts().contains(d)).findFirst().orElseThrow();
        assertEquals(0, chained.line(), "ptxas writes no row for a joined compare");
    }

    @Test
    void xorAndOrJoinsIntoFloatAndDoubleCompares() {
        for (String op : List.of("FSETP", "DSETP")) {
            for (int lut : new int[] {0x3c, 0xfc, 0xc3}) {
                Kernel k = new Kernel();
                Reg a = k.compare(op, "GT", 0, 1);
                Reg b = k.compare("ISETP", "LT", 2, 3);
                Reg d = k.join(a, b, lut).dsts().get(0);
                k.store(d);
                String out = k.chain();
                String mod = lut == 0xfc ? "OR" : "XOR";
                String acc = lut == 0xc3 ? "!" + b : b.toString();
                assertTrue(out.contains(op + ".GT." + mod + " " + d + ", PT, " + k.v[0] + ", " + k.v[1] + ", " + acc),
                        op + " 0x" + Integer.toHexString(lut) + ":\n" + out);
            }
        }
    }

    /** {@code !a & b} with a float compare a: not its opposite (unordered inputs), so b's compare takes the join. */
    @Test
    void aNegatedFloatCompareLeavesTheJoinToTheOtherInput() {
        Kernel k = new Kernel();
        Reg a = k.compare("FSETP", "GT", 0, 1);
        Reg b = k.compare("ISETP", "LT", 2, 3);
        Reg d = k.join(a, b, 0x0c).dsts().get(0); // !a & b
        k.store(d);
        String out = k.chain();
        assertTrue(out.contains("ISETP.LT.AND " + d + ", PT, " + k.v[2] + ", " + k.v[3] + ", !" + a), out);
        assertTrue(out.contains("FSETP.GT.AND " + a), out);
    }

    /** A setp read by four and.preds (a Triton kernel's bounds check): the compare is repeated into each and goes. */
    @Test
    void aCompareReadByFourJoinsIsRepeatedIntoEach() {
        Kernel k = new Kernel();
        Reg a = k.compare("ISETP", "LT", 0, 1);
        List<Reg> ds = new ArrayList<>();
        List<Reg> others = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Reg o = k.compare("ISETP", "GE", 2, 3);
            others.add(o);
            k.guardedStore(o); // the other input has readers of its own
            ds.add(k.join(a, o, 0xc0).dsts().get(0));
        }
        ds.forEach(k::store);
        String out = k.chain();
        assertEquals(0, count(out, "PLOP3"), out);
        for (int i = 0; i < 4; i++) {
            assertTrue(out.contains("ISETP.LT.AND " + ds.get(i) + ", PT, " + k.v[0] + ", " + k.v[1] + ", "
                    + others.get(i)), out);
        }
        assertFalse(out.contains("ISETP.LT.AND " + a + ","), "the setp has no reader left:\n" + out);
    }

    @Test
    void aCompareWithAnotherReaderStays() {
        Kernel k = new Kernel();
        Reg a = k.compare("ISETP", "LT", 0, 1);
        Reg b = k.compare("ISETP", "LT", 2, 3);
        Reg d = k.join(a, b, 0xc0).dsts().get(0);
        k.guardedStore(a);
        k.store(d);
        String out = k.chain();
        assertEquals(0, count(out, "PLOP3"), out);
        assertTrue(out.contains("ISETP.LT.AND " + a + ", PT, " + k.v[0] + ", " + k.v[1] + ", PT"), out);
        assertTrue(out.contains("ISETP.LT.AND " + d + ", PT, " + k.v[0] + ", " + k.v[1] + ", " + b), out);
    }

    @Test
    void aPredicatedJoinOrComparesStay() {
        // the join guarded
        Kernel k = new Kernel();
        Reg g = k.compare("ISETP", "NE", 0, 3);
        Reg a = k.compare("ISETP", "LT", 0, 1);
        Reg b = k.compare("ISETP", "LT", 2, 3);
        Instr join = k.join(a, b, 0xc0);
        join.setGuard(new Guard(g, false));
        k.store(join.dsts().get(0));
        assertEquals(1, count(k.chain(), "PLOP3"));
        // both compares guarded
        Kernel k2 = new Kernel();
        Reg g2 = k2.compare("ISETP", "NE", 0, 3);
        Reg a2 = k2.compare("ISETP", "LT", 0, 1);
        Reg b2 = k2.compare("ISETP", "LT", 2, 3);
        k2.e.get(k2.e.size() - 1).setGuard(new Guard(g2, true));
        k2.e.get(k2.e.size() - 2).setGuard(new Guard(g2, true));
        k2.store(k2.join(a2, b2, 0xc0).dsts().get(0));
        assertEquals(1, count(k2.chain(), "PLOP3"));
    }

    @Test
    void aCompareInAnotherBlockStays() {
        Kernel k = new Kernel();
        Reg a = k.compare("ISETP", "LT", 0, 1);
        Reg b = k.compare("ISETP", "LT", 2, 3);
        k.e.add(ins("BRA", List.of(), List.of(), s(new BlockLabel(1))));
        BasicBlock next = k.f.addBlock("next");
        Reg d = k.f.newVirtual(RegFile.P, 1);
        next.instrs().add(ins("PLOP3", List.of("LUT"), List.of(d, Reg.PT), s(a), s(b), s(Reg.PT), s(0xc0), s(0)));
        Reg r = k.f.newVirtual(RegFile.R, 1);
        next.instrs().add(ins("SEL", List.of(), List.of(r), s(1), s(0), s(d)));
        next.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(k.out, 0)), s(r)));
        next.instrs().add(ins("EXIT", List.of(), List.of()));
        String out = TestInstrs.run(k.f, "sm_90", new CompareChaining(), new DeadCodeElimination());
        assertEquals(1, count(out, "PLOP3"), out);
    }

    /**
     * The first input's compare in an earlier block, the second's in the join's block: the join goes into the first
     * (repeated at the join) when the second stays for another reader, else into the second, as ptxas 13 writes
     * matrix_free's dim-3 and dim-2 hanging-node checks.
     */
    @Test
    void anEarlierBlocksCompareTakesTheJoinWhenTheOtherStaysAnyway() {
        for (boolean otherReader : new boolean[] {true, false}) {
            Kernel k = new Kernel();
            Reg a = k.compare("ISETP", "NE", 0, 1);
            k.e.add(ins("BRA", List.of(), List.of(), s(new BlockLabel(1))));
            BasicBlock next = k.f.addBlock("next");
            Reg b = k.f.newVirtual(RegFile.P, 1);
            next.instrs().add(ins("ISETP", List.of("EQ", "AND"), List.of(b, Reg.PT), s(k.v[2]), s(k.v[3]),
                    s(Reg.PT)));
            Reg d = k.f.newVirtual(RegFile.P, 1);
            next.instrs().add(ins("PLOP3", List.of("LUT"), List.of(d, Reg.PT), s(a), s(b), s(Reg.PT), s(0xc0),
                    s(0)));
            List<Reg> stored = otherReader ? List.of(d, b) : List.of(d);
            for (int i = 0; i < stored.size(); i++) {
                Reg r = k.f.newVirtual(RegFile.R, 1);
                next.instrs().add(ins("SEL", List.of(), List.of(r), s(1), s(0), s(stored.get(i))));
                next.instrs().add(ins("STG", List.of("E"), List.of(), s(Addr.of(k.out, 4 * i)), s(r)));
            }
            next.instrs().add(ins("EXIT", List.of(), List.of()));
            String out = TestInstrs.run(k.f, "sm_90", new CompareChaining(), new DeadCodeElimination());
            assertEquals(0, count(out, "PLOP3"), out);
            String intoFirst = "ISETP.NE.AND " + d + ", PT, " + k.v[0] + ", " + k.v[1] + ", " + b;
            String intoSecond = "ISETP.EQ.AND " + d + ", PT, " + k.v[2] + ", " + k.v[3] + ", " + a;
            assertTrue(out.contains(otherReader ? intoFirst : intoSecond), out);
            if (otherReader) {
                assertTrue(out.contains("ISETP.EQ.AND " + b + ", PT, " + k.v[2] + ", " + k.v[3] + ", PT"), out);
            }
        }
    }

    /** A compare whose operand is written again before the join: the other input's compare takes it. */
    @Test
    void aCompareWhoseOperandChangesLeavesTheJoinToTheOtherInput() {
        Kernel k = new Kernel();
        Reg a = k.compare("ISETP", "LT", 0, 1);
        k.e.add(ins("IADD3", List.of(), List.of(k.v[0], Reg.PT, Reg.PT), s(k.v[0]), s(1), s(Reg.RZ)));
        Reg b = k.compare("ISETP", "LT", 2, 3);
        Reg d = k.join(a, b, 0xc0).dsts().get(0);
        k.store(d);
        String out = k.chain();
        assertEquals(0, count(out, "PLOP3"), out);
        assertTrue(out.contains("ISETP.LT.AND " + d + ", PT, " + k.v[2] + ", " + k.v[3] + ", " + a), out);
    }
}
