package org.jptxas.frontend.ptx.isa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jptxas.ori.target.TargetInfo;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/** Representative accepts and rejects, with ptxas 13.0.88's messages (recorded from ptxas runs). */
class PtxIsaTest {
    private static final PtxIsa ISA = PtxIsa.get();
    private static final TargetInfo SM52 = TestTargets.catalog().info("sm_52").orElseThrow();
    private static final TargetInfo SM61 = TestTargets.catalog().info("sm_61").orElseThrow();
    private static final TargetInfo SM70 = TestTargets.catalog().info("sm_70").orElseThrow();
    private static final TargetInfo SM75 = TestTargets.catalog().info("sm_75").orElseThrow();
    private static final TargetInfo SM80 = TestTargets.catalog().info("sm_80").orElseThrow();
    private static final TargetInfo SM90 = TestTargets.catalog().info("sm_90").orElseThrow();
    private static final TargetInfo SM90A = TestTargets.catalog().info("sm_90a").orElseThrow();

    private static OperandUse reg(String type) {
        return OperandUse.register(type);
    }

    private static OperandUse pred() {
        return new OperandUse(OperandShape.PREDICATE, "pred", 0);
    }

    private static OperandUse addr() {
        return OperandUse.of(OperandShape.ADDRESS);
    }

    private static OperandUse imm() {
        return OperandUse.of(OperandShape.IMMEDIATE_INT);
    }

    private static OperandUse vec(String type, int n) {
        return new OperandUse(OperandShape.VECTOR, type, n);
    }

    /** {@code "add.rn.f32"} → opcode and modifiers through {@link PtxIsa#split}. */
    private static List<String> check(String name, TargetInfo target, int ptx, OperandUse... ops) {
        PtxIsa.Split s = ISA.split(Arrays.asList(name.split("\\."))).orElseThrow();
        List<String> messages = new ArrayList<>();
        for (IsaProblem p : ISA.check(new InstructionUse(s.opcode(), s.modifiers(), List.of(ops)), ptx, target)) {
            messages.add(p.message());
        }
        return messages;
    }

    private static void accepts(String name, OperandUse... ops) {
        assertEquals(List.of(), check(name, SM90A, 90, ops), name);
    }

    private static void rejects(String name, String message, OperandUse... ops) {
        List<String> got = check(name, SM90A, 90, ops);
        assertFalse(got.isEmpty(), name + " should be rejected");
        assertEquals(message, got.get(0), name);
    }

    @Test
    void splitFindsLongestOpcode() {
        assertEquals(new PtxIsa.Split("cp.async.bulk.tensor", List.of("2d", "shared::cluster", "global")),
                ISA.split(List.of("cp", "async", "bulk", "tensor", "2d", "shared::cluster", "global")).orElseThrow());
        assertEquals(new PtxIsa.Split("cp.async", List.of("ca", "shared", "global")),
                ISA.split(List.of("cp", "async", "ca", "shared", "global")).orElseThrow());
        assertEquals(new PtxIsa.Split("ld", List.of("global", "v4", "f32")),
                ISA.split(List.of("ld", "global", "v4", "f32")).orElseThrow());
        assertTrue(ISA.split(List.of("frobnicate", "f32")).isEmpty());
        assertTrue(ISA.knows("wgmma.mma_async"));
        assertFalse(ISA.knows("frobnicate"));
    }

