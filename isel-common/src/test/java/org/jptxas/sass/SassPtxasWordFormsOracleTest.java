package org.jptxas.sass;

import java.util.List;
import java.util.Random;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.sass.oracle.VariedWords;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Forms of words ptxas 13 writes that jptxas's decoder did not know (so the emulator stopped on ptxas's code), each
 * added from ptxas's word with its fields mapped by nvdisasm bit flips ({@code tools/sass-probe/field-enums.py}); the
 * comment above each sample names the form. Each of ptxas's words gets random values in every field (registers,
 * predicates, immediates, shift, guard, and the class's modifier enums) and must decode to exactly nvdisasm 12.5's
 * text and assemble back to itself.
 */
class SassPtxasWordFormsOracleTest {
    /** ptxas's word (hi, lo as nvdisasm prints them), the fields varied, the SMs it is on (null: all). */
    record Sample(String word, List<String> fields, List<String> sms) {}

    private static final String GUARD = "15:12";
    private static final List<String> ALL = null;
    private static final List<String> AMPERE_ON = List.of("sm_80", "sm_86", "sm_89", "sm_90");

    static final List<Sample> SAMPLES = List.of(
            // I2I: d, a, destination type
            new Sample("000fe400000010000000000600067238", List.of(GUARD, "23:16", "39:32", "77:76"), ALL),
            // LDGSTS with a read predicate that is not negated (ptxas's !P0 word with [90] cleared; jptxas reads
            // under a selp's own condition): shared address and offset, global address, predicate and its negation
            new Sample("000fe800081218440000000002057fae", List.of(GUARD, "23:16", "63:44", "31:24", "89:87", "90:90"),
                    AMPERE_ON),
            // FSET.BF with a register b: comparison, .FTZ, boolean operation, c and its negation
            new Sample("000fe20003804000000000060402720a", List.of(GUARD, "23:16", "31:24", "39:32", "89:87",
                    "90:90", "79:76", "~75:74"), ALL),
            new Sample("000fe20003814000000000060402720a", List.of(GUARD, "23:16", "31:24", "39:32", "89:87",
                    "90:90", "79:76", "~75:74"), ALL),
            // sm_90 generic ST.E / ATOM.E without a descriptor: address, offset (signed), value
            new Sample("001fe80000100904000000040a007385", List.of(GUARD, "31:24", "63:32", "71:64"), List.of("sm_90")),
            new Sample("000ee200001ee100000008040a0d738a", List.of(GUARD, "23:16", "31:24", "63:40", "39:32"),
                    List.of("sm_90")),
            // I2IP into 2- and 4-bit lanes: U2/S2 with c.28, U4/S4 with c.24 (sm_90: .SAT in [74])
            new Sample("000fc800000043020000000005007239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_75", "sm_80", "sm_86", "sm_89")),
            new Sample("000fc800000047020000000005007239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_90")),
            new Sample("000fc800000053020000000005007239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_75", "sm_80", "sm_86", "sm_89")),
            new Sample("000fc800000057020000000005007239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_90")),
            new Sample("000fc800000062020000000005007239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_75", "sm_80", "sm_86", "sm_89")),
            new Sample("000fc800000066020000000005007239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_90")),
            new Sample("000fc800000072020000000005007239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_75", "sm_80", "sm_86", "sm_89")),
            new Sample("000fc800000076020000000005007239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_90")),
            // LEA with an immediate b
            new Sample("000fe400000f0effffffffff04047811", List.of(GUARD, "23:16", "31:24", "63:32", "79:75",
                    "89:87"), ALL),
            new Sample("000fc600000fc4ff00007fff07077811", List.of("23:16", "31:24", "63:32", "71:64", "79:75",
                    "89:87"), ALL),
            new Sample("000fca00078f82ff0000001000077811", List.of(GUARD, "23:16", "31:24", "63:32", "79:75"), ALL),
            new Sample("000fe2000780c0ff000000ff00ff7811", List.of("23:16", "!83:81", "31:24", "63:32", "79:75"),
                    ALL),
            new Sample("000fe200078118ff12345678ff057811", List.of("23:16", "!83:81", "31:24", "63:32", "71:64",
                    "79:75"), ALL),
            // LEA with a negated register or uniform b, a negated a, .X alone
            new Sample("000fe400000f0eff8000000704077211", List.of(GUARD, "23:16", "31:24", "39:32", "79:75",
                    "89:87"), ALL),
            new Sample("000fe400078f80ff8000000504047211", List.of(GUARD, "23:16", "31:24", "39:32", "79:75"), ALL),
            new Sample("000fe400078f80ff8000000504047211", List.of("23:16", "31:24", "39:32", "71:64", "79:75"),
                    List.of("sm_75", "sm_80", "sm_86")),
            new Sample("002fd200078e79ff000000ff05097211", List.of("23:16", "31:24", "39:32", "79:75"), ALL),
            new Sample("008fc600000e44ff0000000700077211", List.of("23:16", "31:24", "39:32", "79:75", "89:87"), ALL),
            new Sample("000fc800080f0eff8000000500007c11", List.of("23:16", "31:24", "37:32", "79:75", "89:87"),
                    ALL),
            // ISETP .EX, immediate b: comparison, .U32, boolean operation and every predicate
            new Sample("000fc80003f02300555555550300780c", List.of("83:81", "86:84", "31:24", "63:32", "89:87",
                    "70:68", "78:76", "73:73", "~75:74"), List.of("sm_75", "sm_80", "sm_86", "sm_89")),
            // IMAD.X with an immediate c (sm_75 had no such form; the others knew only -0x1)
            new Sample("000fe200000e06ffffffffffff067424", List.of(GUARD, "23:16", "31:24", "63:32", "71:64",
                    "89:87"), ALL),
            // IDP with b from a constant bank or a uniform register, the signs [74:73] varied too
            new Sample("100fe200000000000080000004377a26", List.of(GUARD, "23:16", "31:24", "58:54", "53:40",
                    "71:64", "74:73"), ALL),
            new Sample("100fe200080000070000000600047c26", List.of(GUARD, "23:16", "31:24", "37:32", "71:64",
                    "74:73"), ALL),
            // R2UR P, UR, R
            new Sample("000e22000002000000000000063f73c2", List.of(GUARD, "!83:81", "21:16", "31:24"),
                    List.of("sm_80", "sm_86", "sm_89")),
            // DADD
            new Sample("000e2200000000000080000004047629", List.of("23:16", "31:24", "+58:54", "53:40"), ALL),
            new Sample("004e0e00000001000080000002067629", List.of(GUARD, "23:16", "31:24", "+58:54", "53:40"), ALL),
            new Sample("00405200000008060000000004067229", List.of(GUARD, "23:16", "31:24", "71:64"), ALL),
            new Sample("004e0e000000090200000000ff067229", List.of("23:16", "31:24", "71:64"), ALL),
            // HSETP2 .H0_H0: comparison, .FTZ, boolean operation and predicates
            new Sample("004fd20003f068002000000500007234", List.of(GUARD, "83:81", "86:84", "31:24", "39:32",
                    "89:87", "79:76", "80:80", "~70:69"), ALL),
            // HFMA2.BF16_V2 with c negated or |c|, whole or .H0_H0
            new Sample("004fca0000280902200000ffff077231", List.of("23:16", "31:24", "39:32", "71:64"), AMPERE_ON),
            new Sample("004fca00002c0902200000ffff007231", List.of("23:16", "31:24", "39:32", "71:64"), AMPERE_ON),
            new Sample("004fca0000300902200000ffff077231", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    AMPERE_ON),
            new Sample("004fca0000340902200000ffff037231", List.of("23:16", "31:24", "39:32", "71:64"), AMPERE_ON),
            // F2FP with round-toward-zero [80:79], RELU [75] and BF16 [76] (cvt.rz[.relu].{f16,bf16}{x2}.f32)
            new Sample("000fea00000180ff000000030201723e", List.of(GUARD, "23:16", "31:24", "39:32", "75:75", "76:76"), AMPERE_ON),
            // HFMA2 with .SAT [77] and .FTZ [80] (fma.rn{.ftz}{.sat}.f16), every register
            new Sample("000fea00000120040000000302017231", List.of(GUARD, "23:16", "31:24", "39:32", "71:64",
                    "77:77", "80:80"), ALL),
            // HMMA.1684.F32.TF32 with a reused a, b or both (the wmma tf32 chains)
            new Sample("048fe80000085008000000191608723c", List.of("23:16", "31:24", "39:32", "71:64"), AMPERE_ON),
            new Sample("088fe80000085008000000191608723c", List.of("23:16", "31:24", "39:32", "71:64"), AMPERE_ON),
            new Sample("0c8fe80000085008000000191608723c", List.of("23:16", "31:24", "39:32", "71:64"), AMPERE_ON),
            // IADD3 with an immediate: -a with a carry-out (and a's reuse flag), -c with two carry-outs, IADD3.X with a
            // carry-out, carry-ins and !Pd (a inverted or not), IADD3.X with ~c and no carry-out
            new Sample("000fc80007f1e1ff0000003f04067810", List.of(GUARD, "23:16", "!83:81", "31:24", "63:32",
                    "71:64"), ALL),
            new Sample("040fe40007f3e1ffffff800004087810", List.of("23:16", "!83:81", "31:24", "63:32", "71:64"),
                    ALL),
            new Sample("000fe4000791e8102f76b2a3100c7810", List.of(GUARD, "23:16", "!83:81", "!86:84", "31:24",
                    "63:32", "71:64"), ALL),
            new Sample("000fe2000071e4ff8000000000ff7810", List.of(GUARD, "23:16", "!83:81", "31:24", "63:32",
                    "71:64", "89:87", "79:77", "72:72"), ALL),
            new Sample("000fca00007e2c117549dbef110b7810", List.of(GUARD, "23:16", "31:24", "63:32", "71:64",
                    "89:87", "79:77"), ALL),
            // FADD with an f32 immediate: .FTZ, rounding, .SAT and -a composed; |a| and -|a| with any immediate
            // (the immediate's mantissa only: nvdisasm prints every NaN payload as QNAN)
            new Sample("000fe2000000c000c2bab4051b087421", List.of(GUARD, "23:16", "31:24", "54:32", "80:80",
                    "79:78", "77:77", "72:72"), ALL),
            new Sample("000fe2000000030040e0000026267421", List.of(GUARD, "23:16", "31:24", "54:32", "80:80",
                    "79:78"), ALL),
            new Sample("000fe2000000020040e0000026267421", List.of("23:16", "31:24", "54:32", "80:80"), ALL),
            // HADD2 with a's halves (.H0_H0/.H1_H1), -a or |a|, and -b.H0_H0 (ptxas's f16 abs/neg); .FTZ and .SAT
            new Sample("004fca0000000900a00000ff02037230", List.of(GUARD, "23:16", "31:24", "39:32", "80:80",
                    "77:77"), ALL),
            new Sample("004fca0000000a00a00000ff02037230", List.of(GUARD, "23:16", "31:24", "39:32", "80:80"), ALL),
            new Sample("004fca0000000200a00000ff02077230", List.of("23:16", "31:24", "39:32", "80:80"), ALL),
            new Sample("022fca0000000000200000080b097230", List.of("23:16", "31:24", "39:32", "80:80"), ALL),
            new Sample("000fc60000000d00a00000ff02037230", List.of("23:16", "31:24", "39:32", "80:80"), ALL),
            new Sample("000fc60000000e00a00000ff02037230", List.of("23:16", "31:24", "39:32", "80:80"), ALL),
            new Sample("044fe40000000900a00000ff02007230", List.of("23:16", "31:24", "39:32"), ALL),
            new Sample("044fe40000010900a00000ff02007230", List.of("23:16", "31:24", "39:32"), ALL),
            new Sample("044fe40000010a00a00000ff02007230", List.of("23:16", "31:24", "39:32"), ALL),
            // F2FP: .SATFINITE x .RELU x .BF16 on PACK_AB and MERGE_C (and with .RZ)
            new Sample("004fca00000030ff000000070007723e", List.of(GUARD, "23:16", "31:24", "39:32", "77:77",
                    "76:76", "75:75"), AMPERE_ON),
            new Sample("004fca00000058ff00000002ff00723e", List.of(GUARD, "23:16", "39:32", "71:64", "77:77",
                    "76:76", "75:75"), AMPERE_ON),
            new Sample("004fca000001f0ff00000002ff00723e", List.of("23:16", "39:32", "71:64", "77:77", "76:76",
                    "75:75"), AMPERE_ON),
            // 32-bit generic LD/ST with an offset, guarded or not; composed sizes and .MMIO.SYS (a is never RZ:
            // nvdisasm prints [RZ+offset] as an absolute address, a form the tables do not have)
            new Sample("000ea40000100b000000004004067980", List.of(GUARD, "23:16", "#31:24", "39:32", "+63:40"), AMPERE_ON),
            new Sample("000ea20000118b000000004004047980", List.of(GUARD, "23:16", "#31:24", "39:32", "+63:40"), AMPERE_ON),
            new Sample("0001e40000100b080000004004007385", List.of(GUARD, "#31:24", "39:32", "+63:40", "71:64"), AMPERE_ON),
            new Sample("004fe80000118d080000004006007385", List.of(GUARD, "#31:24", "39:32", "+63:40", "71:64"), AMPERE_ON),
            // IADD3 with a uniform b: -a with a carry-out; IADD3.X ~a
            new Sample("000fc6000ff3e1ff00000004080f7c10", List.of(GUARD, "23:16", "!83:81", "31:24", "37:32",
                    "71:64"), ALL),
            new Sample("000fe40008ffe5ff000000050b0d7c10", List.of(GUARD, "23:16", "31:24", "37:32", "71:64",
                    "89:87", "79:77"), ALL),
            // ATOMS with a .X16-scaled address: ADD (and .64), ADD.S32, CAS, CAST.SPIN
            new Sample("004e28000000c000002040001107738c", List.of(GUARD, "23:16", "31:24", "+63:40", "39:32",
                    "74:74"), ALL),
            new Sample("004e28000000c200002040001107738c", List.of(GUARD, "23:16", "31:24", "+63:40", "39:32"), ALL),
            new Sample("008e28000000c00d0020400c0f0d738d", List.of(GUARD, "23:16", "31:24", "+63:40", "39:32",
                    "71:64"), ALL),
            new Sample("000e24000180c003002040020703738d", List.of(GUARD, "23:16", "31:24", "+63:40", "39:32",
                    "71:64"), ALL),
            // LOP3.LUT with a predicate result and a plain or negated predicate operand, .PAND or not
            new Sample("008fca000000c1060000000500077212", List.of(GUARD, "!83:81", "23:16", "31:24", "39:32",
                    "71:64", "79:72", "89:87", "80:80"), ALL),
            new Sample("008fca0004011d060000000500077212", List.of(GUARD, "!83:81", "23:16", "31:24", "39:32",
                    "71:64", "79:72", "89:87"), ALL),
            new Sample("008fca00040f1d060000000500077212", List.of("23:16", "31:24", "39:32", "71:64", "79:72",
                    "89:87"), ALL),
            // PLOP3 on registers' sign bits: both results, three registers, both lookup tables
            new Sample("000fe40000700200000000060700721f", List.of(GUARD, "83:81", "86:84", "31:24", "39:32",
                    "71:64", "79:72", "23:16"), ALL),
            // UIMAD.WIDE.U32 with an immediate and a carry-out, .X with a carry-in
            new Sample("000fe2000f80003f80000000040478a5", List.of(GUARD, "21:16", "!83:81", "29:24", "63:32",
                    "69:64"), ALL),
            new Sample("000fc800080e040680000000080478a5", List.of(GUARD, "21:16", "29:24", "63:32", "69:64",
                    "89:87"), ALL),
            // LOP3.LUT with an immediate b and a reused c (sm_75's wmma address arithmetic)
            new Sample("100fe400078efe0c000000040d297812", List.of("23:16", "31:24", "63:32", "71:64", "79:72"),
                    List.of("sm_75")),
            // F2FP .SATFINITE [77] with RELU [75], BF16 [76], round-toward-zero (cvt.{rn,rz}{.relu}.satfinite.*.f32)
            new Sample("004fca00000030ff000000050005723e", List.of(GUARD, "23:16", "31:24", "39:32", "75:75", "76:76"),
                    AMPERE_ON),
            new Sample("004fca000001a8ff000000050005723e", List.of(GUARD, "23:16", "31:24", "39:32", "75:75", "76:76"),
                    AMPERE_ON),
            // F2F.F16.F32 rounding down and up (cvt.rm/rp.f16.f32)
            new Sample("004fe200002048000000000000047304", List.of(GUARD, "23:16", "39:32"), ALL),
            new Sample("000e2400002088000000000000057304", List.of(GUARD, "23:16", "39:32"), ALL),
            // MUFU.TANH/EX2 of one 16-bit lane: .F16 [73] before sm_90; there [73] is .BF16 and [72] .F16
            new Sample("004ff000000026000000000000047308", List.of(GUARD, "23:16", "39:32"), ALL),
            new Sample("000ff00000000a000000000000067308", List.of(GUARD, "23:16", "39:32"), ALL),
            new Sample("004ff000000025000000000000047308", List.of(GUARD, "23:16", "39:32"), List.of("sm_90")),
            new Sample("000ff000000009000000000000067308", List.of(GUARD, "23:16", "39:32"), List.of("sm_90")),
            // FRND.BF16 and its integral roundings [79:78] (sm_90 cvt.r*i.bf16.bf16)
            new Sample("004ff000004020000000000000047307", List.of(GUARD, "23:16", "39:32", "79:78"),
                    List.of("sm_90")),
            // F2F.F16.F64 with a register source and the class's rounding [79:78]
            new Sample("000fe200003008000000000400027310", List.of(GUARD, "23:16", "39:32", "79:78"), ALL),
            // STL.U16 with its offset [63:40]
            new Sample("000fe40000100400000000020b007387", List.of(GUARD, "31:24", "63:40", "39:32"), ALL),
            // LDC.U8 from c[bank][Ra+off] (the index stays R0: with RZ the learned c[bank][offset] form applies, whose
            // offset prints unsigned where nvdisasm prints a negative one)
            new Sample("000124000000000000c0004000087b82", List.of(GUARD, "23:16", "58:54", "53:38"), ALL),
            // BAR.SYNC with an immediate barrier [57:54] and a register count
            new Sample("000fec000000000000c0000b0000791d", List.of(GUARD, "57:54", "39:32"),
                    List.of("sm_75", "sm_80", "sm_86", "sm_89")),
            // fp8 PACK_AB_MERGE_C (format [76], .RELU [75]) and UNPACK_B (format [73], .RELU [75])
            new Sample("000fe400048068ff000000010104723e", List.of(GUARD, "23:16", "31:24", "39:32", "71:64", "76:76",
                    "75:75"), List.of("sm_89", "sm_90")),
            new Sample("000fe40002000cff00000004ff05723e", List.of(GUARD, "23:16", "39:32", "73:73", "75:75"),
                    List.of("sm_89", "sm_90")),
            // I2IP.S2 with all three reuse flags, as ptxas writes it
            new Sample("1d0fe400000053060000000807097239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_75", "sm_80", "sm_86", "sm_89")),
            new Sample("1d0fe400000057060000000807097239", List.of(GUARD, "23:16", "31:24", "39:32", "71:64"),
                    List.of("sm_90")),
            // sm_90 ATOM/ATOMG adds through a descriptor: f16x2 (GPU), bf16x2 (SM), f32.FTZ (SM), f64 (SYS); ptxas's
            // words and the scopes it writes for f32
            new Sample("002362000810e1c600000009020079a2", List.of(GUARD, "83:81", "23:16", "69:64", "31:24", "63:40",
                    "39:32"), List.of("sm_90")),
            new Sample("000fe2000810a7c600000009020179a3", List.of(GUARD, "83:81", "23:16", "69:64", "31:24", "63:40",
                    "39:32"), List.of("sm_90")),
            new Sample("000762000810b3c600001801040879a2", List.of(GUARD, "83:81", "23:16", "69:64", "31:24", "63:40",
                    "39:32"), List.of("sm_90")),
            new Sample("000fe20008115fc600000008020479a2", List.of(GUARD, "83:81", "23:16", "69:64", "31:24", "63:40",
                    "39:32"), List.of("sm_90")),
            // random differential programs: PRMT with an immediate c (a, b, c)
            new Sample("000fc800000000120000000e03037416", List.of(GUARD, "23:16", "31:24", "71:64", "63:32"), ALL),
            // IMAD.HI.U32 with a carry-out and an immediate (signed) or uniform b
            new Sample("000fca000780000a0000002d05057827", List.of(GUARD, "23:16", "83:81", "31:24", "63:32", "71:64"),
                    ALL),
            new Sample("000fc8000f800006000000050b067c27", List.of(GUARD, "23:16", "83:81", "31:24", "37:32", "71:64"),
                    ALL),
            // FCHK with a float immediate and -a; with registers and |a|
            new Sample("004e2200000000004373722900007902", List.of(GUARD, "83:81", "31:24", "72:72"), ALL),
            new Sample("000ea20000000200000000030c007302", List.of(GUARD, "83:81", "31:24", "39:32"), ALL),
            // MUFU.RCP64H / RSQ64H ([74]) with a double immediate's high word or a uniform source
            new Sample("000e220000001800410acde300077908", List.of(GUARD, "23:16", "63:32", "74:74"), ALL),
            new Sample("000e220008001c000000002700057d08", List.of(GUARD, "23:16", "37:32", "74:74"), ALL),
            // BREAK with a predicate and its negation, the barrier
            new Sample("000fe200050000000000000000028942", List.of(GUARD, "90:90", "19:16"), ALL),
            // IMNMX.U32 with an immediate (signed) and !P
            new Sample("000fe400078000000000000313137817", List.of(GUARD, "23:16", "31:24", "63:32", "89:87"), ALL),
            // I2F from a constant bank (bank, offset, rounding) and from an immediate (unsigned, signed)
            new Sample("000e30000030900000800a0000007b12", List.of(GUARD, "23:16", "53:40", "79:78"), ALL),
            new Sample("000e6200002018000000002c00027912", List.of(GUARD, "23:16", "63:32"), ALL),
            new Sample("000ea20000201c008153364c000e7912", List.of(GUARD, "23:16", "63:32"), ALL));

    /** Variants per sample; the first is ptxas's word itself. */
    static final int VARIANTS = 24;

    /** The words of one SM; the fields' prefixes are {@link VariedWords}'. */
    static List<long[]> words(String sm) {
        List<VariedWords.Sample> own = SAMPLES.stream().filter(s -> s.sms() == null || s.sms().contains(sm))
                .map(s -> new VariedWords.Sample(s.word(), s.fields())).toList();
        return VariedWords.of(own, VARIANTS, new Random(20));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void ptxasWordsWithEveryFieldVariedDecodeAsNvdisasmAndAssembleBack(String sm) {
        Oracles.assumeNvdisasm();
        RawWordCheck.run(sm, words(sm)).assertNoneWrong();
    }
}
