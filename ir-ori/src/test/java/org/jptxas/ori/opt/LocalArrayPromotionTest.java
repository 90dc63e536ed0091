package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.imm;
import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Consumer;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** A small local frame reached through stack-pointer arithmetic only goes to registers, one per word. */
class LocalArrayPromotionTest {
    private static final Reg SP = LocalArrayPromotion.SP;

    /** What a test adds after the frame's set-up and the root {@code p = SP + 0}. */
    private interface Body {
        void emit(FunctionBody f, BasicBlock entry, Reg p, Reg g);
    }

    /**
     * A kernel with a frame of {@code bytes}: {@code g} is a global pointer from the parameters; the body stores
     * its results with STG through {@code g}.
     */
    private static FunctionBody kernel(int bytes, Body body) {
        FunctionBody f = new FunctionBody();
        BasicBlock bb = f.addBlock(null);
        Reg g = f.newVirtual(RegFile.R, 2);
        Reg p = f.newVirtual(RegFile.R, 1);
        List<Instr> l = bb.instrs();
        l.add(ins("MOV", List.of(), List.of(SP), Src.of(CBank.of(0, 0x28))));
        l.add(ins("IADD3", List.of(), List.of(SP, Reg.PT, Reg.PT), Src.of(SP), imm(-bytes), Src.of(Reg.RZ)));
        l.add(ins("MOV", List.of(), List.of(g.component(0)), Src.of(CBank.of(0, 0x160))));
        l.add(ins("MOV", List.of(), List.of(g.component(1)), Src.of(CBank.of(0, 0x164))));
        l.add(ins("IADD3", List.of(), List.of(p, Reg.PT, Reg.PT), Src.of(SP), Src.of(Reg.RZ), Src.of(Reg.RZ)));
        body.emit(f, bb, p, g);
        f.blocks().get(f.blocks().size() - 1).instrs().add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    /** {@code r = (c[0x0][at] & 3) << 2}: a word offset in 0..12 from a parameter. */
    private static Reg wordOffset(FunctionBody f, List<Instr> l, int at) {
        Reg x = f.newVirtual(RegFile.R, 1);
        Reg m = f.newVirtual(RegFile.R, 1);
        Reg o = f.newVirtual(RegFile.R, 1);
        l.add(ins("MOV", List.of(), List.of(x), Src.of(CBank.of(0, at))));
        l.add(ins("LOP3", List.of("LUT"), List.of(Reg.PT, m), Src.of(x), imm(3), Src.of(Reg.RZ), imm(0xc0),
                Src.of(Reg.PT).inverted()));
        l.add(ins("SHF", List.of("L", "U32"), List.of(o), Src.of(m), imm(2), Src.of(Reg.RZ)));
        return o;
    }

    /** Seven words stored at constant offsets, one at a computed offset, two loaded (computed, constant). */
    private static void sevenWords(FunctionBody f, BasicBlock bb, Reg p, Reg g) {
        List<Instr> l = bb.instrs();
        for (int k = 0; k < 7; k++) {
            Reg v = f.newVirtual(RegFile.R, 1);
            l.add(ins("LDG", List.of("E"), List.of(v), Src.of(Addr.of(g, 4 * k))));
            l.add(ins("STL", List.of(), List.of(), Src.of(Addr.of(SP, 4 * k)), Src.of(v)));
        }
        Reg q = f.newVirtual(RegFile.R, 1);
        l.add(ins("IADD3", List.of(), List.of(q, Reg.PT, Reg.PT), Src.of(p), Src.of(wordOffset(f, l, 0x168)),
                Src.of(Reg.RZ)));
        Reg v = f.newVirtual(RegFile.R, 1);
        l.add(ins("LDG", List.of("E"), List.of(v), Src.of(Addr.of(g, 0x40))));
        l.add(ins("STL", List.of(), List.of(), Src.of(Addr.of(q, 8)), Src.of(v)));
        Reg q2 = f.newVirtual(RegFile.R, 1);
        l.add(ins("IADD3", List.of(), List.of(q2, Reg.PT, Reg.PT), Src.of(p), Src.of(wordOffset(f, l, 0x16c)),
                Src.of(Reg.RZ)));
        Reg d = f.newVirtual(RegFile.R, 1);
        l.add(ins("LDL", List.of(), List.of(d), Src.of(Addr.of(q2, 4))));
        l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(g, 0x80)), Src.of(d)));
        Reg e = f.newVirtual(RegFile.R, 1);
        l.add(ins("LDL", List.of(), List.of(e), Src.of(Addr.of(SP, 0x10))));
        l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(g, 0x84)), Src.of(e)));
    }

    /** The global stores of the body's run, for several parameter values (seeds). */
    private static String globalStores(FunctionBody f) {
        StringBuilder sb = new StringBuilder();
        for (long seed = 1; seed <= 24; seed++) {
            for (OriEvaluator.Store s : OriEvaluator.run(f, seed)) {
                if (s.op().equals("STG")) {
                    sb.append(s).append('\n');
                }
            }
        }
        return sb.toString();
    }

    private static String text(FunctionBody f) {
        StringBuilder sb = new StringBuilder();
        for (BasicBlock b : f.blocks()) {
            for (Instr in : b.instrs()) {
                sb.append(in).append('\n');
            }
        }
        return sb.toString();
    }

    private static void optimize(FunctionBody f, List<Pass> passes) {
        OptPipeline.of(passes).verifying(true).run(new OriFunction("k", true, 0, f), TestProfiles.of("sm_80"));
    }

    private static void assertSameStores(Body body, int bytes, Consumer<String> check) {
        String before = globalStores(kernel(bytes, body));
        FunctionBody f = kernel(bytes, body);
        optimize(f, List.of(new LocalArrayPromotion()));
        String after = text(f);
        check.accept(after);
        assertEquals(before, globalStores(f), after);
        FunctionBody full = kernel(bytes, body);
        OptPipeline.forLevel(3).verifying(true).run(new OriFunction("k", true, 0, full), TestProfiles.of("sm_80"));
        assertEquals(before, globalStores(full), text(full));
    }

    @Test
    void computedAndConstantOffsetsReadTheRightWords() {
        assertSameStores(LocalArrayPromotionTest::sevenWords, 28, out -> {
            assertFalse(out.contains("LDL") || out.contains("STL"), out);
            assertTrue(out.contains("ISETP.EQ.AND"), out);
            assertTrue(out.matches("(?s).*@%p\\d+ MOV .*"), out);
        });
    }

    @Test
    void aPointerStepThroughALoopStoresEachWord() {
        // the shape of mri-q's reduction: p += 4 in a counted loop, 64-bit pointer arithmetic with a carry
        Body loop = (f, bb, p, g) -> {
            Reg ptr = f.newVirtual(RegFile.R, 2);
            Reg i = f.newVirtual(RegFile.R, 1);
            Reg carry = f.newVirtual(RegFile.P, 1);
            Reg again = f.newVirtual(RegFile.P, 1);
            bb.instrs().add(ins("MOV", List.of(), List.of(ptr.component(0)), Src.of(p)));
            bb.instrs().add(ins("MOV", List.of(), List.of(ptr.component(1)), Src.of(Reg.RZ)));
            bb.instrs().add(ins("MOV", List.of(), List.of(i), Src.of(Reg.RZ)));
            BasicBlock body = f.addBlock("loop");
            List<Instr> l = body.instrs();
            Reg v = f.newVirtual(RegFile.R, 1);
            l.add(ins("IMAD", List.of(), List.of(v), Src.of(i), Src.of(CBank.of(0, 0x170)), Src.of(i)));
            l.add(ins("STL", List.of(), List.of(), Src.of(Addr.of(ptr.component(0), 0)), Src.of(v)));
            l.add(ins("IADD3", List.of(), List.of(ptr.component(0), carry, Reg.PT), Src.of(ptr.component(0)), imm(4),
                    Src.of(Reg.RZ)));
            l.add(ins("IADD3", List.of("X"), List.of(ptr.component(1), Reg.PT, Reg.PT), Src.of(ptr.component(1)),
                    Src.of(Reg.RZ), Src.of(Reg.RZ), Src.of(carry), Src.of(Reg.PT).inverted()));
            l.add(ins("IADD3", List.of(), List.of(i, Reg.PT, Reg.PT), Src.of(i), imm(1), Src.of(Reg.RZ)));
            l.add(ins("ISETP", List.of("NE", "AND"), List.of(again, Reg.PT), Src.of(i), imm(6), Src.of(Reg.PT)));
            l.add(new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(body.ref())),
                    new Guard(again, false), 0));
            BasicBlock after = f.addBlock("after");
            Reg v6 = f.newVirtual(RegFile.R, 1);
            after.instrs().add(ins("MOV", List.of(), List.of(v6), Src.of(CBank.of(0, 0x174))));
            after.instrs().add(ins("STL", List.of(), List.of(), Src.of(Addr.of(SP, 0x18)), Src.of(v6)));
            Reg q = f.newVirtual(RegFile.R, 1);
            after.instrs().add(ins("IADD3", List.of(), List.of(q, Reg.PT, Reg.PT), Src.of(p),
                    Src.of(wordOffset(f, after.instrs(), 0x168)), Src.of(Reg.RZ)));
            for (int k = 0; k < 3; k++) {
                Reg d = f.newVirtual(RegFile.R, 1);
                after.instrs().add(ins("LDL", List.of(), List.of(d), Src.of(Addr.of(q, 4 * k))));
                after.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(g, 4 * k)), Src.of(d)));
            }
        };
        assertSameStores(loop, 28, out -> assertFalse(out.contains("LDL") || out.contains("STL"), out));
    }

    @Test
    void anEscapingAddressKeepsTheFrame() {
        // the frame's address stored to global memory: someone else may read the array
        Body escape = (f, bb, p, g) -> {
            sevenWords(f, bb, p, g);
            bb.instrs().add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(g, 0x88)), Src.of(p)));
        };
        FunctionBody f = kernel(28, escape);
        optimize(f, List.of(new LocalArrayPromotion()));
        String out = text(f);
        assertTrue(out.contains("LDL") && out.contains("STL"), out);
    }

    @Test
    void aFrameOverTheLimitStaysInLocalMemory() {
        int bytes = 4 * (LocalArrayPromotion.MAX_WORDS + 1);
        FunctionBody f = kernel(bytes, LocalArrayPromotionTest::sevenWords);
        optimize(f, List.of(new LocalArrayPromotion()));
        String out = text(f);
        assertTrue(out.contains("LDL") && out.contains("STL"), out);
        FunctionBody atLimit = kernel(4 * LocalArrayPromotion.MAX_WORDS, LocalArrayPromotionTest::sevenWords);
        optimize(atLimit, List.of(new LocalArrayPromotion()));
        assertFalse(text(atLimit).contains("STL"), text(atLimit));
    }

    @Test
    void aWideAccessKeepsTheFrame() {
        // 64-bit elements stay in local memory in ptxas 13's code too
        Body wide = (f, bb, p, g) -> {
            sevenWords(f, bb, p, g);
            Reg d = f.newVirtual(RegFile.R, 2);
            bb.instrs().add(ins("LDL", List.of("64"), List.of(d), Src.of(Addr.of(SP, 8))));
            bb.instrs().add(ins("STG", List.of("E", "64"), List.of(), Src.of(Addr.of(g, 0x90)), Src.of(d)));
        };
        FunctionBody f = kernel(28, wide);
        optimize(f, List.of(new LocalArrayPromotion()));
        assertTrue(text(f).contains("STL"), text(f));
    }

    private static long count(String text, String what) {
        return text.lines().filter(l -> l.contains(what)).count();
    }

    @Test
    void aPointerOfOneKnownOffsetIsAPlainCopy() {
        // nvcc's st.local [%rd1+24] with %rd1 = %SPL + 0: a fixed word, no compare
        Body fixed = (f, bb, p, g) -> {
            List<Instr> l = bb.instrs();
            Reg p2 = f.newVirtual(RegFile.R, 1);
            l.add(ins("MOV", List.of(), List.of(p2), Src.of(p)));
            for (int k = 0; k < 7; k++) {
                Reg v = f.newVirtual(RegFile.R, 1);
                l.add(ins("LDG", List.of("E"), List.of(v), Src.of(Addr.of(g, 4 * k))));
                l.add(ins("STL", List.of(), List.of(), Src.of(Addr.of(p2, 4 * k)), Src.of(v)));
            }
            Reg d = f.newVirtual(RegFile.R, 1);
            l.add(ins("LDL", List.of(), List.of(d), Src.of(Addr.of(p, 0x14))));
            l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(g, 0x80)), Src.of(d)));
        };
        assertSameStores(fixed, 28, out -> {
            assertFalse(out.contains("LDL") || out.contains("STL"), out);
            assertEquals(0, count(out, "ISETP"), out);
        });
    }

    @Test
    void aComputedAccessComparesOnlyTheWordsOfItsOwnVariable() {
        // two 7-word variables (mri-q's sinf and cosf arrays): a pointer from the second root reaches its words
        Body two = (f, bb, p, g) -> {
            List<Instr> l = bb.instrs();
            Reg second = f.newVirtual(RegFile.R, 1);
            l.add(ins("IADD3", List.of(), List.of(second, Reg.PT, Reg.PT), Src.of(SP), imm(28), Src.of(Reg.RZ)));
            for (int k = 0; k < 14; k++) {
                Reg v = f.newVirtual(RegFile.R, 1);
                l.add(ins("LDG", List.of("E"), List.of(v), Src.of(Addr.of(g, 4 * k))));
                l.add(ins("STL", List.of(), List.of(), Src.of(Addr.of(SP, 4 * k)), Src.of(v)));
            }
            Reg q = f.newVirtual(RegFile.R, 1);
            l.add(ins("IADD3", List.of(), List.of(q, Reg.PT, Reg.PT), Src.of(second),
                    Src.of(wordOffset(f, l, 0x168)), Src.of(Reg.RZ)));
            Reg d = f.newVirtual(RegFile.R, 1);
            l.add(ins("LDL", List.of(), List.of(d), Src.of(Addr.of(q, 4))));
            l.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(g, 0x80)), Src.of(d)));
        };
        assertSameStores(two, 56, out -> {
            assertFalse(out.contains("LDL") || out.contains("STL"), out);
            assertEquals(6, count(out, "ISETP"), out); // words 8..13 tested, word 7 the chain's start
        });
    }

    @Test
    void aLoopReadingTwoWordsPerStoredOneKeepsTheFrame() {
        // MersenneTwister's step: two computed loads and one computed store per round stay in local memory
        Body rounds = (f, bb, p, g) -> {
            sevenWords(f, bb, p, g);
            BasicBlock loop = f.addBlock("loop");
            List<Instr> l = loop.instrs();
            Reg again = f.newVirtual(RegFile.P, 1);
            Reg[] at = new Reg[3];
            for (int k = 0; k < 3; k++) {
                at[k] = f.newVirtual(RegFile.R, 1);
                l.add(ins("IADD3", List.of(), List.of(at[k], Reg.PT, Reg.PT), Src.of(p),
                        Src.of(wordOffset(f, l, 0x168 + 4 * k)), Src.of(Reg.RZ)));
            }
            Reg a = f.newVirtual(RegFile.R, 1);
            Reg b = f.newVirtual(RegFile.R, 1);
            l.add(ins("LDL", List.of(), List.of(a), Src.of(Addr.of(at[0], 0))));
            l.add(ins("LDL", List.of(), List.of(b), Src.of(Addr.of(at[1], 0))));
            l.add(ins("STL", List.of(), List.of(), Src.of(Addr.of(at[2], 0)), Src.of(a)));
            l.add(ins("ISETP", List.of("NE", "AND"), List.of(again, Reg.PT), Src.of(b), imm(6), Src.of(Reg.PT)));
            l.add(new Instr(OpInfo.op("BRA"), List.of(), List.of(), List.of(Src.of(loop.ref())),
                    new Guard(again, false), 0));
            f.addBlock("after");
        };
        FunctionBody f = kernel(28, rounds);
        optimize(f, List.of(new LocalArrayPromotion()));
        assertTrue(text(f).contains("STL"), text(f));
    }
}