    @Test
    void arithmetic() {
        accepts("add.f32", reg("f32"), reg("f32"), reg("f32"));
        accepts("add.f32", reg("f32"), reg("b32"), reg("f32"));
        accepts("add.ftz.f32", reg("f32"), reg("f32"), new OperandUse(OperandShape.IMMEDIATE_FLOAT, "f32", 0));
        accepts("add.s32", reg("s32"), reg("u32"), reg("b32"));
        accepts("add.sat.s32", reg("s32"), reg("s32"), imm());
        accepts("mul.wide.s32", reg("s64"), reg("s32"), reg("s32"));
        accepts("mad.lo.u32", reg("u32"), reg("u32"), reg("u32"), imm());
        rejects("add.foo.f32", "Unknown modifier '.foo'", reg("f32"), reg("f32"), reg("f32"));
        rejects("add.f32", "Arguments mismatch for instruction 'add'", reg("f32"), reg("f32"));
        rejects("add.s32", "Arguments mismatch for instruction 'add'", reg("s32"), reg("f32"), reg("f32"));
        rejects("add.rn.s32", "Illegal rounding modifier for instruction 'add'", reg("s32"), reg("s32"), reg("s32"));
        rejects("add.rn.rz.f32", "Multiple rounding modifiers specified", reg("f32"), reg("f32"), reg("f32"));
        rejects("add.f32.f32", "Unexpected instruction types specified for 'add'", reg("f32"), reg("f32"), reg("f32"));
        rejects("add.b32", "Unexpected instruction types specified for 'add'", reg("b32"), reg("b32"), reg("b32"));
        rejects("add.ftz.ftz.f32", "Duplicate .ftz modifier", reg("f32"), reg("f32"), reg("f32"));
        rejects("add.global.f32", "No state space qualifier expected for instruction 'add'", reg("f32"), reg("f32"),
                reg("f32"));
        rejects("add.volatile.f32", "Illegal modifier '.volatile' for instruction 'add'", reg("f32"), reg("f32"),
                reg("f32"));
        rejects("add.f32", "Arguments mismatch for instruction 'add'", reg("f32"), reg("f32"), imm());
        rejects("add.u32", "Arguments mismatch for instruction 'add'", reg("u32"), reg("b64"), reg("u32"));
        rejects("add.u32", "Special register argument not allowed for instruction 'add'", reg("u32"),
                new OperandUse(OperandShape.SPECIAL_REGISTER, "u32", 0), imm());
        rejects("add.u64", "Argument 1 of instruction 'add': must be register", reg("u64"),
                OperandUse.of(OperandShape.SYMBOL), imm());
        rejects("mad.f32", "Rounding modifier required for instruction 'mad'", reg("f32"), reg("f32"), reg("f32"),
                reg("f32"));
    }

    @Test
    void gates() {
        assertEquals(List.of("Feature 'add.bf16' requires .target sm_90 or higher",
                "Feature 'add.bf16' requires PTX ISA .version 7.8 or later"),
                check("add.bf16", SM80, 70, reg("b16"), reg("b16"), reg("b16")));
        assertEquals(List.of(), check("add.bf16", SM90, 78, reg("b16"), reg("b16"), reg("b16")));
        assertEquals(List.of("Instruction 'wgmma.fence' not supported on .target 'sm_90'"),
                check("wgmma.fence.sync.aligned", SM90, 90));
        assertEquals(List.of(), check("wgmma.fence.sync.aligned", SM90A, 90));
        assertEquals(List.of("Feature 'elect' requires .target sm_90 or higher",
                "Feature 'elect' requires PTX ISA .version 8.0 or later"),
                check("elect.sync", SM80, 70, reg("b32"), pred(), imm()));
        assertEquals(List.of("Modifier '.async' requires .target sm_90 or higher",
                "Modifier '.async' requires PTX ISA .version 8.0 or later"), check("fence.proxy.async", SM80, 75));
    }

    /**
     * sm_80 has mbarrier.arrive and test_wait, but not their count without .noComplete nor .relaxed (sm_90 features,
     * as ptxas 13 words them).
     */
    @Test
    void mbarrierCountAndRelaxedNeedSm90() {
        String count = "Feature 'mbarrier.arrive with count argument and without '.noComplete' modifier' requires"
                + " .target sm_90 or higher";
        assertEquals(List.of(count), check("mbarrier.arrive.shared.b64", SM80, 90, reg("b64"), addr(), reg("u32")));
        assertEquals(List.of(count), check("mbarrier.arrive.release.cta.b64", SM80, 90, reg("b64"), addr(), imm()));
        assertEquals(List.of(), check("mbarrier.arrive.shared.b64", SM80, 90, reg("b64"), addr()));
        assertEquals(List.of(), check("mbarrier.arrive.release.cta.b64", SM80, 90, reg("b64"), addr()));
        assertEquals(List.of(), check("mbarrier.arrive.noComplete.b64", SM80, 90, reg("b64"), addr(), reg("u32")));
        assertEquals(List.of(), check("mbarrier.arrive.shared.b64", SM90, 90, reg("b64"), addr(), reg("u32")));
        assertEquals("Feature 'mbarrier.arrive_drop with count argument and without '.noComplete' modifier' requires"
                + " .target sm_90 or higher",
                check("mbarrier.arrive_drop.b64", SM80, 90, reg("b64"), addr(), reg("u32")).get(0));
        assertEquals("Modifier '.relaxed' on 'mbarrier.arrive' requires .target sm_90 or higher",
                check("mbarrier.arrive.relaxed.cta.b64", SM80, 90, reg("b64"), addr(), reg("u32")).get(0));
        assertEquals("Modifier '.relaxed' on 'mbarrier.arrive_drop' requires .target sm_90 or higher",
                check("mbarrier.arrive_drop.relaxed.cta.b64", SM80, 90, reg("b64"), addr()).get(0));
        assertEquals(List.of(), check("mbarrier.arrive.relaxed.cta.b64", SM90, 90, reg("b64"), addr(), reg("u32")));
        assertEquals(List.of("Modifier '.relaxed' on 'mbarrier.test_wait' requires .target sm_90 or higher"),
                check("mbarrier.test_wait.relaxed.cta.b64", SM80, 90, pred(), addr(), reg("b64")));
        assertEquals(List.of("Modifier '.relaxed' on 'mbarrier.test_wait.parity' requires .target sm_90 or higher"),
                check("mbarrier.test_wait.parity.relaxed.cta.b64", SM80, 90, pred(), addr(), reg("u32")));
        assertEquals(List.of(), check("mbarrier.test_wait.acquire.cta.b64", SM80, 90, pred(), addr(), reg("b64")));
    }

