package org.jptxas.sass;

import java.util.List;
import java.util.Random;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.sass.oracle.VariedWords;
import org.jptxas.sass.oracle.VariedWords.Sample;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Test;

/**
 * The sm_90 forms of Hopper's asynchronous copies and barriers (probe kernel {@code tma_forms_sm90a.ptx}: SYNCS
 * mbarrier operations on {@code [UR+off]} and {@code [R+URZ+off]}, NANOSLEEP.SYNCS, UBLKCP, UBLKPF, UTMALDG/UTMASTG
 * 1D..5D, UTMACCTL.PF, STSM, R2UR with its match predicate, BRA.U.ANY, LDS {@code [R+UR+off]}): ptxas 13's word of
 * each, and the same word with every operand field set to random values, decode to nvdisasm 12.5's text and
 * assemble back to the same bits. Also ULEA with an immediate b (the learned form had the literal 0x10), which ptxas
 * writes in the suite kernel bulk_copy_mbarrier. Probe kernel {@code bulk_reduce_forms_sm90a.ptx}: UTMAPF.L2.1D..5D,
 * UBLKRED.G.S and UBLKRED.S.S of every operation and type jptxas writes, UTMAREDG.1D..5D with every operation.
 * Three forms were written by hand from their twins (SYNCS.ARRIVE.TRANS64.ART0
 * without an offset, .RED.A0TR and .RED.A0TX with one); their words are ptxas's with the offset cleared or varied.
 * The remote arrivals ({@code .RED} with .A1T0, .ART0 or none: one arrival and Rb bytes expected) on {@code [UR]},
 * {@code [UR+off]}, {@code [R+URZ]} and {@code [R+URZ+off]} were written the same way from ptxas's words of
 * {@code mbarrier.arrive[.expect_tx].release.cluster.shared::cluster}.
 */
class SassHopperAsyncFormsOracleTest {
    /**
     * ptxas's word (hi, lo as nvdisasm prints them) and the fields varied ({@code !}: a predicate never PT; {@code #}:
     * an address register never RZ, which nvdisasm leaves out of the address (STSM, SYNCS [R+URZ]) and jptxas never
     * writes there).
     * BRA.U.ANY (decoded, never written by jptxas) is left out: its target is relative to an address a raw word lacks.
     */

