package org.jptxas.ori.opt;

import static org.jptxas.ori.opt.TestInstrs.imm;
import static org.jptxas.ori.opt.TestInstrs.ins;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * Neighbouring 32-bit words through a base that an 8-byte access proves aligned: one 64-bit access, as ptxas 13
 * emits for the matrix_free repros l1..l12 (the "no" cases are the repros where ptxas keeps two accesses).
 */
class AlignedWordPairsTest {
    private static final List<String> E = List.of("E");
    private static final List<String> E64 = List.of("E", "64");

    /** A kernel reading a struct pointer {@code s} from {@code *param}; {@code code} adds the accesses through it. */
    private static final class Kernel {
        final FunctionBody body = new FunctionBody();
        final BasicBlock entry = body.addBlock(null);
        BasicBlock block = entry;
        final Reg param = body.newVirtual(RegFile.R, 2);
        final Reg s = body.newVirtual(RegFile.R, 2);
        final Reg out = body.newVirtual(RegFile.R, 2);
        final List<Reg> words = new ArrayList<>();

        Kernel() {
            add(ins("MOV", List.of(), List.of(param.component(0)), Src.of(CBank.of(0, 0x160))));
            add(ins("MOV", List.of(), List.of(param.component(1)), Src.of(CBank.of(0, 0x164))));
            add(ins("MOV", List.of(), List.of(out.component(0)), Src.of(CBank.of(0, 0x168))));
            add(ins("MOV", List.of(), List.of(out.component(1)), Src.of(CBank.of(0, 0x16c))));
            add(ins("LD", E64, List.of(s), Src.of(Addr.of(param, 0))));
        }

        void add(Instr in) {
            block.instrs().add(in);
        }

        /** {@code LD.E r, [s+offset]} (or with other modifiers), the word kept for the final sum. */
        void word(String op, List<String> mods, long offset) {
            Reg r = body.newVirtual(RegFile.R, 1);
            words.add(r);
            add(ins(op, mods, List.of(r), Src.of(Addr.of(s, offset))));
        }

        void wide(String op, long offset) {
            Reg r = body.newVirtual(RegFile.R, 2);
            if (op.startsWith("ST")) {
                add(ins(op, E64, List.of(), Src.of(Addr.of(s, offset)), Src.of(param)));
            } else {
                add(ins(op, E64, List.of(r), Src.of(Addr.of(s, offset))));
                words.add(r.component(0));
            }
        }

        String run() {
            Reg sum = body.newVirtual(RegFile.R, 1);
            Src acc = imm(0);
            for (Reg w : words) {
                add(ins("IADD3", List.of(), List.of(sum, Reg.PT, Reg.PT), acc, Src.of(w), Src.of(Reg.RZ)));
                acc = Src.of(sum);
            }
            add(ins("ST", E, List.of(), Src.of(Addr.of(out, 0)), acc));
            add(ins("EXIT", List.of(), List.of()));
            return TestInstrs.run(body, "sm_80", new AlignedWordPairs());
        }
    }

    private static String kernel(Consumer<Kernel> code) {
        Kernel k = new Kernel();
        code.accept(k);
        return k.run();
    }

    /** One 64-bit access at {@code [s+offset]} ({@code opcode} with {@code .64}) and no 32-bit access left there. */
    private static void assertMerged(String out, String opcode, long offset) {
        String at = "[%r1.64+0x" + Long.toHexString(offset) + "]";
        assertEquals(1, count(out, "(?m)^" + Pattern.quote(opcode) + " .*" + Pattern.quote(at)), out);
        assertEquals(0, count(out, "(?m)^(LD|LDG|ST)\\.E [^\\n]*\\[%r1\\.64\\+0x(34|38|3c|40)\\]"), out);
    }

    /** The two words still read or written one by one. */
    private static void assertApart(String out) {
        assertEquals(2, count(out, "(?m)^(LD|LDG|ST)\\.E(\\.STRONG\\.SYS)? [^\\n]*\\[%r1\\.64\\+0x(34|38|3c|40)\\]"),
                out);
    }