    /** brx.idx jumps through a .branchtargets table: a plain label mismatches, anything else is asked to be one. */
    @Test
    void brxIdxNeedsABranchTargetsTable() {
        OperandUse table = OperandUse.of(OperandShape.BRANCH_TARGETS);
        accepts("brx.idx", reg("u32"), table);
        accepts("brx.idx.uni", imm(), table);
        String expected = "Label with '.branchtargets' directive expected for argument 1 of instruction 'brx.idx'";
        rejects("brx.idx", expected, reg("u32"), OperandUse.of(OperandShape.SYMBOL));
        rejects("brx.idx", expected, reg("u32"), reg("b32"));
        rejects("brx.idx", "Arguments mismatch for instruction 'brx.idx'", reg("u32"), OperandUse.of(OperandShape.LABEL));
    }

    /** Results and sources of a fixed bit type take no float register where ptxas 13 refuses one. */
    @Test
    void bitResultsRefuseFloatRegisters() {
        String bmsk = "Arguments mismatch for instruction 'bmsk'";
        rejects("bmsk.clamp.b32", bmsk, reg("f32"), reg("u32"), reg("u32"));
        accepts("bmsk.clamp.b32", reg("s32"), reg("u32"), reg("u32"));
        rejects("redux.sync.and.b32", "Arguments mismatch for instruction 'redux'", reg("f32"), reg("b32"), reg("b32"));
        rejects("redux.sync.xor.b32", "Arguments mismatch for instruction 'redux'", reg("b32"), reg("f32"), reg("b32"));
        accepts("redux.sync.or.b32", reg("u32"), reg("b32"), imm());
        rejects("cvt.pack.sat.s8.s32.b32", "Arguments mismatch for instruction 'cvt.pack'", reg("f32"), reg("s32"),
                reg("s32"), reg("b32"));
        accepts("cvt.pack.sat.s8.s32.b32", reg("u32"), reg("s32"), reg("s32"), reg("b32"));
        rejects("movmatrix.sync.aligned.m8n8.trans.b16", "Arguments mismatch for instruction 'movmatrix'", reg("b32"),
                imm());
        accepts("movmatrix.sync.aligned.m8n8.trans.b16", reg("b32"), reg("b32"));
    }