    static final List<Sample> SAMPLES = List.of(
            // ULEA UR5, UR4, 0x100, 0x8 (ptxas 13, the suite kernel bulk_copy_mbarrier): an immediate b
            new Sample("000fe2000f8e403f0000010004057891", List.of("21:16", "29:24", "63:32", "79:75")),
            // LDS R0, [UR4+0x8]
            new Sample("000e22000800080000000804ff007984", List.of("23:16", "31:24", "37:32", "63:40")),
            // STSM.16.M88 [R0], R8
            new Sample("000fe200000000000000000800007844", List.of("#31:24", "39:32")),
            // STSM.16.M88.2 [R0+0x200], R8
            new Sample("000fe800000001000002000800007844", List.of("#31:24", "63:40", "39:32")),
            // STSM.16.M88.4 [R0+0x400], R8
            new Sample("000fe800000002000004000800007844", List.of("#31:24", "63:40", "39:32")),
            // STSM.16.MT88 [R0+0x10], R9
            new Sample("000fe800000040000000100900007844", List.of("#31:24", "63:40", "39:32")),
            // STSM.16.MT88.2 [R0+0x20], R6
            new Sample("000fe800000041000000200600007844", List.of("#31:24", "63:40", "39:32")),
            // STSM.16.MT88.4 [R0+0x30], R12
            new Sample("000fe200000042000000300c00007844", List.of("#31:24", "63:40", "39:32")),
            // UBLKCP.S.G [UR4], [UR8], UR6
            new Sample("0003d8000800020600000004080073ba", List.of("37:32", "29:24", "69:64")),
            // UBLKCP.S.G.MULTICAST [UR4], [UR10], UR6 (cp.async.bulk ... .multicast::cluster: URn's high half the
            // cluster ranks)
            new Sample("0001d80008000a06000000040a0073ba", List.of("37:32", "29:24", "69:64")),
            // UBLKCP.G.S [UR12], [UR4], UR17
            new Sample("0003e200080004110000000c040073ba", List.of("37:32", "29:24", "69:64")),
            // UBLKPF.L2 [UR8], UR18
            new Sample("0003ea000800001200000000080073bc", List.of("29:24", "69:64")),
            // UTMALDG.1D [UR4], [UR22]
            new Sample("0003d8000800000000000004160075b4", List.of("37:32", "29:24")),
            // UTMALDG.2D [UR4], [UR22]
            new Sample("0003f4000800800000000004160075b4", List.of("37:32", "29:24")),
            // UTMALDG.3D [UR8], [UR22]
            new Sample("0003ec000801000000000008160075b4", List.of("37:32", "29:24")),
            // UTMALDG.4D [UR8], [UR22]
            new Sample("0003ea000801800000000008160075b4", List.of("37:32", "29:24")),
            // UTMALDG.5D [UR8], [UR22]
            new Sample("0003e8000802000000000008160075b4", List.of("37:32", "29:24")),
            // UTMASTG.1D [UR10], [UR22]
            new Sample("0003e200080000000000000a160073b5", List.of("37:32", "29:24")),
            // UTMASTG.2D [UR24], [UR22]
            new Sample("0005e2000800800000000018160073b5", List.of("37:32", "29:24")),
            // UTMASTG.3D [UR28], [UR22]
            new Sample("0005e200080100000000001c160073b5", List.of("37:32", "29:24")),
            // UTMASTG.4D [UR16], [UR22]
            new Sample("0005e2000801800000000010160073b5", List.of("37:32", "29:24")),
            // UTMASTG.5D [UR8], [UR22]
            new Sample("0005e2000802000000000008160073b5", List.of("37:32", "29:24")),
            // tensor prefetch, bulk and tensor reductions (probe kernel bulk_reduce_forms_sm90a.ptx):
            // UTMAPF.L2.1D..5D [UR8], [UR4]
            new Sample("0001e2000800000000000008040075b8", List.of("37:32", "29:24")),
            new Sample("0001e2000800800000000008040075b8", List.of("37:32", "29:24")),
            new Sample("0001e2000801000000000008040075b8", List.of("37:32", "29:24")),
            new Sample("0001e2000801800000000008040075b8", List.of("37:32", "29:24")),
            new Sample("0001e4000802000000000008040075b8", List.of("37:32", "29:24")),
            // UBLKRED.G.S.{ADD, ADD.S32, ADD.U64, MIN, MIN.S32, MAX, MAX.S32, MIN.U64, MIN.S64, MAX.U64, MAX.S64, INC,
            // DEC, AND, OR, XOR, AND.U64, OR.U64, XOR.U64, ADD.F32.RN, ADD.F64.RN} [UR6], [UR4], UR5
            new Sample("0003d8000800040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000802040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000804040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000880040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000882040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000900040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000902040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000884040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000886040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000904040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000906040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000980040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000a00040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000a80040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000b00040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000b80040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000a84040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000b04040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000b84040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d800080a040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d800080e040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            // UBLKRED.G.S.{ADD.F16.RN, ADD.BF16.RN, MIN.F16.RN, MIN.BF16.RN, MAX.F16.RN, MAX.BF16.RN} [UR6], [UR4], UR5
            new Sample("0003d8000808040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000810040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000888040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000890040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000908040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0003d8000910040500000006040073bb", List.of("37:32", "29:24", "69:64")),
            // UBLKRED.S.S.{ADD, ADD.S32, ADD.U64, MIN, MIN.S32, MAX, MAX.S32, INC, DEC, AND, OR, XOR} [UR8], [UR7], UR5
            new Sample("0001d8000800060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000802060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000804060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000880060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000882060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000900060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000902060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000980060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000a00060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000a80060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000b00060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            new Sample("0001d8000b80060600000008070073bb", List.of("37:32", "29:24", "69:64")),
            // UTMAREDG.{1D.ADD, 2D.MIN, 3D.MAX, 4D.INC, 5D.DEC, 1D.AND, 1D.OR, 1D.XOR} [UR8], [UR4]
            new Sample("0003d8000800000000000008040073b6", List.of("37:32", "29:24")),
            new Sample("0003d8000880800000000008040073b6", List.of("37:32", "29:24")),
            new Sample("0003d8000901000000000008040073b6", List.of("37:32", "29:24")),
            new Sample("0003d8000981800000000008040073b6", List.of("37:32", "29:24")),
            new Sample("0003d8000a02000000000008040073b6", List.of("37:32", "29:24")),
            new Sample("0003d8000a80000000000008040073b6", List.of("37:32", "29:24")),
            new Sample("0003d8000b00000000000008040073b6", List.of("37:32", "29:24")),
            new Sample("0003d8000b80000000000008040073b6", List.of("37:32", "29:24")),
            // UTMACCTL.PF [URZ]
            new Sample("000fe20008040000000000003f0079b9", List.of("29:24")),
            // @P1 R2UR P0, UR9, R7
            new Sample("001fd0000000000000000000070912ca", List.of("!14:12", "!83:81", "21:16", "31:24")),
            // SYNCS.ARRIVE.TRANS64.A1T0 R2, [R7+URZ], RZ
            new Sample("002e62000810003f000000ff070279a7", List.of("23:16", "#31:24", "69:64", "39:32")),
            // SYNCS.ARRIVE.TRANS64 R4, [R7+URZ], R4
            new Sample("000ea2000800003f00000004070479a7", List.of("23:16", "#31:24", "69:64", "39:32")),
            // SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R9+URZ], R11
            new Sample("0004e8000800017f0000000b090075a7", List.of("83:81", "#31:24", "69:64", "39:32")),
            // SYNCS.PHASECHK.TRANS64 P1, [R7+URZ], R3
            new Sample("002324000802007f00000003070075a7", List.of("83:81", "#31:24", "69:64", "39:32")),
            // SYNCS.CCTL.IV [R7+URZ]
            new Sample("000fe6000800003f00000000070079b1", List.of("#31:24", "69:64")),
            // SYNCS.ARRIVE.TRANS64.ART0 R4, [UR6+0x8], R4
            new Sample("000e62000850000600000804ff0479a7", List.of("23:16", "69:64", "39:32")),
            // SYNCS.ARRIVE.TRANS64 R2, [UR6], R2
            new Sample("000ea2000800000600000002ff0279a7", List.of("23:16", "69:64", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [UR6], R0
            new Sample("0009e2000830040600000000ffff79a7", List.of("23:16", "69:64", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [UR6], R0
            new Sample("0009e2000840040600000000ffff79a7", List.of("23:16", "69:64", "39:32")),
            // SYNCS.PHASECHK.TRANS64 P0, [UR6], R9
            new Sample("001822000800004600000009ff0075a7", List.of("83:81", "69:64", "39:32")),
            // @!P3 NANOSLEEP.SYNCS 0x3e8
            new Sample("001fea0003900000000003e80000b95d", List.of("!14:12")),
            // @!P0 SYNCS.PHASECHK.TRANS64 P0, [R9+URZ], R11
            new Sample("000ee2000800007f0000000b090085a7", List.of("!14:12", "83:81", "#31:24", "69:64", "39:32")),
            // SYNCS.CCTL.IV [UR6]
            new Sample("000e68000800000600000000ff0079b1", List.of("69:64")),
            // SYNCS.ARRIVE.TRANS64.ART0 R2, [R9+URZ+0x8], R0
            new Sample("000e22000850003f00000800090279a7", List.of("23:16", "#31:24", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.A1T0 R4, [R9+URZ+0x10], RZ
            new Sample("000e62000810003f000010ff090479a7", List.of("23:16", "#31:24", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [R9+URZ], R0
            new Sample("0005e4000830043f0000000009ff79a7", List.of("23:16", "#31:24", "69:64", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [R9+URZ], R10
            new Sample("0005e2000840043f0000000a09ff79a7", List.of("23:16", "#31:24", "69:64", "39:32")),
            // SYNCS.ARRIVE.TRANS64 RZ, [R9+URZ+0x18], R10
            new Sample("0005e2000800003f0000180a09ff79a7", List.of("23:16", "#31:24", "69:64", "63:40", "39:32")),
            // @!P0 NANOSLEEP.SYNCS R10
            new Sample("008fea00039000000000000a0000835d", List.of("!14:12", "39:32")),
            // SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R9+URZ], R11
            new Sample("0004e8000800017f0000000b090075a7", List.of("83:81", "#31:24", "69:64", "63:40", "39:32")),
            // SYNCS.PHASECHK.TRANS64 P2, [R9+URZ+0x28], R0
            new Sample("000962000804007f00002800090075a7", List.of("83:81", "#31:24", "69:64", "63:40", "39:32")),
            // SYNCS.CCTL.IV [R9+URZ+0x8]
            new Sample("000fe4000800003f00000800090079b1", List.of("#31:24", "69:64")),
            // SYNCS.ARRIVE.TRANS64.ART0 R2, [R9+URZ], R0 (ptxas's [R9+URZ+0x8] with the offset cleared)
            new Sample("000e22000850003f00000000090279a7", List.of("23:16", "#31:24", "69:64", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [R9+URZ], R0
            new Sample("0005e4000830043f0000000009ff79a7", List.of("23:16", "#31:24", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64 RZ, [UR9+0x8], R4 and @!P0 SYNCS.ARRIVE.TRANS64 RZ, [UR13], R4: no register base
            new Sample("0005e2000800000900000804ffff79a7", List.of("23:16", "69:64", "63:40", "39:32")),
            new Sample("0005f0000800000d00000004ffff89a7", List.of("!14:12", "23:16", "69:64", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [R9+URZ], R10
            new Sample("0005e2000840043f0000000a09ff79a7", List.of("23:16", "#31:24", "69:64", "63:40", "39:32")),
            // remote arrivals: ptxas 13 on mbarrier.arrive{.expect_tx}.release.cluster.shared::cluster [a], n:
            // SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR4], RZ
            new Sample("000fe20008100404000000ffffff79a7", List.of("23:16", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.ART0 RZ, [UR4], R2
            new Sample("000fe2000850040400000002ffff79a7", List.of("23:16", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED RZ, [UR4], R3
            new Sample("000fe2000800040400000003ffff79a7", List.of("23:16", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.ART0 RZ, [UR4+0x8], R0
            new Sample("000fe2000850040400000800ffff79a7", List.of("23:16", "69:64", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [R2+URZ], RZ
            new Sample("000fe2000810043f000000ff02ff79a7", List.of("23:16", "#31:24", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.ART0 RZ, [R2+URZ+0x10], R5
            new Sample("000fe2000850043f0000100502ff79a7", List.of("23:16", "#31:24", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED RZ, [R2+URZ+0x8], R5
            new Sample("000fe2000800043f0000080502ff79a7", List.of("23:16", "#31:24", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.A0TR/.A0TX RZ, [UR6], R0 with an offset (mbarrier.expect_tx/complete_tx [a+off])
            new Sample("0009e2000830040600000000ffff79a7", List.of("23:16", "69:64", "63:40", "39:32")),
            new Sample("0009e2000840040600000000ffff79a7", List.of("23:16", "69:64", "63:40", "39:32")),
            // guarded (the suite kernel cluster_remote_mbarrier): @!P0 SYNCS.ARRIVE.TRANS64.RED RZ, [UR4], R0,
            // @!P0 ....RED.A0TX RZ, [UR4], R0, @!P0 ....RED.A1T0 RZ, [UR4], RZ; the guard and its sense varied, and
            // the same words on [R+URZ]
            new Sample("0001e2000800040400000000ffff89a7", List.of("!14:12", "15:15", "23:16", "69:64", "63:40",
                    "39:32")),
            new Sample("0001e2000840040400000000ffff89a7", List.of("!14:12", "15:15", "23:16", "69:64", "63:40",
                    "39:32")),
            new Sample("000fe20008100404000000ffffff89a7", List.of("!14:12", "15:15", "23:16", "69:64", "63:40",
                    "39:32")),
            new Sample("0001e2000800043f0000000002ff89a7", List.of("!14:12", "15:15", "23:16", "#31:24", "69:64",
                    "63:40", "39:32")),
            new Sample("0001e2000850043f0000000002ff89a7", List.of("!14:12", "15:15", "23:16", "#31:24", "69:64",
                    "63:40", "39:32")),
            new Sample("0001e2000830043f0000000002ff89a7", List.of("!14:12", "15:15", "23:16", "#31:24", "69:64",
                    "63:40", "39:32")),
            new Sample("000fe2000810043f000000ff02ff89a7", List.of("!14:12", "15:15", "23:16", "#31:24", "69:64",
                    "63:40", "39:32")),
            // st.async / red.async (ptxas 13: STAS [Ra.64], Rb with Ra the data's and Ra+1 the barrier's shared::cluster
            // address; REDAS.op.type likewise); the other REDAS operations and types written from REDAS.ADD's word
            // STAS [R4.64], R0
            new Sample("000fe2000c00083f0000000004007dbd", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe2000c00083f0000000004007dbd", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // STAS.64 [R6.64], R2
            new Sample("000fe2000c000a3f0000000206007dbd", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe2000c000a3f0000000206007dbd", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // STAS.128 [R10.64], R0
            new Sample("000fe2000c000c3f000000000a007dbd", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe2000c000c3f000000000a007dbd", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.ADD [R4.64], R0
            new Sample("000fe8000800013f0000000004007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000800013f0000000004007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.MIN.S32 [R14.64], R0
            new Sample("000fe8000880033f000000000e007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000880033f000000000e007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.INC [R16.64], R0
            new Sample("000fe8000980013f0000000010007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000980013f0000000010007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.AND [R18.64], R0
            new Sample("000fe8000a80013f0000000012007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000a80013f0000000012007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.ADD.64 [R20.64], R2
            new Sample("000fe2000800053f0000000214007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe2000800053f0000000214007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.ADD.S32 [R4.64], R0
            new Sample("000fe8000800033f0000000004007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000800033f0000000004007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.MIN [R4.64], R0
            new Sample("000fe8000880013f0000000004007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000880013f0000000004007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.MAX [R4.64], R0
            new Sample("000fe8000900013f0000000004007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000900013f0000000004007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.MAX.S32 [R4.64], R0
            new Sample("000fe8000900033f0000000004007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000900033f0000000004007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.DEC [R4.64], R0
            new Sample("000fe8000a00013f0000000004007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000a00013f0000000004007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.OR [R4.64], R0
            new Sample("000fe8000b00013f0000000004007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000b00013f0000000004007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // REDAS.XOR [R4.64], R0
            new Sample("000fe8000b80013f0000000004007dbe", List.of("#31:24", "63:40", "39:32")),
            new Sample("000fe8000b80013f0000000004007dbe", List.of("!14:12", "15:15", "#31:24", "63:40", "39:32")),
            // probe kernel async_gap_forms_sm90a.ptx (forms written from these words: the A1T0/ART0/A0TR twins with
            // OPTOUT bit 75, TMASK bit 73, mode 2 for A0T1; ARRIVES new): FENCE.VIEW.ASYNC.G
            new Sample("000fe2000000010000000000000073c6", List.of()),
            // SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0 R10, [UR7], RZ (mbarrier.arrive_drop)
            new Sample("000ea20008100807000000ffff0a79a7", List.of("23:16", "69:64", "63:40")),
            // SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0 R4, [R0+URZ], RZ
            new Sample("000e22000810083f000000ff000479a7", List.of("23:16", "#31:24", "63:40")),
            // SYNCS.ARRIVE.TRANS64.OPTOUT.ART0 R6, [R0+URZ+0x10], R11 (arrive_drop with a count)
            new Sample("000e22000850083f0000100b000679a7", List.of("23:16", "#31:24", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.OPTOUT.ART0 RZ, [UR7+0x10], R11
            new Sample("000fe200085008070000100bffff79a7", List.of("23:16", "69:64", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.TMASK.OPTOUT.ART0 R8, [R0+URZ], R15 (arrive_drop.noComplete, its state used)
            new Sample("000e640008500a3f0000000f000879a7", List.of("23:16", "#31:24", "63:40", "39:32")),
            // SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [UR7+0x8], RZ (cp.async.mbarrier.arrive); @!P1 ... [UR5]
            new Sample("000fe20008200407000008ffffff79a7", List.of("69:64", "63:40")),
            new Sample("000fe20008200405000000ffffff99a7", List.of("!14:12", "15:15", "69:64", "63:40")),
            // ARRIVES.LDGSTSBAR.64.TRANSCNT [UR7]; ARRIVES.LDGSTSBAR.64.ARVCNT [UR7+0x8] (.noinc); guarded ones
            new Sample("000fe20008000a8700000000ff0079b0", List.of("69:64", "63:40")),
            new Sample("000fe20008000a4700000800ff0079b0", List.of("69:64", "63:40")),
            new Sample("000fee0008000a8500000000ff0099b0", List.of("!14:12", "15:15", "69:64", "63:40")),
            new Sample("000fe20008000a4500001000ff0089b0", List.of("!14:12", "15:15", "69:64", "63:40")),
            // LDGSTS.E [R5], desc[UR4][R2.64], P0 (cp.async ignore-src: the read predicate); .E.64 and .BYPASS.128
            // with an offset
            new Sample("004fe800081218440000000002057fae", List.of("23:16", "69:64", "#31:24", "!89:87")),
            new Sample("000fe80008921a440001001002057fae", List.of("23:16", "69:64", "#31:24", "!89:87")),
            new Sample("000fe80008901c440003003002057fae", List.of("23:16", "69:64", "#31:24", "!89:87")));


    static final int VARIANTS = 16;

    static List<long[]> words() {
        return VariedWords.of(SAMPLES, VARIANTS, new Random(23));
    }

    @Test
    void hopperAsyncWordsWithEveryFieldVariedDecodeAsNvdisasmAndAssembleBack() {
        Oracles.assumeNvdisasm();
        RawWordCheck.run("sm_90", words()).assertNoneWrong();
    }
}
