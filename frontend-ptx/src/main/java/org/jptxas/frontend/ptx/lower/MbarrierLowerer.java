package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TargetFeature;

/**
 * {@code mbarrier} on shared::cta barriers (sm_90), as ptxas 13 writes them:
 * <ul>
 *   <li>{@code init [a], n}: {@code SYNCS.EXCH.64 URZ, [UR], UR:UR+1} of the initial word: with
 *       {@code v = 2^20 - n}, low word {@code v << 1}, high word {@code v << 11} (pending and expected arrival counts
 *       count up to 2^20; bit 63 is the phase). The operands are uniform registers: {@link UniformLoop}.</li>
 *   <li>{@code arrive}: {@code SYNCS.ARRIVE.TRANS64.A1T0 Rd, [R+URZ], RZ}; with a count {@code .ART0 ..., Rn};
 *       {@code arrive.expect_tx}: {@code SYNCS.ARRIVE.TRANS64 Rd, [a], Rtx}; {@code expect_tx}:
 *       {@code .RED.A0TR RZ, [a], Rtx}; {@code complete_tx}: {@code .RED.A0TX}. Rd is the 64-bit state (RZ for
 *       {@code _}).</li>
 *   <li>{@code test_wait}/{@code try_wait}: {@code SYNCS.PHASECHK.TRANS64[.TRYWAIT] P, [a], R} with R the state's
 *       high word, or the parity shifted to bit 31 ({@code .parity}); try_wait's time limit adds
 *       {@code @!P NANOSLEEP.SYNCS t; @!P SYNCS.PHASECHK.TRANS64 P, [a], R}.</li>
 *   <li>{@code inval}: {@code SYNCS.CCTL.IV [a]}.</li>
 * </ul>
 * A barrier of another block of the cluster ({@code .shared::cluster}: the 32-bit address {@code mapa} gives, the
 * rank in its top byte) takes the same forms with {@code .RED} and no result ({@code RZ}): {@code arrive} is
 * {@code .RED.A1T0}/{@code .RED.ART0}, {@code arrive.expect_tx} {@code .RED}. {@code .release.cluster} arrivals are
 * preceded by {@code MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR}, and {@code .acquire.cluster} waits are
 * followed by {@code @P CCTL.IVALL} (ptxas 13); {@code .relaxed} and {@code .cta} scope add nothing.
 * {@code pending_count}: see {@link #pendingCount}. {@code arrive_drop} on a shared::cta barrier:
 * {@code SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0 Rd, [a], RZ}, with a count {@code .OPTOUT.ART0 Rd, [a], Rn},
 * {@code .noComplete} with a state result: {@code .TMASK.OPTOUT.ART0} (ptxas 13; without one, no .TMASK);
 * {@code arrive_drop.expect_tx}: {@code .OPTOUT} alone, {@code SYNCS.ARRIVE.TRANS64.OPTOUT Rd, [a], Rtx}.
 * {@code arrive.noComplete} is refused by name.
 */