    /** Gates of targets before sm_75 as ptxas 13 words them (PtxasDifferentialTest, .target sm_52 and sm_61). */
    @Test
    void olderTargetGates() {
        assertEquals(List.of("Feature 'f16 arithemetic and compare instructions' requires .target sm_53 or higher"),
                check("add.f16", SM52, 90, reg("f16"), reg("f16"), reg("f16")));
        assertEquals(List.of(), check("add.f16", SM61, 90, reg("f16"), reg("f16"), reg("f16")));
        assertEquals(List.of("Instruction 'dp4a' requires .target sm_61 or higher"),
                check("dp4a.u32.u32", SM52, 90, reg("s32"), reg("u32"), reg("u32"), reg("s32")));
        assertEquals(List.of("Instruction 'atom.add.f64 with generic state space' requires .target sm_60 or higher"),
                check("atom.add.f64", SM52, 90, reg("f64"), addr(), reg("f64")));
        assertEquals("Instruction 'atom.add.f64.global' requires .target sm_60 or higher",
                check("atom.sys.global.add.f64", SM52, 90, reg("f64"), addr(), reg("f64")).get(0));
        assertEquals(List.of("Feature 'scopes on atomic operations' requires .target sm_60 or higher"),
                check("atom.cta.add.u32", SM52, 90, reg("u32"), addr(), reg("u32")));
        assertEquals(List.of("Modifier '.alias' requires .target sm_60 or higher",
                "Feature 'fence.proxy' requires .target sm_70 or higher"), check("fence.proxy.alias", SM52, 90));
        // vote and shfl without .sync: retired after PTX 6.3 only from .target sm_70 on
        assertEquals(List.of(), check("vote.all.pred", SM61, 90, pred(), pred()));
        assertFalse(check("vote.all.pred", SM70, 90, pred(), pred()).isEmpty());
        // words ptxas gates before anything else about the instruction
        assertEquals("Feature '.weak' requires .target sm_70 or higher",
                check("ld.weak.global.u32", SM61, 90, reg("f64"), addr()).get(0));
        assertEquals("Feature '.bf16x2' requires .target sm_75 or higher",
                check("abs.bf16x2", SM61, 90, reg("b32"), reg("b32")).get(0));
        assertEquals("Feature '.bf16x2' requires .target sm_80 or higher",
                check("abs.bf16x2", SM75, 90, reg("b32"), reg("b32")).get(0));
        assertEquals(List.of("Feature '.cluster scope' requires .target sm_90 or higher"),
                check("fence.acq_rel.cluster", SM70, 90));
    }

    @Test
    void memory() {
        accepts("ld.global.v4.f32", vec("f32", 4), addr());
        accepts("ld.global.u8", reg("b32"), addr());
        accepts("ld.global.f32", reg("b64"), addr());
        accepts("st.shared.u32", addr(), reg("b64"));
        accepts("ld.relaxed.gpu.global.u32", reg("u32"), addr());
        rejects("ld.global.v4.f32", "Argument vector size mismatch for instruction 'ld'", vec("f32", 2), addr());
        rejects("ld.global.u16", "Arguments mismatch for instruction 'ld'", reg("f32"), addr());
        rejects("ld.shared.global.f32", "Unexpected number of state spaces specified in instruction 'ld'",
                reg("f32"), addr());
        rejects("ld.global.ca.cg.f32", "Multiple cache operation modifiers specified", reg("f32"), addr());
        rejects("st.global.f32", "Arguments mismatch for instruction 'st'", reg("f32"), addr());
        accepts("atom.global.add.u32", reg("u32"), addr(), reg("u32"));
        accepts("atom.global.cas.b32", reg("b32"), addr(), reg("b32"), reg("b32"));
    }

    @Test
    void compareAndConvert() {
        accepts("setp.eq.f32", pred(), reg("f32"), reg("f32"));
        accepts("setp.lt.and.s32", pred(), reg("s32"), reg("s32"), pred());
        rejects("setp.f32", "Comparison modifier required for instruction 'setp'", pred(), reg("f32"), reg("f32"));
        rejects("setp.lt.and.u32", "Arguments mismatch for instruction 'setp'", pred(), reg("u32"), reg("u32"));
        accepts("cvt.rn.f32.s32", reg("f32"), reg("s32"));
        accepts("cvt.u32.u16", reg("b64"), reg("b16"));
        rejects("cvt.s32.f32", "Rounding modifier required for instruction 'cvt'", reg("s32"), reg("f32"));
    }

    /** ptxas 13 gates b1 mma's .and at PTX 7.1 and sm_80 on every shape, .xor at the shape's own PTX 7.0. */
    @Test
    void binaryMmaAndNeedsPtx71AndSm80() {
        OperandUse[] k256 = {vec("s32", 4), vec("b32", 4), vec("b32", 2), vec("s32", 4)};
        OperandUse[] k88 = {vec("s32", 2), vec("b32", 1), vec("b32", 1), vec("s32", 2)};
        assertEquals(List.of("Modifier '.and' on 'mma' requires PTX ISA .version 7.1 or later"),
                check("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", SM80, 70, k256));
        assertEquals(List.of(), check("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", SM80, 71, k256));
        assertEquals(List.of(), check("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", SM80, 70, k256));
        assertEquals(List.of("Modifier '.and' on 'mma' requires .target sm_80 or higher"),
                check("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc", SM75, 71, k88));
        assertEquals(List.of(), check("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", SM75, 70, k88));
        assertEquals(List.of("Feature 'mma' requires PTX ISA .version 7.0 or later"),
                check("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", SM75, 65, k88));
    }