    private static long count(String text, String regex) {
        return Pattern.compile(regex).matcher(text).results().count();
    }

    @Test
    void wordsAfterAnEightByteLoadBecomeOneLoadWithTheFirstLine() {
        Kernel k = new Kernel();
        k.wide("LD", 0x10);
        k.word("LD", E, 0x38);
        k.word("LD", E, 0x3c);
        k.body.blocks().get(0).instrs().get(6).setLine(184);
        k.body.blocks().get(0).instrs().get(7).setLine(186);
        String out = k.run();
        assertMerged(out, "LD.E.64", 0x38);
        assertTrue(out.contains("MOV %r4, %r7.lo\nMOV %r5, %r7.hi\n"), out);
        for (Instr in : k.body.blocks().get(0).instrs()) {
            assertTrue(in.line() != 186, out); // the second word's line is gone, as in ptxas
        }
    }

    @Test
    void globalWordsBecomeOneLdg() {
        String out = kernel(k -> {
            k.wide("LDG", 0x10);
            k.word("LDG", E, 0x38);
            k.word("LDG", E, 0x3c);
        });
        assertMerged(out, "LDG.E.64", 0x38);
    }

    @Test
    void theEightByteAccessMayComeAfterThePairOrBeAStore() {
        assertMerged(kernel(k -> {
            k.word("LD", E, 0x38);
            k.word("LD", E, 0x3c);
            k.wide("LD", 0x10);
        }), "LD.E.64", 0x38);
        assertMerged(kernel(k -> {
            k.wide("ST", 0x10);
            k.word("LD", E, 0x38);
            k.word("LD", E, 0x3c);
        }), "LD.E.64", 0x38);
    }

    @Test
    void theHighWordMayComeFirstAndWeakLoadsMayLieBetween() {
        String out = kernel(k -> {
            k.wide("LD", 0x10);
            k.word("LD", E, 0x3c);
            k.word("LD", E, 0x0);
            k.word("LD", E, 0x38);
        });
        assertMerged(out, "LD.E.64", 0x38);
        assertTrue(out.contains("MOV %r4, %r8.hi") && out.contains("MOV %r6, %r8.lo"), out);
    }

    @Test
    void storedWordsBecomeOneStoreAtTheSecondPlace() {
        Kernel k = new Kernel();
        k.wide("LD", 0x10);
        Reg v = k.body.newVirtual(RegFile.R, 1);
        k.add(ins("ST", E, List.of(), Src.of(Addr.of(k.s, 0x38)), Src.of(k.param.component(0))));
        k.add(ins("IADD3", List.of(), List.of(v, Reg.PT, Reg.PT), Src.of(k.param.component(0)), imm(1),
                Src.of(Reg.RZ)));
        k.add(ins("ST", E, List.of(), Src.of(Addr.of(k.s, 0x3c)), Src.of(v)));
        List<Instr> code = k.block.instrs();
        code.get(code.size() - 3).setLine(30);
        code.get(code.size() - 1).setLine(40);
        String out = k.run();
        assertTrue(out.contains("MOV %r6.lo, %r0.lo\nIADD3 %r4, PT, PT, %r0.lo, 0x1, RZ\nMOV %r6.hi, %r4\n"
                + "ST.E.64 [%r1.64+0x38], %r6.64\n"), out);
        // ptxas gives the merged store the second store's line (st.u32 at line 30, st.u32 at line 40: ST.E.64 at 40)
        assertEquals(40, code.stream().filter(in -> in.toString().startsWith("ST.E.64")).findFirst().orElseThrow()
                .line(), out);
    }

    /** Words at [s+0x38], [s+0x3c] after an 8-byte load at [s+0x10]: the case every "apart" test varies. */
    private static void alignedPair(Kernel k) {
        k.wide("LD", 0x10);
        k.word("LD", E, 0x38);
        k.word("LD", E, 0x3c);
    }