@AutoService(InstructionLowerer.class)
public final class MbarrierLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("mbarrier.init", "mbarrier.inval", "mbarrier.expect_tx", "mbarrier.complete_tx",
                "mbarrier.arrive", "mbarrier.arrive.expect_tx", "mbarrier.test_wait", "mbarrier.try_wait",
                "mbarrier.pending_count", "mbarrier.arrive_drop", "mbarrier.arrive_drop.expect_tx");
    }

    private static final Set<String> ACCEPTED = Set.of("shared", "shared::cta", "shared::cluster", "b64", "release",
            "acquire", "relaxed", "cta", "cluster", "parity", "noComplete");

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (!cx.profile().has(TargetFeature.TRANSACTION_BARRIERS)) {
            throw cx.unsupported("mbarrier needs sm_90 here");
        }
        var split = cx.resolved().opcodeOf(insn).orElseThrow(() -> cx.unsupported("mbarrier form"));
        for (String m : split.modifiers()) {
            if (!ACCEPTED.contains(m)) {
                throw cx.unsupported("mbarrier qualifier ." + m);
            }
        }
        String op = split.opcode();
        List<Operand> ops = insn.operands();
        boolean remote = insn.hasModifier("shared::cluster");
        if (remote && !op.equals("mbarrier.arrive") && !op.equals("mbarrier.arrive.expect_tx")
                && !op.equals("mbarrier.expect_tx") && !op.equals("mbarrier.complete_tx")) {
            throw cx.unsupported(op + " on a shared::cluster barrier");
        }
        if (remote && (op.startsWith("mbarrier.arrive") && !(ops.get(0) instanceof Operand.Sink))) {
            throw cx.unsupported(op + " on a shared::cluster barrier with a state result");
        }
        boolean clusterScope = insn.hasModifier("cluster");
        if (op.startsWith("mbarrier.arrive") && clusterScope && !insn.hasModifier("relaxed")) {
            // a release at cluster scope (ptxas 13): the CTA's and then the GPU's stores first
            cx.emit("MEMBAR", List.of("ALL", "CTA"), List.of(), List.of());
            MemoryOrdering.releaseFence(cx, MemoryOrdering.Scope.GPU);
        }
        List<String> red = remote ? List.of("RED") : List.of();
        switch (op) {
            case "mbarrier.init" -> init(cx, ops);
            case "mbarrier.inval" -> cx.emit("SYNCS", List.of("CCTL", "IV"), List.of(),
                    List.of(Src.of(barrier(cx, insn, ops.get(0)))));
            case "mbarrier.expect_tx" -> cx.emit("SYNCS", List.of("ARRIVE", "TRANS64", "RED", "A0TR"),
                    List.of(Reg.RZ), List.of(Src.of(barrier(cx, insn, ops.get(0))), register(cx, ops.get(1))));
            case "mbarrier.complete_tx" -> cx.emit("SYNCS", List.of("ARRIVE", "TRANS64", "RED", "A0TX"),
                    List.of(Reg.RZ), List.of(Src.of(barrier(cx, insn, ops.get(0))), register(cx, ops.get(1))));
            // ptxas 13 marks .TMASK only a noComplete drop whose state is used
            case "mbarrier.arrive_drop" -> arrive(cx, insn, ops, insn.hasModifier("noComplete")
                    && !(ops.get(0) instanceof Operand.Sink) ? List.of("TMASK", "OPTOUT") : List.of("OPTOUT"));
            case "mbarrier.arrive" -> {
                if (insn.hasModifier("noComplete")) {
                    throw cx.unsupported("mbarrier.arrive.noComplete");
                }
                arrive(cx, insn, ops, red);
            }
            case "mbarrier.arrive_drop.expect_tx" -> arriveExpectTx(cx, insn, ops, List.of("OPTOUT"));
            case "mbarrier.arrive.expect_tx" -> arriveExpectTx(cx, insn, ops, red);
            case "mbarrier.test_wait", "mbarrier.try_wait" -> {
                Reg p = wait(cx, insn, op.equals("mbarrier.try_wait"), ops);
                if (clusterScope && insn.hasModifier("acquire")) { // ptxas 13: the caches dropped once the phase is seen
                    cx.emitUnguarded("CCTL", List.of("IVALL"), List.of(), List.of()).setGuard(new Guard(p, false));
                }
            }
            case "mbarrier.pending_count" -> pendingCount(cx, ops);
            default -> throw cx.unsupported(op);
        }
    }

    /** {@code [state,] [a], tx}: {@code SYNCS.ARRIVE.TRANS64<mods> Rd, [a], Rtx}. */
    private static void arriveExpectTx(LoweringContext cx, Instruction insn, List<Operand> ops, List<String> mods)
            throws CompilationException {
        cx.emit("SYNCS", syncs(mods, null), List.of(state(cx, ops.get(0))),
                List.of(Src.of(barrier(cx, insn, ops.get(1))), register(cx, ops.get(2))));
    }

    /**
     * {@code pending_count d, state}: the state's arrival counter (bits 43..62, counting up to 2^20) as pending
     * arrivals, {@code 2^20 - ((hi >> 11) & 0xfffff)} (ptxas 13: SHF.R.U32.HI, LOP3.LUT, IADD3).
     */
    private static void pendingCount(LoweringContext cx, List<Operand> ops) throws CompilationException {
        Src state = cx.src(ops.get(1), PtxType.B64);
        if (!(state.value() instanceof Reg r) || r.comps() != 2) {
            throw cx.unsupported("mbarrier.pending_count state other than a 64-bit register");
        }
        Reg shifted = Ptx.r32(cx);
        cx.emit("SHF", List.of("R", "U32", "HI"), List.of(shifted),
                List.of(Ptx.rz(), Ptx.imm(11), Src.of(r.component(1))));
        Reg field = Ptx.r32(cx);
        cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, field),
                List.of(Src.of(shifted), Ptx.imm(0xfffff), Ptx.rz(), Ptx.imm(0x40), Ptx.notPt()));
        cx.emit("IADD3", List.of(), List.of(cx.dst(ops.get(0), PtxType.U32), Reg.PT, Reg.PT),
                List.of(Src.of(field).negated(), Ptx.imm(0x100000), Ptx.rz()));
    }

    private static void init(LoweringContext cx, List<Operand> ops) throws CompilationException {
        Instruction insn = cx.instruction();
        Addr a = barrier(cx, insn, ops.get(0));
        BasicBlock done = insn.guard() != null ? cx.branchAroundGuard() : null;
        Src n = cx.src(ops.get(1), PtxType.U32);
        Src lo;
        Src hi;
        if (n.value() instanceof Imm i) {
            long v = (0x100000L - i.bits()) & 0xffffffffL;
            lo = Ptx.imm((v << 1) & 0xffffffffL);
            hi = Ptx.imm((v << 11) & 0xffffffffL);
        } else {
            Reg v = Ptx.r32(cx);
            cx.emitUnguarded("IADD3", List.of(), List.of(v, Reg.PT, Reg.PT), List.of(n.negated(), Ptx.imm(0x100000),
                    Ptx.rz()));
            Reg l = Ptx.r32(cx);
            Reg h = Ptx.r32(cx);
            cx.emitUnguarded("SHF", List.of("L", "U32"), List.of(l), List.of(Src.of(v), Ptx.imm(1), Ptx.rz()));
            cx.emitUnguarded("SHF", List.of("L", "U32"), List.of(h), List.of(Src.of(v), Ptx.imm(11), Ptx.rz()));
            lo = Src.of(l);
            hi = Src.of(h);
        }
        Src at = Src.of(a.base());
        if (a.offset() != 0) { // SYNCS.EXCH.64 [UR+off] has no unguarded form: the offset goes into the address
            Reg r = Ptx.r32(cx);
            cx.emitUnguarded("IADD3", List.of(), List.of(r, Reg.PT, Reg.PT), List.of(at,
                    Ptx.imm(a.offset() & 0xffffffffL), Ptx.rz()));
            at = Src.of(r);
        }
        Reg ua = cx.newReg(RegFile.UR, 1);
        Reg word = cx.newReg(RegFile.UR, 2);
        UniformLoop.forEach(cx, List.of(at, lo, hi), List.of(ua, word.component(0), word.component(1)), false,
                () -> cx.emitUnguarded("SYNCS", List.of("EXCH", "64"), List.of(Reg.URZ),
                        List.of(Src.of(Addr.of(ua, 0)), Src.of(word))));
        if (done != null) {
            cx.startBlock(done);
        }
    }

    /** {@code arrive[_drop] state, [a]{, count}}: {@code SYNCS.ARRIVE.TRANS64.kind.A1T0}, with a count {@code .ART0}. */
    private static void arrive(LoweringContext cx, Instruction insn, List<Operand> ops, List<String> kind)
            throws CompilationException {
        Addr a = barrier(cx, insn, ops.get(1));
        if (ops.size() == 3) {
            cx.emit("SYNCS", syncs(kind, "ART0"), List.of(state(cx, ops.get(0))),
                    List.of(Src.of(a), register(cx, ops.get(2))));
        } else {
            cx.emit("SYNCS", syncs(kind, "A1T0"), List.of(state(cx, ops.get(0))), List.of(Src.of(a), Ptx.rz()));
        }
    }

    /** {@code SYNCS.ARRIVE.TRANS64[.RED | .TMASK.OPTOUT | .OPTOUT][.mode]}. */
    private static List<String> syncs(List<String> kind, String mode) {
        var mods = new java.util.ArrayList<>(List.of("ARRIVE", "TRANS64"));
        mods.addAll(kind);
        if (mode != null) {
            mods.add(mode);
        }
        return List.copyOf(mods);
    }

    /** The wait; returns its predicate. */
    private static Reg wait(LoweringContext cx, Instruction insn, boolean tryWait, List<Operand> ops)
            throws CompilationException {
        Reg p = cx.dst(ops.get(0), PtxType.PRED);
        Addr a = barrier(cx, insn, ops.get(1));
        Reg phase = Ptx.r32(cx);
        Src s = insn.hasModifier("parity") ? cx.src(ops.get(2), PtxType.U32) : cx.src(ops.get(2), PtxType.B64);
        if (insn.hasModifier("parity")) {
            if (s.value() instanceof Imm i) {
                cx.emit("MOV", List.of(), List.of(phase), List.of(Ptx.imm((i.bits() & 1) << 31)));
            } else {
                cx.emit("SHF", List.of("L", "U32"), List.of(phase), List.of(s, Ptx.imm(31), Ptx.rz()));
            }
        } else if (s.value() instanceof Reg r && r.comps() == 2) {
            phase = r.component(1);
        } else {
            throw cx.unsupported("mbarrier wait state operand");
        }
        if (!tryWait) {
            cx.emit("SYNCS", List.of("PHASECHK", "TRANS64"), List.of(p), List.of(Src.of(a), Src.of(phase)));
            return p;
        }
        if (ops.size() < 4) {
            cx.emit("SYNCS", List.of("PHASECHK", "TRANS64", "TRYWAIT"), List.of(p), List.of(Src.of(a),
                    Src.of(phase)));
            return p;
        }
        BasicBlock done = insn.guard() != null ? cx.branchAroundGuard() : null;
        Src hint = cx.src(ops.get(3), PtxType.U32);
        cx.emitUnguarded("SYNCS", List.of("PHASECHK", "TRANS64", "TRYWAIT"), List.of(p), List.of(Src.of(a),
                Src.of(phase)));
        cx.emitUnguarded("NANOSLEEP", List.of("SYNCS"), List.of(), List.of(hint)).setGuard(new Guard(p, true));
        cx.emitUnguarded("SYNCS", List.of("PHASECHK", "TRANS64"), List.of(p), List.of(Src.of(a), Src.of(phase)))
                .setGuard(new Guard(p, true));
        if (done != null) {
            cx.startBlock(done);
        }
        return p;
    }

    /** The barrier's address as the SYNCS forms take it: {@code [R+URZ+off]} in the shared window. */
    private static Addr barrier(LoweringContext cx, Instruction insn, Operand o) throws CompilationException {
        if (!insn.hasModifier("shared") && !insn.hasModifier("shared::cta") && !insn.hasModifier("shared::cluster")) {
            throw cx.unsupported("mbarrier on a generic address");
        }
        Addr a = cx.address((Operand.Address) o, StateSpace.SHARED);
        if (a.base().width() == 2) { // a 64-bit shared::cluster address: its low word
            a = new Addr(a.base().component(0), a.uniformBase(), a.offset());
        }
        if (a.base().isZero()) { // a symbol: its offset in a register (the forms have no [URZ+off] twin)
            Reg r = Ptx.r32(cx);
            cx.emit("MOV", List.of(), List.of(r), List.of(Ptx.imm(a.offset() & 0xffffffffL)));
            return new Addr(r, Reg.URZ, 0);
        }
        return new Addr(a.base(), Reg.URZ, a.offset());
    }

    private static Reg state(LoweringContext cx, Operand o) {
        return o instanceof Operand.Sink ? Reg.RZ : cx.dst(o, PtxType.B64);
    }

    /** A 32-bit count as a register (the SYNCS forms take no immediate). */
    private static Src register(LoweringContext cx, Operand o) {
        Src s = cx.src(o, PtxType.U32);
        if (s.value() instanceof Reg) {
            return s;
        }
        Reg r = Ptx.r32(cx);
        cx.emit("MOV", List.of(), List.of(r), List.of(s));
        return Src.of(r);
    }
}
