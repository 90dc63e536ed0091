package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The arithmetic classes' mnemonic enums ({@code tools/sass-probe/field-enums.py}, EXTEND), from words built field by
 * field: FADD/FMUL/FFMA (.FTZ [80], rounding [79:78], .SAT [77], -a [72], -b [63]), FMNMX (.FTZ, .NAN [81], !Pc
 * [90]), FSETP (comparison [79:76], .FTZ, boolean operation [75:74]), HADD2/HMUL2 (.F32 [78], .FTZ, .SAT, -b),
 * FRND (.FTZ, f32/f16 type, rounding), FLO (signed [73], .SH [74]), PRMT (mode [74:72]) and DADD/DMUL (rounding); -a and -b one at
 * a time, as the composer adds operand modifiers. Every word jptxas decodes must read exactly as nvdisasm 12.5 prints
 * it in raw mode and assemble back to itself; the words the tables refuse decode UNKNOWN, must be ones nvdisasm
 * refuses too and are counted exactly per SM, so a lost or misplaced enum value fails.
 */
class SassArithmeticModifierOracleTest {
    /** Words per SM that decode UNKNOWN: nvdisasm refuses exactly these. */
    static final Map<String, Integer> REFUSED = Map.of("sm_75", 0, "sm_80", 0, "sm_86", 0, "sm_89", 0,
            "sm_90", 0);

    private static final long CTRL = 0x000fe20000000000L;

    /**
     * Rd = R2, a = R4, b = R6 ([39:32]) or R8 ([71:64], DADD's), c = R8 (FFMA's), guard PT; FSETP's Pq and Pc and
     * FMNMX's Pc PT; FMUL's scale [86:84] none (4).
     */
    private static long[] word(long opcode) {
        boolean c = opcode == 0x223 || opcode == 0x229 || opcode == 0x216;
        long hi = CTRL | (c ? 8L : 0) | (opcode == 0x20b ? 7L << (84 - 64) : 0) | (opcode == 0x220 ? 4L << (84 - 64) : 0)
                | (opcode == 0x20b || opcode == 0x209 ? 7L << (87 - 64) : 0);
        return new long[] {opcode | 7L << 12 | 2L << 16 | 4L << 24 | (opcode == 0x229 ? 0 : 6L << 32), hi};
    }

    private static long[] with(long[] w, int lo, int width, long value) {
        return RawWordCheck.withField(w, lo, width, value);
    }

    static List<long[]> words(String sm) {
        List<long[]> out = new ArrayList<>();
        // FADD, FMUL, FFMA: .FTZ x rounding x .SAT x -a x -b
        for (long opcode : new long[] {0x221, 0x220, 0x223}) {
            for (int flags = 0; flags < 48; flags++) { // -a or -b, not both: the composer adds one operand modifier
                long[] w = with(word(opcode), 80, 1, flags & 1);
                w = with(with(w, 78, 2, flags >> 1 & 3), 77, 1, flags >> 3 & 1);
                out.add(with(with(w, 72, 1, flags >> 4 & 1), 63, 1, flags >> 5 & 1));
            }
        }
        // FMNMX: .FTZ x .NAN x !Pc (sm_75 has no .NAN: nvdisasm ignores [81] there)
        for (int flags = 0; flags < 8; flags++) {
            if (sm.equals("sm_75") && (flags & 2) != 0) {
                continue;
            }
            out.add(with(with(with(word(0x209), 80, 1, flags & 1), 81, 1, flags >> 1 & 1), 90, 1, flags >> 2));
        }
        // FSETP (Pp = P0; Pq, Pc = PT): comparison x .FTZ x AND/OR/XOR
        for (int cmp = 0; cmp < 16; cmp++) {
            for (int ftz = 0; ftz < 2; ftz++) {
                for (int bool = 0; bool < 3; bool++) {
                    long[] w = with(word(0x20b), 16, 8, 0); // [23:16] is not FSETP's
                    out.add(with(with(with(w, 76, 4, cmp), 80, 1, ftz), 74, 2, bool));
                }
            }
        }
        // HADD2, HMUL2: .F32 x .FTZ x .SAT x -a x -b
        for (long opcode : new long[] {0x230, 0x232}) {
            for (int flags = 0; flags < 16; flags++) {
                if (sm.equals("sm_90") && (flags & 1) != 0) {
                    continue; // sm_90 composes no .F32 (HMUL2 has none; HADD2's are learned forms only)
                }
                long[] w = with(word(opcode), 78, 1, flags & 1);
                w = with(with(w, 80, 1, flags >> 1 & 1), 77, 1, flags >> 2 & 1);
                out.add(with(w, 63, 1, flags >> 3 & 1));
            }
        }
        // FRND (R2 from R4; f32 types [85:84] = 2, [76:75] = 2): .FTZ x rounding
        for (int flags = 0; flags < 8; flags++) {
            long[] w = {0x307 | 7L << 12 | 2L << 16 | 4L << 32, CTRL | 1L << (85 - 64) | 1L << (76 - 64)};
            out.add(with(with(w, 80, 1, flags & 1), 78, 2, flags >> 1));
            // f16 ([85:84] = 1, [76:75] = 1): FRND.FTZ.F16.CEIL
            long[] h = {w[0], CTRL | 1L << (84 - 64) | 1L << (75 - 64)};
            out.add(with(with(h, 80, 1, flags & 1), 78, 2, flags >> 1));
        }
        // FLO (R2 from R4, no predicate: PT in [83:81]): signed [73] x .SH [74]
        for (int flags = 0; flags < 4; flags++) {
            long[] w = {0x300 | 7L << 12 | 2L << 16 | 4L << 32, CTRL | 7L << (81 - 64)};
            out.add(with(w, 73, 2, flags));
        }
        // PRMT R2, R4, R6, R8: the mode [74:72] (7 is INVALID7)
        for (int mode = 0; mode < 7; mode++) {
            out.add(with(word(0x216), 72, 3, mode));
        }
        // DADD (b in [71:64]), DMUL: rounding
        for (long opcode : new long[] {0x229, 0x228}) {
            for (int rnd = 0; rnd < 4; rnd++) {
                out.add(with(word(opcode), 78, 2, rnd));
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void everyArithmeticModifierDecodesAsNvdisasmAndAssemblesBack(String sm) {
        Oracles.assumeNvdisasm();
        // every word goes to nvdisasm: one the tables refuse (decode UNKNOWN) must be one nvdisasm refuses too
        RawWordCheck.Outcome o = RawWordCheck.run(sm, sm.equals("sm_90") ? "sm_90a" : sm, words(sm),
                RawWordCheck.Rules.STRICT.toleratingRefusals());
        System.out.printf("%s: arithmetic modifiers, %d words read exactly, %d refused%n", sm,
                o.words() - o.refused() - o.failures().size(), o.refused());
        o.assertNoneWrong();
        assertEquals(REFUSED.get(sm), o.refused(), sm + ": words the tables refuse (nvdisasm's refusals)");
    }
}