    /** mma and wmma.mma name a layout for A and one for B: row.row and col.col are one word per slot, not twice. */
    @Test
    void aLayoutWordMayFillBothLayoutSlots() {
        OperandUse[] m884 = {vec("b32", 4), vec("b32", 2), vec("b32", 2), vec("b32", 4)};
        assertEquals(List.of(), check("mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16", SM75, 70, m884));
        assertEquals(List.of(), check("mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f16", SM75, 70, m884));
        assertEquals(List.of("Duplicate .row modifier"),
                check("mma.sync.aligned.m8n8k4.row.row.row.f16.f16.f16.f16", SM75, 70, m884));
        OperandUse[] wmma = {vec("f32", 8), vec("b32", 8), vec("b32", 8), vec("f32", 8)};
        assertEquals(List.of(), check("wmma.mma.sync.aligned.col.col.m16n16k16.f32.f32", SM75, 70, wmma));
    }

    @Test
    void tensorCoresAndAsyncCopies() {
        accepts("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", vec("f32", 4), vec("b32", 4), vec("b32", 2),
                vec("f32", 4));
        rejects("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "Argument vector size mismatch for instruction 'mma'",
                vec("f32", 4), vec("b32", 2), vec("b32", 2), vec("f32", 4));
        rejects("mma.sync.aligned.m16n8k16.row.col.s32.bf16.bf16.s32", "Unexpected instruction types specified for 'mma'",
                vec("s32", 4), vec("b32", 4), vec("b32", 2), vec("s32", 4));
        accepts("cp.async.ca.shared.global", addr(), addr(), OperandUse.immediate(8));
        rejects("cp.async.cg.shared.global",
                "Argument 2 of instruction 'cp.async': unexpected value '8', expected to be 16", addr(), addr(),
                OperandUse.immediate(8));
        rejects("bar.sync", "Number of threads participating in barrier must be in multiple of warp size",
                OperandUse.immediate(0), OperandUse.immediate(48));
        // barrier numbers 0..15, printed unsigned (found by MutationAgreementTest: 'bar.sync 0xffffffff')
        accepts("bar.sync", OperandUse.immediate(15));
        rejects("bar.sync", "Barrier number '16' out of range, expected to be in range [0..15]", OperandUse.immediate(16));
        rejects("barrier.sync.aligned", "Barrier number '4294967295' out of range, expected to be in range [0..15]",
                OperandUse.immediate(0xffffffffL));
        rejects("bar.red.popc.u32", "Barrier number '18446744073709551615' out of range, expected to be in range [0..15]",
                reg("u32"), OperandUse.immediate(-1), pred());
        accepts("mbarrier.try_wait.parity.shared::cta.b64", pred(), addr(), reg("b32"));
        accepts("setp.lt.s32", pred(), pred(), reg("s32"), reg("s32"));
    }

    @Test
    void versionsRetireForms() {
        assertEquals(List.of(), check("vote.any.pred", SM80, 14, pred(), pred()));
        assertFalse(check("vote.any.pred", SM80, 70, pred(), pred()).isEmpty());
        assertEquals(List.of(), check("mad.f32", SM80, 14, reg("f32"), reg("f32"), reg("f32"), reg("f32")));
    }

    /**
     * A video instruction's secondary operation (.add/.min/.max) needs the operand c; without it ptxas 13 says
     * "Arguments mismatch" (c alone is fine). The table took c as optional for both, and jptxas's lowering crashed on
     * vadd.s32.s32.s32.add d, a, b (found by the instruction-form suite).
     */
    @Test
    void videoSecondaryOperationNeedsC() {
        OperandUse r = reg("b32");
        rejects("vadd.s32.s32.s32.add", "Arguments mismatch for instruction 'vadd'", r, r, r);
        rejects("vset.u32.u32.lt.max", "Arguments mismatch for instruction 'vset'", r, r, r);
        accepts("vadd.s32.s32.s32.add", r, r, r, r);
        accepts("vadd.s32.s32.s32", r, r, r, r);
        accepts("vshl.u32.u32.u32.clamp.sat", r, r, r);
    }

