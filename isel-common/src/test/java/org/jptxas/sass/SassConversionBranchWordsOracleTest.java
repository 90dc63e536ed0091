package org.jptxas.sass;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.sass.oracle.VariedWords;
import org.jptxas.sass.oracle.VariedWords.Sample;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Words ptxas 13 writes for the instruction-form suite whose forms the tables lacked: I2F with an immediate source
 * (cvt.rz.f32.u32 of a constant: I2F.U32.RZ R0, 0x2, on sm_75 to sm_89), I2FP.F32 with .RZ (its rounding field
 * [79:78] holds only RZ or nothing; nvdisasm names 1 and 2 INVALID) from a register or an immediate (sm_86 and
 * later), and {@code @!P0 BRA.CONV UR4, 0x50} with any predicate and uniform register (match.sync's membermask
 * test; sm_80 to sm_89), BMSK.W and SGXT.W and BMSK with an immediate, DSETP with a constant b in every comparison
 * (sm_90 too), I2F.F16 from an immediate with a rounding mode, and STS.U16/S8/S16 with an offset (the size [75:73]
 * composed onto every STS form). Each word gets random values in its fields and must decode to exactly nvdisasm
 * 12.5's text and assemble back to itself.
 */
class SassConversionBranchWordsOracleTest {
    /**
     * I2F R0, imm: destination, immediate, S32 or U32 [74], rounding [79:78]; and I2F.F16.U32's f16 result with
     * its rounding (nvdisasm prints the rounding after the source type: I2F.F16.U32.RP).
     */
    static final List<Sample> I2F_IMMEDIATE = List.of(
            new Sample("000e22000020d0000000000200007906", List.of("23:16", "63:32", "74:74", "79:78", "!14:12",
                    "15:15")),
            new Sample("000e6200002008000000007f00057906", List.of("23:16", "63:32", "74:74", "79:78", "!14:12",
                    "15:15")));

    /** I2FP.F32.U32.RZ from an immediate and from a register: destination, source, S32 or U32 [74]. */
    static final List<Sample> I2FP_TOWARD_ZERO = List.of(
            new Sample("000fca000020d0000000000200007845", List.of("23:16", "63:32", "74:74", "!14:12", "15:15")),
            new Sample("004fca000020d0000000000200077245", List.of("23:16", "39:32", "74:74", "!14:12", "15:15")));

    /** @!P0 BRA.CONV UR4, 0x50: the guard and its negation, the uniform register (not URZ). */
    static final List<Sample> BRA_CONV = List.of(
            new Sample("001fea000b8000000000004304008947", List.of("!14:12", "15:15", "#29:24")));

    /** BMSK and SGXT with .W [75] (bmsk.wrap, szext.wrap), register or immediate b; SGXT's S32 or U32 [73]. */
    static final List<Sample> BIT_FIELDS = List.of(
            new Sample("004fca0000000800000000070007721b", List.of("23:16", "31:24", "39:32", "75:75")),
            new Sample("004fca0000000a00000000070007721a", List.of("23:16", "31:24", "39:32", "75:75", "73:73")),
            new Sample("000fe20000000000000000400505781b", List.of("23:16", "31:24", "63:32", "75:75")),
            new Sample("000fe20000000a00000000400505781a", List.of("23:16", "31:24", "63:32", "75:75", "73:73")));

    /** DSETP.EQ.AND P0, PT, R4, c[0x2][0x0], P0: comparison [79:76], boolean operation [75:74], a, the bank. */
    static final List<Sample> DSETP_CONSTANT = List.of(
            new Sample("0080640000702000008000000400762a", List.of("79:76", "~75:74", "31:24", "58:54", "!89:87",
                    "90:90")));

    /**
     * STS.U16 [R17+0x2040], R0: the size [75:73] (7 is INVALID), the address register (not RZ, which prints
     * an absolute address), the offset, the data register and the guard.
     */
    static final List<Sample> SHARED_STORE_SIZES = List.of(
            new Sample("004fe800000004000020400011007388", List.of("#75:73", "#31:24", "63:40", "39:32", "!14:12",
                    "15:15")));

    static final int VARIANTS = 24;

    /**
     * The SMs whose tables hold each group's forms (nvdisasm prints sm_75's BRA.CONV without a register).
     */
    static Stream<Arguments> groups() {
        List<String> all = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");
        Map<String, List<Sample>> groups = new LinkedHashMap<>();
        groups.put("BIT_FIELDS", BIT_FIELDS);
        groups.put("DSETP_CONSTANT", DSETP_CONSTANT);
        groups.put("I2F_IMMEDIATE", I2F_IMMEDIATE);
        groups.put("I2FP_TOWARD_ZERO", I2FP_TOWARD_ZERO);
        groups.put("BRA_CONV", BRA_CONV);
        groups.put("SHARED_STORE_SIZES", SHARED_STORE_SIZES);
        Map<String, List<String>> sms = Map.of("I2FP_TOWARD_ZERO", all.subList(2, 5), "BRA_CONV", all.subList(1, 4));
        List<Arguments> out = new ArrayList<>();
        groups.forEach((name, samples) -> {
            for (String sm : sms.getOrDefault(name, all)) {
                out.add(Arguments.of(sm, name, samples));
            }
        });
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("groups")
    void suiteWordsDecodeAsNvdisasmAndAssembleBack(String sm, String group, List<Sample> samples) {
        Oracles.assumeNvdisasm();
        List<long[]> words = VariedWords.of(samples, VARIANTS, new Random(2310));
        if (group.equals("BRA_CONV")) {
            // a branch's target is relative to its own address: one word at a time, each at address 0
            for (long[] w : words) {
                RawWordCheck.run(sm, List.of(w)).assertNoneWrong();
            }
            return;
        }
        RawWordCheck.run(sm, words).assertNoneWrong();
    }
}
