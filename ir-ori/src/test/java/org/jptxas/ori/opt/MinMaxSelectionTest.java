package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.jptxas.ori.opt.TestInstrs.ins;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * {@link MinMaxSelection}: a SEL of the two values an ISETP ordered is IMNMX, for every compare, signedness, operand
 * order and negation of the select's predicate, with the same stores as before on values at the edges (equal
 * values, INT_MIN, -1, 0x80000000 read unsigned) and on random parameter words.
 */
class MinMaxSelectionTest {
    private static final int[] EDGES = {0, 1, -1, 7, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x80000001, 7};

    private static Src s(Object o) {
        return o instanceof Integer i ? Src.of(Imm.ofInt(i)) : Src.of((Operand) o);
    }

    /** A kernel's body: two 32-bit inputs (immediates, or parameter words when null) and a store address. */
    private static final class Kernel {
        final FunctionBody f = new FunctionBody();
        final BasicBlock b = f.addBlock(null);
        final List<Instr> e = b.instrs();
        final Reg x = f.newVirtual(RegFile.R, 1);
        final Reg y = f.newVirtual(RegFile.R, 1);
        final Reg out = f.newVirtual(RegFile.R, 2);

        Kernel(Integer vx, Integer vy) {
            e.add(ins("MOV", List.of(), List.of(x), vx == null ? s(CBank.of(0, 0x160)) : s(vx)));
            e.add(ins("MOV", List.of(), List.of(y), vy == null ? s(CBank.of(0, 0x164)) : s(vy)));
            e.add(ins("MOV", List.of(), List.of(out.component(0)), s(CBank.of(0, 0x170))));
            e.add(ins("MOV", List.of(), List.of(out.component(1)), s(CBank.of(0, 0x174))));
        }

        /** {@code ISETP.cmp p, x, y; SEL d, first, second, [!]p; STG d}. */
        void selectAndStore(List<String> compareMods, boolean swapped, boolean negated) {
            Reg p = f.newVirtual(RegFile.P, 1);
            e.add(ins("ISETP", compareMods, List.of(p, Reg.PT), s(x), s(y), s(Reg.PT)));
            Reg d = f.newVirtual(RegFile.R, 1);
            Src which = negated ? s(p).inverted() : s(p);
            e.add(ins("SEL", List.of(), List.of(d), swapped ? s(y) : s(x), swapped ? s(x) : s(y), which));
            e.add(ins("STG", List.of("E"), List.of(), s(Addr.of(out, 0)), s(d)));
            e.add(ins("EXIT", List.of(), List.of()));
        }
    }