    @Test
    void unknownInstruction() {
        List<IsaProblem> p = ISA.check(new InstructionUse("frobnicate", List.of("f32"), List.of()), 90, SM90A);
        assertEquals("Not a name of any known instruction: 'frobnicate'", p.get(0).message());
    }

    @Test
    void everyOpcodeHasAForm() {
        for (String op : ISA.opcodes()) {
            assertTrue(ISA.knows(op));
            assertFalse(ISA.table().instruction(op).forms().isEmpty(), op);
        }
    }

    /**
     * Below sm_80 ptxas names mbarrier's own sm_80 gate before the sm_90 gates of its count argument and .relaxed,
     * and before an illegal modifier; a type or operand mismatch still comes first.
     */
    @Test
    void anInstructionMissingOnTheTargetIsNamedBeforeItsLaterForms() {
        String sm80 = "Feature 'mbarrier.arrive' requires .target sm_80 or higher";
        assertEquals(List.of(sm80), check("mbarrier.arrive.b64", SM75, 90, reg("b64"), addr(), reg("u32")));
        assertEquals(sm80, check("mbarrier.arrive.relaxed.cta.b64", SM75, 90, reg("b64"), addr()).get(0));
        assertEquals(List.of(sm80), check("mbarrier.arrive.ftz.b64", SM75, 90, reg("b64"), addr()));
        assertEquals(List.of(sm80), check("mbarrier.arrive.b64", SM75, 90, imm(), addr()));
        assertEquals("Arguments mismatch for instruction 'mbarrier.arrive'",
                check("mbarrier.arrive.b64", SM75, 90, reg("f32"), addr()).get(0));
        assertEquals("Modifier '.relaxed' on 'mbarrier.arrive' requires .target sm_90 or higher",
                check("mbarrier.arrive.relaxed.cta.b64", SM80, 90, reg("b64"), addr()).get(0));
    }

    /** Operands ptxas 13 takes that the manual does not list. */
    @Test
    void operandsPtxasTakesBeyondTheManual() {
        List<String> none = List.of();
        assertEquals(none, check("createpolicy.fractional.L2::evict_normal.b64", SM80, 90, imm()));
        assertEquals(none, check("istypep.texref", SM80, 90, pred(), imm()));
        assertEquals(none, check("atom.and.b32", SM80, 90, reg("b32"), addr(), reg("b32"), reg("f32")));
        assertEquals("Arguments mismatch for instruction 'atom'",
                check("atom.add.u32", SM80, 90, reg("u32"), addr(), reg("u32"), reg("u32")).get(0));
        assertEquals(none, check("movmatrix.sync.aligned.m8n8.trans.b16", SM80, 90, reg("f32"), reg("f16x2")));
        assertFalse(check("movmatrix.sync.aligned.m8n8.trans.b16", SM80, 90, reg("b64"), reg("b32")).isEmpty());
        assertEquals(none, check("cvt.pack.sat.u4.s32.b32", SM80, 90, reg("f16x2"), reg("s32"), reg("s32"),
                reg("b32")));
        assertFalse(check("cvt.pack.sat.u4.s32.b32", SM80, 90, reg("f32"), reg("s32"), reg("s32"), reg("b32"))
                .isEmpty());
        accepts("getctarank.s64", reg("u32"), reg("u64"));
        accepts("mapa.s32", reg("s32"), reg("s32"), reg("u32"));
        rejects("getctarank.b64", "Unexpected instruction types specified for 'getctarank'", reg("u32"), reg("b64"));
    }

    /** mbarrier's order and scope come together, as on mbarrier.arrive: either alone is refused naming the other. */
    @Test
    void mbarrierOrderAndScopeComeTogether() {
        rejects("mbarrier.expect_tx.relaxed.shared::cta.b64",
                "Modifier '.relaxed' requires scope with 'mbarrier.expect_tx' instruction", addr(), reg("u32"));
        rejects("mbarrier.test_wait.acquire.shared::cta.b64",
                "Modifier '.acquire' requires scope with 'mbarrier.test_wait' instruction", pred(), addr(), reg("b64"));
        accepts("mbarrier.expect_tx.relaxed.cta.shared::cta.b64", addr(), reg("u32"));
        accepts("mbarrier.try_wait.parity.shared::cta.b64", pred(), addr(), reg("u32"));
    }
}