    /** {@code variant} keeps the words apart where {@link #alignedPair}, differing only in the point tested, merges. */
    private static void assertApartUnlikeAlignedPair(Consumer<Kernel> variant) {
        assertMerged(kernel(AlignedWordPairsTest::alignedPair), "LD.E.64", 0x38);
        assertApart(kernel(variant));
    }

    @Test
    void noEightByteAccessLeavesTheWordsApart() {
        assertApartUnlikeAlignedPair(k -> {
            k.word("LD", E, 0x38);
            k.word("LD", E, 0x3c);
        });
        assertApartUnlikeAlignedPair(k -> {
            k.word("LD", E, 0x10); // a 4-byte access at an 8-aligned offset proves nothing
            k.word("LD", E, 0x38);
            k.word("LD", E, 0x3c);
        });
    }

    @Test
    void anEightByteAccessOnlyOnAnotherPathOrGuardedLeavesTheWordsApart() {
        assertApartUnlikeAlignedPair(k -> {
            Reg r = k.body.newVirtual(RegFile.R, 2);
            Instr guarded = ins("LD", E64, List.of(r), Src.of(Addr.of(k.s, 0x10)));
            guarded.setGuard(new Guard(k.body.newVirtual(RegFile.P, 1), false));
            k.add(guarded);
            k.word("LD", E, 0x38);
            k.word("LD", E, 0x3c);
        });
        assertApartUnlikeAlignedPair(k -> {
            k.wide("LD", 0x10);
            k.block = k.body.addBlock("next");
            k.word("LD", E, 0x38);
            k.word("LD", E, 0x3c);
        });
    }

    @Test
    void wordsThatStraddleAnEightByteBoundaryStayApart() {
        assertApartUnlikeAlignedPair(k -> {
            k.wide("LD", 0x10);
            k.word("LD", E, 0x34);
            k.word("LD", E, 0x38);
        });
        // ld.u64 [s+4] proves s = 4 (mod 8), which ptxas does not track: [s+0x3c], [s+0x40] stay apart
        assertApartUnlikeAlignedPair(k -> {
            k.wide("LD", 0x4);
            k.word("LD", E, 0x3c);
            k.word("LD", E, 0x40);
        });
    }

    @Test
    void aStoreOrAStrongLoadOrANewBaseBetweenLeavesTheWordsApart() {
        assertApartUnlikeAlignedPair(k -> {
            k.wide("LD", 0x10);
            k.word("LD", E, 0x38);
            k.add(ins("ST", E, List.of(), Src.of(Addr.of(k.out, 4)), Src.of(k.words.get(1))));
            k.word("LD", E, 0x3c);
        });
        assertApartUnlikeAlignedPair(k -> {
            k.wide("LD", 0x10);
            k.word("LD", List.of("E", "STRONG", "SYS"), 0x38);
            k.word("LD", E, 0x3c);
        });
        assertApartUnlikeAlignedPair(k -> {
            k.wide("LD", 0x10);
            k.add(ins("LD", E64, List.of(k.s), Src.of(Addr.of(k.param, 8))));
            k.word("LD", E, 0x38);
            k.word("LD", E, 0x3c);
        });
    }

    @Test
    void storedWordsWithoutAnEightByteAccessStayApart() {
        String apart = kernel(k -> {
            k.add(ins("ST", E, List.of(), Src.of(Addr.of(k.s, 0x38)), Src.of(k.param.component(0))));
            k.add(ins("ST", E, List.of(), Src.of(Addr.of(k.s, 0x3c)), Src.of(k.param.component(1))));
        });
        assertTrue(apart.contains("ST.E [%r1.64+0x38], %r0.lo\nST.E [%r1.64+0x3c], %r0.hi\n"), apart);
        String merged = kernel(k -> {
            k.wide("ST", 0x10);
            k.add(ins("ST", E, List.of(), Src.of(Addr.of(k.s, 0x38)), Src.of(k.param.component(0))));
            k.add(ins("ST", E, List.of(), Src.of(Addr.of(k.s, 0x3c)), Src.of(k.param.component(1))));
        });
        assertMerged(merged, "ST.E.64", 0x38);
    }
}
