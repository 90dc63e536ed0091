package org.jptxas.cli.generality;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jptxas.cli.generality.ThreeWay.Compiled;
import org.jptxas.cli.generality.ThreeWay.LegResult;
import org.jptxas.tables.ptx.PtxInstructionSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Forms the instruction-form suite found computing wrong results (or not running), each fixed: jptxas's cubin must
 * compute the interpreter's results in the emulator. Fast (no ptxas): the suite itself is slow and needs ptxas.
 */
class FormRegressionTest {
    static final Map<String, FormCase> BY_KEY = FormCatalog.all(PtxInstructionSet.bundled()).stream()
            .collect(Collectors.toMap(FormCase::key, Function.identity(), (a, b) -> a));

    /** (SM, form key, what was wrong). */
    static Stream<Arguments> fixed() {
        return FIXED.stream().map(f -> Arguments.of(f[0], f[1], f[2]));
    }

    static final List<String[]> FIXED = List.of(
            new String[] {"sm_80", "nanosleep.u32 r", "no NANOSLEEP R encoding before sm_90 (no matcher selects)"},
            new String[] {"sm_80", "ld.param::entry.u8 r, [sym]", "ld.param::entry was a generic load of the parameter's"
                + " offset (in jptxas's code and in the interpreter), not a read of the parameter"},
            new String[] {"sm_90", "ld.param::entry.b64 r, [sym]", "the same"},
            new String[] {"sm_80", "lop3.or.b32 r|p, r, r, r, i, p", "the emulator's LOP3 fast path dropped the predicate"
                + " its non-zero test ORs in"},
            new String[] {"sm_75", "nanosleep.u32 r", "the same, NANOSLEEP.WARP R"},
            new String[] {"sm_89", "isspacep.local p, r", "no QSPC.E.L encoding (no matcher selects)"},
            new String[] {"sm_75", "isspacep.global p, r", "no sm_75 QSPC.E.G encoding (no matcher selects)"},
            new String[] {"sm_90", "elect.sync r|p, r", "no sm_90 WARPSYNC.EXCLUSIVE R encoding (no matcher selects)"},
            new String[] {"sm_80", "pmevent i", "pmevent was not supported (PMTRIG)"},
            new String[] {"sm_86", "pmevent.mask i", "the same, pmevent.mask"},
            new String[] {"sm_89", "applypriority.global.L2::evict_normal [rd], i",
                "applypriority was not supported (CCTL.E.DML2)"},
            new String[] {"sm_90", "discard.global.L2 [rd], i", "discard.L2 was not supported (CCTL.E.RML2)"},
            new String[] {"sm_90", "griddepcontrol.wait", "griddepcontrol was not supported (ACQBULK)"},
            new String[] {"sm_90", "griddepcontrol.launch_dependents", "the same (PREEXIT)"},
            new String[] {"sm_80", "bmsk.wrap.b32 r, r, r", "bmsk.wrap takes position and width modulo 32 (PTX ISA), as the interpreter now does"},
            new String[] {"sm_86", "sin.approx.f32 r, i", "sin of an immediate went to MUFU.SIN; ptxas folds it"},
            new String[] {"sm_80", "cvta.shared.u64 r, r", "the emulator did not run generic loads (LD) of shared memory"},
            new String[] {"sm_80", "st.b64 [rd]@local, r", "the emulator did not run generic stores (ST)"},
            new String[] {"sm_80", "isspacep.shared p, r", "the emulator did not run QSPC"},
            new String[] {"sm_80", "cvt.rni.f32.f32 r, r", "the emulator did not run FRND"},
            new String[] {"sm_80", "cvt.rn.f16.f32 r, r", "the emulator did not run F2FP.PACK_AB"},
            new String[] {"sm_75", "cvt.rn.f16.f32 r, r", "the emulator did not run F2F.F16.F32"},
            new String[] {"sm_80", "min.f64 r, r, r", "the emulator did not run DSETP.MIN"},
            new String[] {"sm_89", "max.f64 r, r, r", "the emulator did not run DSETP.MAX"},
            new String[] {"sm_90", "cvt.rn.bf16x2.f32 r, r, r", "the emulator did not run F2FP.BF16.F32.PACK_AB"},
            new String[] {"sm_80", "set.ne.ftz.f32.f32 r, r, r", "the interpreter ignored set's .ftz"},
            new String[] {"sm_80", "slct.ftz.u32.f32 r, r, r, r", "the interpreter ignored slct's .ftz"},
            new String[] {"sm_80", "createpolicy.fractional.L2::evict_normal.b64 r, r",
                "the interpreter did not run createpolicy"},
            new String[] {"sm_80", "sub.s64 r, i, i", "a 64-bit subtraction of a constant whose low word is 0 lost"
                + " the carry into the high word (the result was 2^32 too small)"},
            new String[] {"sm_80", "ld.u32 r, [rd]@shared", "the same, in an address computed with sub.u64 d, a, 0"},
            new String[] {"sm_90", "atom.cas.b64 r, [rd], i, r", "the same"},
            new String[] {"sm_80", "sub.cc.u32 r, r, i", "sub.cc with 0: no carry out (no borrow)"},
            new String[] {"sm_80", "mul.hi.u16 r, r, r", "16-bit mul.hi took IMAD.HI's high word of the product: 0"},
            new String[] {"sm_75", "mul.hi.s16 r, r, r", "the same, signed"},
            new String[] {"sm_90", "mul.hi.s16 r, i, i", "the same, immediates"},
            new String[] {"sm_86", "mad.hi.u16 r, r, r, r", "the same in mad.hi"},
            new String[] {"sm_89", "mad.hi.s16 r, r, i, r", "the same in mad.hi, signed"},
            new String[] {"sm_80", "mad.lo.u64 r, r, r, i", "a 64-bit immediate addend lost its high word"},
            new String[] {"sm_80", "mad.wide.u32 r, r, r, i", "the same in mad.wide"},
            new String[] {"sm_90", "mad.wide.s32 r, r, r, i", "the same; sm_89/90 had no matcher for IMAD.WIDE with it"},
            new String[] {"sm_80", "vadd.s32.s32.s32 r, r, r", "the interpreter had no video instructions"},
            new String[] {"sm_86", "vabsdiff.u32.s32.u32.sat.max r, r, r, r", "the same"},
            new String[] {"sm_89", "vshr.s32.s32.u32.clamp.add r, r, r, r", "the same"},
            new String[] {"sm_90", "vset.u32.s32.lt.min r, r, r, r", "the same"},
            new String[] {"sm_75", "vavrg4.s32.u32.s32.sat r, r, r, r", "the same, SIMD"},
            new String[] {"sm_80", "vset2.s32.s32.ge.add r, r, r, r", "the same, SIMD"},
            new String[] {"sm_80", "div.rz.f32 r, r, r", "the interpreter rounded an overflowing .rz quotient to infinity"},
            new String[] {"sm_86", "div.rm.f32 r, r, r", "the same, .rm"},
            new String[] {"sm_90", "div.rp.f32 r, r, r", "the interpreter rounded an underflowing .rp quotient to 0"},
            new String[] {"sm_86", "cvt.rn.f32.f64 r, i", "an f64 immediate source of cvt reached F2F, which has no"
                + " 64-bit immediate slot (no matcher selects)"},
            new String[] {"sm_80", "neg.f32 r, r", "the interpreter flipped a NaN's sign; the GPU gives the canonical"
                + " NaN"},
            new String[] {"sm_89", "abs.f32 r, r", "the same for abs"},
            new String[] {"sm_80", "mad.lo.cc.u64 r, r, r, r", "64-bit mad.cc did not write the carry flag (the"
                + " carry out was an earlier instruction's)"},
            new String[] {"sm_90", "mad.hi.cc.s64 r, i, r, r", "the same, .hi"},
            new String[] {"sm_75", "add.cc.u64 r, r, r", "64-bit carry chains were not supported"},
            new String[] {"sm_86", "subc.cc.s64 r, r, r", "the same, subc"},
            new String[] {"sm_89", "madc.hi.cc.u64 r, r, r, r", "the same, madc"},
            new String[] {"sm_80", "testp.normal.f32 p, r", "+-0 is normal (PTX ISA); the interpreter and jptxas said"
                + " not"},
            new String[] {"sm_90", "testp.normal.f64 p, r", "the same, f64"},
            new String[] {"sm_80", "testp.f32 p, r", "testp without a class was refused; ptxas 13 accepts it and"
                + " leaves the predicate as it was"},
            new String[] {"sm_75", "testp.f64 p, r", "the same, f64"},
            new String[] {"sm_80", "mad24.hi.sat.s32 r, r, r, r", "the interpreter and jptxas ignored .sat"},
            new String[] {"sm_80", "rcp.approx.ftz.f64 r, r", "the interpreter computed a full-precision reciprocal"
                + " (PTX: from the upper word, subnormals flushed)"},
            new String[] {"sm_80", "add.ftz.f16 r, r, r", "the interpreter ignored .ftz on f16 add/sub/mul"},
            new String[] {"sm_75", "neg.ftz.f16x2 r, r", "the interpreter and jptxas (a sign-bit LOP3) kept subnormal"
                + " lanes"},
            new String[] {"sm_90", "abs.ftz.f16 r, r", "the same, abs"},
            new String[] {"sm_80", "set.lt.f16.f16 r, r, r", "true was all ones; PTX writes 1.0 in the f16"
                + " destination"},
            new String[] {"sm_80", "max.NaN.f16 r, r, r", "the emulator did not run HMNMX2.NAN; the interpreter"
                + " ignored .NaN"},
            new String[] {"sm_86", "min.bf16 r, r, r", "the emulator did not run HMNMX2.BF16_V2"},
            new String[] {"sm_80", "fma.rn.bf16x2 r, r, r, r", "the emulator did not run HFMA2.BF16_V2"},
            new String[] {"sm_80", "cvt.pack.sat.s8.s32.b32 r, r, r, r", "the emulator did not run I2IP; the"
                + " interpreter ignored .pack (it converted a alone)"},
            new String[] {"sm_89", "cvt.pack.sat.u16.s32 r, r, r", "the same, 16-bit lanes"},
            new String[] {"sm_80", "match.sync.any.b64 r, r, r", "the emulator did not run MATCH.ANY.U64"},
            new String[] {"sm_90", "match.sync.all.b64 r|p, r, r", "the emulator did not run MATCH.ALL.U64"},
            new String[] {"sm_80", "bar.arrive i, r", "the emulator did not run BAR.ARV"},
            new String[] {"sm_90", "nanosleep.u32 i", "the emulator did not run NANOSLEEP"},
            new String[] {"sm_90", "atom.release.and.b32 r, [rd], r", "the emulator did not run CGAERRBAR (the"
                + " release fence's cluster error barrier)"},
            new String[] {"sm_80", "set.eq.ftz.s32.f16 r, r, r", "the interpreter ignored .ftz on f16 compares"},
            new String[] {"sm_86", "setp.ge.xor.ftz.f16 p, r, r, p", "the same, setp"},
            new String[] {"sm_80", "cvt.f32.f16 r, r", "an f16 NaN kept its payload in f32 (the GPU gives the"
                + " canonical NaN)"},
            new String[] {"sm_90", "cvt.ftz.f32.f16 r, r", "the same, .ftz"},
            new String[] {"sm_75", "cvt.sat.f32.f16 r, r", "one HADD2.F32 since it replaced ten integer-pipe"
                + " instructions: sm_75's order puts the negated zero second"},
            new String[] {"sm_89", "cvt.sat.f32.f16 r, r", "the same, the sm_80 order"},
            new String[] {"sm_80", "setp.lt.and.f16x2 p, r, r, p", "the interpreter had no f16x2 compares"},
            new String[] {"sm_86", "set.geu.ftz.u32.f16x2 r, r, r", "the same, set"},
            new String[] {"sm_89", "set.eq.or.f16x2.f16x2 r, r, r, p", "the same, an f16x2 result"},
            new String[] {"sm_80", "atom.add.noftz.f16x2 r, [rd], r", "the interpreter had no f16x2 atomics; the"
                + " emulator added ATOM.ADD.F16x2's lanes as one integer"},
            new String[] {"sm_86", "red.global.add.noftz.f16x2 [rd], r", "the same, RED"},
            new String[] {"sm_80", "ld.b128 r, [rd]", "mov.b128 did not unpack 2 x 64 bits; the interpreter had no"
                + " .b128 registers"},
            new String[] {"sm_89", "mov.b128 r, i", "the same, a literal (zero-extended)"},
            new String[] {"sm_90", "st.b128 [rd], i", "the same, a stored literal"},
            new String[] {"sm_80", "mov.v2.u32 v2, v2", "vector-to-vector mov was refused"},
            new String[] {"sm_80", "ld.shared::cta.b32 r, [r]", "shared::cta was not the shared space (a 32-bit"
                + " address was refused as generic)"},
            new String[] {"sm_75", "st.v8.u8 [rd], v8", "eight bytes were packed as four (the high word lost)"},
            new String[] {"sm_80", "atom.and.b64 r, [rd], i", "a 64-bit constant operand became MOV R.64, imm"
                + " (no matcher selects)"},
            new String[] {"sm_86", "and.pred p, i, i", "two constant predicates reached PLOP3 (no matcher selects)"},
            new String[] {"sm_80", "atom.add.noftz.f16 r, [rd], r", "scalar f16 atomic adds were refused"},
            new String[] {"sm_86", "red.shared.add.noftz.f16 [r], r", "the same, shared memory"},
            new String[] {"sm_90", "atom.add.noftz.f16 r, [rd]@shared, r", "the same, a generic address in shared"
                + " memory"},
            new String[] {"sm_75", "atom.add.noftz.f16x2 r, [rd]@shared, r", "a generic f16x2 add on a shared"
                + " address relied on ATOM doing it (the hardware leaves it to the code)"},
            new String[] {"sm_80", "atom.cas.b16 r, [rd], r, r", "16-bit compare-and-swap was refused"},
            new String[] {"sm_86", "atom.shared.cas.b16 r, [r], r, r", "the same on shared memory; the emulator did"
                + " not run ATOMS.CAST.SPIN"},
            new String[] {"sm_89", "red.shared.add.noftz.f16x2 [r], r", "f16x2 adds on shared memory were refused"},
            new String[] {"sm_80", "cvt.f16.f16 r, r", "a move: ptxas's HADD2 with -0 makes a NaN the canonical one"},
            new String[] {"sm_90", "cvt.bf16.bf16 r, r", "the same, ptxas's HFMA2.BF16_V2 -0 * 0 + a"},
            new String[] {"sm_80", "cvt.rni.f16.f16 r, r", "the emulator did not run FRND.F16"},
            new String[] {"sm_90", "cvt.rzi.bf16.bf16 r, r", "the emulator did not run FRND.BF16"},
            new String[] {"sm_80", "cvt.f32.f32 r, r", "the interpreter made a NaN canonical where ptxas moves the bits"},
            new String[] {"sm_86", "cvt.f64.f64 r, r", "the same in f64"},
            new String[] {"sm_80", "cvt.f32.bf16 r, r", "the same, a bf16 widened by a shift"},
            new String[] {"sm_80", "cvt.f64.f32 r, r", "the emulator's F2F.F64.F32 kept a NaN's payload"},
            new String[] {"sm_80", "cvt.f64.f16 r, r", "the same, through the f16 to f32 widening"},
            new String[] {"sm_80", "cvt.rn.relu.bf16.f32 r, r", "the interpreter's .relu made -0 into +0"},
            new String[] {"sm_89", "cvt.rz.relu.f16x2.f32 r, r, r", "the same in pairs"},
            new String[] {"sm_80", "cvt.rna.tf32.f32 r, r", "the interpreter had no tf32 conversion"},
            new String[] {"sm_80", "cvt.rna.satfinite.tf32.f32 r, r", ".satfinite was refused"},
            new String[] {"sm_80", "cvt.rn.satfinite.bf16x2.f32 r, r, r", "the same"},
            new String[] {"sm_90", "cvt.rz.relu.satfinite.f16x2.f32 r, r, r", "the same"},
            new String[] {"sm_80", "cvt.rn.satfinite.bf16.f32 r, r", "the same"},
            new String[] {"sm_75", "cvt.rn.satfinite.f16.f32 r, r", "f16 .satfinite (PTX 8.1) was refused; sm_75 has"
                + " no F2FP.SATFINITE (F2F, then an infinite half to +-65504)"},
            new String[] {"sm_75", "cvt.rz.satfinite.f16.f32 r, r", "the same, toward zero"},
            new String[] {"sm_75", "cvt.rz.f16.f32 r, r", "IselWalkTest's sm_75 F2FP.PACK_AB.RZ d, RZ, x: reached from PTX,"
                + " selected to F2F.F16.F32.RZ (f16-pack-rz-is-f2f-rz); the other F2FP forms no PTX reaches there"},
            new String[] {"sm_75", "@p cvt.rn.f16.f32 r, r", "the same under a guard, F2FP.PACK_AB to F2F.F16.F32"},
            new String[] {"sm_80", "cvt.rn.relu.f16.f32 r, r", "f16 .relu was refused"},
            new String[] {"sm_90", "cvt.rz.relu.satfinite.f16.f32 r, r", "the same with .satfinite (F2FP.F16.F32)"},
            new String[] {"sm_80", "cvt.rm.f16.f32 r, r", "rounding down to f16 was refused"},
            new String[] {"sm_75", "cvt.rp.ftz.sat.f16.f32 r, r", "the same, up, saturated"},
            new String[] {"sm_80", "cvt.rn.sat.f16.s32 r, r", "an integer to f16 with .sat was refused"},
            new String[] {"sm_80", "cvt.sat.f16.f16 r, r", "f16 .sat was refused"},
            new String[] {"sm_86", "cvt.rmi.sat.f16.f16 r, r", "the same, after rounding to an integer"},
            new String[] {"sm_80", "tanh.approx.f16x2 r, r", "tanh and ex2 of f16 were refused"},
            new String[] {"sm_75", "ex2.approx.f16 r, r", "the same"},
            new String[] {"sm_90", "tanh.approx.bf16 r, r", "the same, bf16"},
            new String[] {"sm_80", "cvt.rn.sat.f64.s32 r, r", "f64 results with .sat were refused"},
            new String[] {"sm_90", "cvt.sat.f64.f32 r, r", "the same"},
            new String[] {"sm_86", "cvt.rmi.sat.f64.f64 r, r", "the same"},
            new String[] {"sm_75", "cvt.sat.f64.f16 r, r", "the same"},
            new String[] {"sm_80", "ld.L2::cache_hint.u32 r, [rd], r", "loads and stores with a cache policy were"
                + " refused"},
            new String[] {"sm_86", "st.L2::cache_hint.u8 [rd], r, r", "the same"},
            new String[] {"sm_89", "st.relaxed.cta.L2::cache_hint.b64 [rd], r, r", "the same"},
            new String[] {"sm_90", "ld.L2::cache_hint.b128 r, [rd], r", "the same"},
            new String[] {"sm_80", "cvt.pack.sat.s2.s32.b32 r, r, r, r", "2-bit lanes selected I2IP.S32.U32.SAT (no"
                + " encoding); the interpreter refused them"},
            new String[] {"sm_90", "cvt.pack.sat.u4.s32.b32 r, i, r, r", "the same, 4-bit lanes"},
            new String[] {"sm_75", "cvt.rm.f16.f64 r, r", "F2F.F16.F64 had no register form"},
            new String[] {"sm_86", "st.local.b16 [r], r", "STL.U16 had no form"},
            new String[] {"sm_80", "ld.const.b128 r, [rd]", "LDC.128 (no such size): now two LDC.64"},
            new String[] {"sm_89", "barrier.sync i, r", "BAR.SYNC imm, R had no sm_80/86/89 form"},
            new String[] {"sm_89", "cvt.rn.satfinite.relu.e5m2x2.f32 r, r, r", "no sm_89 fp8 packs; .RELU spelled"
                + " after the types"},
            new String[] {"sm_90", "cvt.rn.relu.f16x2.e5m2x2 r, r", "no E5M2/.RELU unpack forms; neither the"
                + " emulator nor the interpreter widened fp8 pairs"},
            new String[] {"sm_90", "atom.add.noftz.bf16x2 r, [rd], r", "sm_90's bf16x2 ATOM through a descriptor had"
                + " no form"},
            new String[] {"sm_90", "atom.sys.add.f32 r, [rd], r", "the same, f32 at .SYS scope"},
            new String[] {"sm_80", "atom.and.L2::cache_hint.b32 r, [rd], r, r", "atomics name their cache policy"
                + " as the descriptor"},
            new String[] {"sm_89", "red.relaxed.cta.global.min.L2::cache_hint.u32 [rd], r, r", "the same"},
            new String[] {"sm_90", "red.relaxed.cta.global.min.L2::cache_hint.u64 [rd], r, r", "the same (REDG order"
                + " enum)"},
            new String[] {"sm_90", "atom.global.add.L2::cache_hint.f64 r, [rd], r, r", "the same (float"
                + " type enum)"},
            new String[] {"sm_90", "atom.sys.add.f32 r, [rd], r", "STRONG.SYS float atomics had no encoding"},
            new String[] {"sm_90", "atom.global.add.noftz.bf16x2 r, [rd], r", "bf16x2 atomics had no encoding"},
            new String[] {"sm_90", "red.add.noftz.bf16x2 [rd], r", "the same, generic"},
            new String[] {"sm_90", "atom.add.noftz.bf16 r, [rd], r", "bf16 atomics were refused"},
            new String[] {"sm_90", "red.shared.add.noftz.bf16 [r], r", "the same, shared"},
            new String[] {"sm_90", "atom.shared.add.noftz.bf16x2 r, [r], r", "bf16x2 on shared memory was refused"},
            new String[] {"sm_80", "fma.rn.relu.f16x2 r, r, r, r", "half fma .relu was refused (HFMA2.RELU)"},
            new String[] {"sm_86", "fma.rn.ftz.relu.f16 r, r, r, r", "the same, .FTZ.RELU"},
            new String[] {"sm_89", "fma.rn.relu.bf16x2 r, r, r, r", "the same, .BF16_V2.RELU"},
            new String[] {"sm_90", "fma.rn.relu.bf16 r, r, r, r", "the same"},
            new String[] {"sm_86", "min.xorsign.abs.f32 r, r, r", "min/max .xorsign.abs was refused (FMNMX.XORSIGN)"},
            new String[] {"sm_89", "max.ftz.NaN.xorsign.abs.f16x2 r, r, r", "the same, HMNMX2.FTZ.NAN.XORSIGN"},
            new String[] {"sm_90", "min.NaN.xorsign.abs.bf16 r, r, r", "the same, HMNMX2.BF16_V2.NAN.XORSIGN"},
            new String[] {"sm_80", "max.ftz.NaN.f32 r, r, r", "the interpreter ignored .NaN on f32 min/max"},
            new String[] {"sm_75", "fma.rn.ftz.f16 r, r, r, r", "the interpreter ignored .ftz on half fma"},
            new String[] {"sm_90", "atom.add.v4.f32 v4, [rd], v4", "vector atomics were not lowered (ATOMG F32x4)"},
            new String[] {"sm_90", "red.add.noftz.v2.f16 [rd], v2", "the same, two f16 lanes packed into one word"},
            new String[] {"sm_90", "atom.relaxed.cta.global.min.noftz.v4.L2::cache_hint.f16x2 v4, [rd], v4, r",
                "the same, F16x8 min with a cache policy"},
            new String[] {"sm_90", "atom.cas.b128 r, [rd], r, r", "128-bit compare-and-swap was not lowered"},
            new String[] {"sm_90", "atom.cas.b32 r, [rd+19088736], r, r",
                "no matcher: the descriptor stayed on ATOM.E.CAS after its offset was folded"},
            new String[] {"sm_75", "red.global.and.b64 [rd], r", "sm_75 had no RED.E.AND.64 form"},
            new String[] {"sm_90", "cvt.bf16.f16 r, r", "not supported: sm_90's F2F.BF16.F16 was missing"},
            new String[] {"sm_90", "cvt.rm.f16.bf16 r, r", "the same, F2F.F16.BF16.RM"},
            new String[] {"sm_90", "cvt.f64.bf16 r, r", "the same, F2F.F64.BF16"},
            new String[] {"sm_90", "cvt.rp.bf16.f64 r, r", "the same, F2F.BF16.F64.RP"},
            new String[] {"sm_90", "cvt.rn.tf32.f32 r, r", "the same, F2FP.TF32.F32.PACK_B"},
            new String[] {"sm_90", "cvt.rz.relu.tf32.f32 r, r", "the same, F2FP.RELU.TF32.F32.PACK_B.RZ"},
            new String[] {"sm_89", "cvt.rn.satfinite.e4m3x2.f16x2 r, r",
                "the same, F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C"},
            new String[] {"sm_90", "cvt.rn.satfinite.relu.e5m2x2.f16x2 r, r",
                "the same, F2FP.SATFINITE.RELU.E5M2.F16.UNPACK_B_MERGE_C"},
            new String[] {"sm_90", "fma.rn.oob.f16 r, r, r, r", "not supported: HFMA2.OOB was missing"},
            new String[] {"sm_90", "fma.rn.oob.relu.bf16x2 r, r, r, r", "the same, HFMA2.BF16_V2.OOB.RELU"},
            new String[] {"sm_90", "red.relaxed.cta.global.min.noftz.v4.L2::cache_hint.f16 [rd], v4, r",
                "the scheduler read REDG's data as one register and packed its second word after the REDG"},
            new String[] {"sm_80", "@p atom.add.noftz.f16 r, [rd], r", "a guarded half atomic wrote its result"
                + " after the guard's join: skipped threads lost their destination"},
            new String[] {"sm_90", "@p atom.add.noftz.bf16 r, [rd], r", "the same, bf16"},
            new String[] {"sm_86", "@p atom.cas.b16 r, [rd], r, r", "the same, 16-bit compare-and-swap"},
            new String[] {"sm_80", "mov.b16 r, v2", "packing two bytes into 16 bits was refused"},
            new String[] {"sm_89", "@p mov.b16 r, v2", "the same, guarded"},
            new String[] {"sm_80", "cvta.to.param.u64 r, r", "cvta.to.param was refused"},
            new String[] {"sm_90", "cvta.to.param.u64 r, r", "the same where the window points at the parameters"},
            new String[] {"sm_75", "isspacep.const p, r", "isspacep.const was refused"},
            new String[] {"sm_80", "isspacep.param p, r", "isspacep.param was refused"},
            new String[] {"sm_90", "isspacep.param::entry p, r", "the same, .param::entry"},
            new String[] {"sm_80", "brx.idx r, sym", "brx.idx was refused (now a compare-and-branch chain); the"
                + " interpreter had no branch tables"},
            new String[] {"sm_75", "brx.idx i, sym", "the same, a literal index"},
            new String[] {"sm_90", "brx.idx.uni r, sym", "the same, .uni"},
            new String[] {"sm_90", "cvt.ftz.f32.bf16 r, r", "a bf16 widened by a shift kept subnormals and NaN"
                + " payloads under .ftz (ptxas: F2F.FTZ.F32.BF16)"},
            new String[] {"sm_90", "cvt.rz.ftz.f32.bf16 r, r", "the same, .rz"},
            new String[] {"sm_75", "min.u64 r, i, i", "the low halves' compare folded to false and ISETP.EX's carry-in"
                + " !PT had no immediate form: it was printed into the combine slot (carry-in PT)"},
            new String[] {"sm_75", "setp.eq.u64 p|p, i, i", "the same in setp"},
            new String[] {"sm_75", "setp.eq.and.s64 p|p, i, i, i", "the same with a combining predicate"},
            new String[] {"sm_80", "slct.f32.f32 r, i, r, r", "FSEL's NaN immediate lost its payload through nvdisasm's"
                + " QNAN text"},
            new String[] {"sm_90", "slct.f32.f32 r, i, r, r", "the same"},
            new String[] {"sm_80", "ld.param::func.b32 r, [sym]", "ld.param::func of a call's return value was refused"
                + " (the front end lowered only the plain .param spelling)"},
            new String[] {"sm_80", "st.param::func.b64 [sym], r", "the same, st.param::func of a call's argument"},
            new String[] {"sm_80", "ld.param::func.b128 r, [sym]", "the same, 16 bytes"},
            new String[] {"sm_80", "cvta.global.u64 r, i", "the harness left cvta of an immediate address unrendered"
                + " (it loaded through the result); the converted address is compared now"},
            new String[] {"sm_90", "cvta.to.global.u64 r, i", "the same, cvta.to"});

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixed")
    void jptxasAgreesWithTheInterpreter(String sm, String key, String was) {
        FormCase c = BY_KEY.get(key);
        assertNotNull(c, "no case " + key + " in the catalog");
        assertNull(FormSuite.judgeWithoutPtxas(sm, c), key + " on " + sm + " (" + was + ")");
    }
}