    private static long count(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).count();
    }

    @Test
    void everyOrderingCompareAndSelectIsAMinimumOrMaximumWithTheSameStores() {
        List<Integer[]> inputs = new ArrayList<>();
        for (int vx : EDGES) {
            for (int vy : EDGES) {
                inputs.add(new Integer[] {vx, vy});
            }
        }
        inputs.add(new Integer[] {null, null});
        for (String cmp : List.of("LT", "LE", "GT", "GE")) {
            for (boolean unsigned : new boolean[] {false, true}) {
                List<String> mods = unsigned ? List.of(cmp, "U32", "AND") : List.of(cmp, "AND");
                for (int form = 0; form < 4; form++) {
                    boolean swapped = (form & 1) != 0;
                    boolean negated = (form & 2) != 0;
                    for (Integer[] in : inputs) {
                        Kernel before = new Kernel(in[0], in[1]);
                        before.selectAndStore(mods, swapped, negated);
                        Kernel after = new Kernel(in[0], in[1]);
                        after.selectAndStore(mods, swapped, negated);
                        String out = TestInstrs.run(after.f, "sm_80", new MinMaxSelection(), new DeadCodeElimination());
                        String what = mods + " swapped " + swapped + " negated " + negated + " " + in[0] + ", "
                                + in[1] + ":\n" + out;
                        assertEquals(1, count(out, unsigned ? "IMNMX.U32 " : "IMNMX "), what);
                        assertEquals(0, count(out, "ISETP") + count(out, "SEL"), what);
                        for (long seed = 0; seed < (in[0] == null ? 32 : 1); seed++) {
                            assertEquals(OriEvaluator.run(before.f, seed), OriEvaluator.run(after.f, seed),
                                    what + "seed " + seed);
                        }
                    }
                }
            }
        }
    }

    @Test
    void greaterOrEqualSelectingTheFirstIsAMaximum() {
        Kernel k = new Kernel(null, null);
        k.selectAndStore(List.of("GE", "AND"), false, false);
        String out = TestInstrs.run(k.f, "sm_80", new MinMaxSelection());
        assertTrue(out.contains("IMNMX " + k.e.get(5).dsts().get(0) + ", " + k.x + ", " + k.y + ", !PT"), out);
    }

    @Test
    void equalityComparesStay() {
        Kernel eq = new Kernel(null, null);
        eq.selectAndStore(List.of("EQ", "AND"), false, false);
        String out = TestInstrs.run(eq.f, "sm_80", new MinMaxSelection());
        assertEquals(0, count(out, "IMNMX"), out);
    }

    /** A predicate with another reader: the SEL is still IMNMX, and the compare stays for that reader. */
    @Test
    void aCompareWithAnotherReaderStaysBesideTheMinimum() {
        List<FunctionBody> bodies = new ArrayList<>();
        String out = null;
        for (int copy = 0; copy < 2; copy++) {
            Kernel k = new Kernel(null, null);
            k.selectAndStore(List.of("GT", "AND"), false, false);
            Reg p = k.e.get(4).dsts().get(0);
            Instr st = ins("STG", List.of("E"), List.of(), s(Addr.of(k.out, 4)), s(k.x));
            st.setGuard(new org.jptxas.ori.ir.Guard(p, false));
            k.e.add(k.e.size() - 1, st);
            if (copy == 1) {
                out = TestInstrs.run(k.f, "sm_80", new MinMaxSelection(), new DeadCodeElimination());
            }
            bodies.add(k.f);
        }
        assertEquals(1, count(out, "IMNMX"), out);
        assertEquals(1, count(out, "ISETP"), out);
        for (long seed = 0; seed < 32; seed++) {
            assertEquals(OriEvaluator.run(bodies.get(0), seed), OriEvaluator.run(bodies.get(1), seed), out);
        }
    }

    /** The predicate written again between the compare and the SEL by a compare of other values: no fold. */
    @Test
    void aPredicateWrittenAgainBeforeTheSelectStays() {
        Kernel k = new Kernel(null, null);
        k.selectAndStore(List.of("GT", "AND"), false, false);
        Instr c = k.e.get(4);
        k.e.add(5, ins("ISETP", List.of("GT", "AND"), c.dsts(), s(k.x), s(3), s(Reg.PT)));
        String out = TestInstrs.run(k.f, "sm_80", new MinMaxSelection());
        assertEquals(0, count(out, "IMNMX"), out);
    }

    /** A compared register written again between the compare and the SEL: the SEL reads another value. */
    @Test
    void aValueRewrittenBetweenCompareAndSelectStays() {
        Kernel k = new Kernel(null, null);
        k.selectAndStore(List.of("GT", "AND"), false, false);
        k.e.add(5, ins("IADD3", List.of(), List.of(k.x), s(k.x), s(1), s(Reg.RZ)));
        String out = TestInstrs.run(k.f, "sm_80", new MinMaxSelection());
        assertEquals(0, count(out, "IMNMX"), out);
    }

    /** A float compare's select is not FMNMX: with a NaN operand FSETP is false and the SEL takes the second. */
    @Test
    void floatComparesStay() {
        Kernel k = new Kernel(null, null);
        k.selectAndStore(List.of("GT", "AND"), false, false);
        Instr c = k.e.get(4);
        k.e.set(4, ins("FSETP", c.mods(), c.dsts(), c.srcs().toArray(new Src[0])));
        String out = TestInstrs.run(k.f, "sm_80", new MinMaxSelection());
        assertEquals(0, count(out, "IMNMX") + count(out, "FMNMX"), out);
    }
}
