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
 * The compare and conversion classes with every value of every modifier field, from words built field by field (not
 * from ptxas's samples): DSETP (comparison [79:76], boolean operation [75:74], !Pc [90]; register and double
 * immediate b), HSETP2 (comparison, .H_AND [71], .FTZ [80], boolean operation [70:69], !Pc; on sm_90 also .BF16_V2
 * [65:64] = 2, bf16 pairs), HSET2 (.BF [71] and the same), F2I (.FTZ [80], integer type: sign [72] and size
 * [76:75], float type [85:84], rounding [79:78], .NTZ [77]; the 32-bit and the 64-bit opcode) and I2F (float type
 * [76:75], integer type: sign [74] and size [85:84], rounding [79:78]); on sm_90 the float types are [86:84] and
 * [77:75], with BF16. Every word jptxas decodes must read exactly as nvdisasm 12.5 prints it in raw mode and assemble
 * back to itself ({@link RawWordCheck}). The words the tables refuse (combinations nvdisasm rejects, {@code tools/sass-probe/field-enums.py})
 * decode UNKNOWN and are counted, exactly per SM, so an enum value the tables lose fails too; a word jptxas reads and nvdisasm refuses fails.
 */
class SassCompareConvertOracleTest {
    /**
     * Words per SM that decode UNKNOWN: nvdisasm refuses exactly these combinations (sm_90's BF16 conversions add
     * the same refusals as F16's and F64's: 64-bit integers only with the 64-bit opcodes and the reverse).
     */
    static final Map<String, Integer> REFUSED = Map.of("sm_75", 480, "sm_80", 480, "sm_86", 480, "sm_89", 480,
            "sm_90", 640);

    private static final long CTRL = 0x000fe20000000000L;

    /** A compare's word: Pp = P0, Pq = PT, a = R2, b = R4, Pc = P1, guard PT; HSET2 (rd > 0) writes R6 instead. */
    private static long[] compare(long opcode, long rd) {
        long pq = rd > 0 ? 0 : 7L << (84 - 64);
        return new long[] {opcode | 7L << 12 | rd << 16 | 2L << 24 | 4L << 32, CTRL | pq | 1L << (87 - 64)};
    }

    /** A conversion's word: R2 from R4, guard PT. */
    private static long[] convert(long opcode) {
        return new long[] {opcode | 7L << 12 | 2L << 16 | 4L << 32, CTRL};
    }

    private static long[] with(long[] w, int lo, int width, long value) {
        return RawWordCheck.withField(w, lo, width, value);
    }

    static List<long[]> words(String sm) {
        List<long[]> out = new ArrayList<>();
        // sm_90 compares bf16 pairs (.BF16_V2, [65:64] = 2); the earlier SMs print no token for those bits
        int[] halfTypes = sm.equals("sm_90") ? new int[] {0, 2} : new int[] {0};
        // DSETP, register and immediate (0.5: 0x3fe00000 in [63:32]) b
        for (long[] d : new long[][] {compare(0x22a, 0), with(compare(0x42a, 0), 32, 32, 0x3fe00000L)}) {
            for (int cmp = 0; cmp < 16; cmp++) {
                for (int bool = 0; bool < 3; bool++) {
                    for (int not = 0; not < 2; not++) {
                        out.add(with(with(with(d, 76, 4, cmp), 74, 2, bool), 90, 1, not));
                    }
                }
            }
        }
        // HSETP2 and HSET2 (HSET2's destination R6 sits in [23:16])
        List<long[]> halves = new ArrayList<>();
        for (long[] h : new long[][] {compare(0x234, 0), compare(0x233, 6)}) {
            for (int halfType : halfTypes) {
                halves.add(with(h, 64, 2, halfType));
            }
        }
        for (long[] h : halves) {
            for (int cmp = 0; cmp < 16; cmp++) {
                for (int bit71 = 0; bit71 < 2; bit71++) {
                    for (int ftz = 0; ftz < 2; ftz++) {
                        for (int bool = 0; bool < 3; bool++) {
                            out.add(with(with(with(with(with(h, 76, 4, cmp), 71, 1, bit71), 80, 1, ftz), 69, 2, bool),
                                    90, 1, cmp & 1));
                        }
                    }
                }
            }
        }
        // sm_90's float type fields are a bit wider, BF16 = 4: I2F's result [77:75], F2I's source [86:84]
        int floatTypes = sm.equals("sm_90") ? 5 : 4;
        int typeBits = sm.equals("sm_90") ? 3 : 2;
        // F2I: 32-bit (0x305) and 64-bit (0x311) opcodes
        for (long opcode : new long[] {0x305, 0x311}) {
            for (int type = 0; type < 8; type++) {
                for (int src = 1; src < floatTypes; src++) {
                    for (int rnd = 0; rnd < 4; rnd++) {
                        for (int flags = 0; flags < 4; flags++) {
                            long[] f = with(with(convert(opcode), 72, 1, type & 1), 75, 2, type >> 1);
                            f = with(with(with(f, 84, typeBits, src), 78, 2, rnd), 77, 1, flags & 1);
                            out.add(with(f, 80, 1, flags >> 1));
                        }
                    }
                }
            }
        }
        // I2F: 32-bit (0x306) and 64-bit (0x312) opcodes
        for (long opcode : new long[] {0x306, 0x312}) {
            for (int dst = 1; dst < floatTypes; dst++) {
                for (int type = 0; type < 8; type++) {
                    for (int rnd = 0; rnd < 4; rnd++) {
                        long[] f = with(with(convert(opcode), 75, typeBits, dst), 74, 1, type & 1);
                        out.add(with(with(f, 84, 2, type >> 1), 78, 2, rnd));
                    }
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void everyModifierValueDecodesAsNvdisasmAndAssemblesBack(String sm) {
        Oracles.assumeNvdisasm();
        RawWordCheck.Outcome o = RawWordCheck.run(sm, sm.equals("sm_90") ? "sm_90a" : sm, words(sm),
                RawWordCheck.Rules.STRICT.countingTableRefusals());
        System.out.printf("%s: compare/convert fields, %d words read exactly, %d refused by the tables%n", sm,
                o.words() - o.refused() - o.failures().size(), o.refused());
        o.assertNoneWrong();
        assertEquals(REFUSED.get(sm), o.refused(), sm + ": words the tables refuse (nvdisasm's refusals)");
    }
}
