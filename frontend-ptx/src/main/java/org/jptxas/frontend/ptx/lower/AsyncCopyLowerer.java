package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
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
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TargetFeature;

/**
 * Asynchronous copies global → shared (sm_80+), as ptxas 13 writes them:
 * <ul>
 *   <li>{@code cp.async.ca|cg.shared{::cta}.global [s], [g], size{, src-size}}: {@code LDGSTS.E[.BYPASS][.64|.128]}
 *       ({@code .cg}: BYPASS). A source size equal to the copy size is a plain copy; an immediate 0 reads nothing
 *       ({@code , !PT}); other source sizes zero-fill ({@code .ZFILL}): the global address is advanced by the number
 *       of bytes to fill (cp-size − src-size, mod cp-size), which the instruction takes from the address's low bits,
 *       and a register source size adds the predicate {@code src-size != 0} (false: nothing read, all zeros).</li>
 *   <li>{@code cp.async.commit_group}: {@code LDGDEPBAR} (closes a group; scoreboard SB0 counts open groups).</li>
 *   <li>{@code cp.async.wait_group N}: {@code DEPBAR.LE SB0, N}; {@code cp.async.wait_all}: {@code LDGDEPBAR} then
 *       {@code DEPBAR.LE SB0, 0x0}.</li>
 *   <li>{@code cp.async.mbarrier.arrive[.noinc]}: {@link #arriveOnCopies}.</li>
 * </ul>
 * A guarded copy is branched around (a false read predicate would write zeros). An L2 prefetch size
 * ({@code .L2::64B/128B/256B}) becomes {@code .LTC64B/.LTC128B/.LTC256B} after {@code .BYPASS}. An
 * {@code ignore-src} predicate p is LDGSTS's read predicate negated ({@code PLOP3.LUT q, PT, p, PT, PT, 0x0f, 0x0};
 * p true: nothing read, all zeros). A cache hint ({@code .L2::cache_hint} with a policy operand, the last one) is a
 * performance hint only: the copy is written without it (ptxas puts the policy in the descriptor register).
 */
@AutoService(InstructionLowerer.class)
public final class AsyncCopyLowerer implements InstructionLowerer {
    /** The scoreboard DEPBAR.LE counts copy groups on (LDGDEPBAR sets it). */
    static final SpecialReg GROUPS = new SpecialReg("SB0");

    @Override
    public Set<String> opcodes() {
        return Set.of("cp.async", "cp.async.commit_group", "cp.async.wait_group", "cp.async.wait_all",
                "cp.async.mbarrier.arrive");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (insn.hasModifier("mbarrier") && insn.hasModifier("arrive")) {
            arriveOnCopies(insn, cx);
        } else if (insn.hasModifier("commit_group")) {
            cx.emit("LDGDEPBAR", List.of(), List.of(), List.of());
        } else if (insn.hasModifier("wait_group")) {
            long n = immediate(cx, insn.operands().get(0));
            if (n < 0 || n > 63) {
                throw cx.unsupported("wait_group count " + n);
            }
            wait(cx, n);
        } else if (insn.hasModifier("wait_all")) {
            cx.emit("LDGDEPBAR", List.of(), List.of(), List.of());
            wait(cx, 0);
        } else {
            copy(insn, cx);
        }
    }

    /**
     * {@code cp.async.mbarrier.arrive[.noinc].shared{::cta}.b64 [bar]} (sm_90), as ptxas 13 writes it: per distinct
     * barrier address among the lanes (a uniform loop, each trip guarded by the lanes it serves)
     * {@code SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [UR], RZ} (one more expected transaction) and
     * {@code ARRIVES.LDGSTSBAR.64.TRANSCNT [UR]} (the thread's copies complete it); {@code .noinc}:
     * {@code ARRIVES.LDGSTSBAR.64.ARVCNT [UR]} (their completion is one of the phase's arrivals).
     */
    private static void arriveOnCopies(Instruction insn, LoweringContext cx) throws CompilationException {
        if (!cx.profile().has(TargetFeature.TRANSACTION_BARRIERS)) {
            throw cx.unsupported("cp.async.mbarrier.arrive needs sm_90 here");
        }
        if (!insn.hasModifier("shared") && !insn.hasModifier("shared::cta") || insn.operands().size() != 1) {
            throw cx.unsupported("cp.async.mbarrier.arrive on a generic address");
        }
        boolean noinc = insn.hasModifier("noinc");
        BasicBlock done = insn.guard() != null ? cx.branchAroundGuard() : null;
        Addr a = cx.address((Operand.Address) insn.operands().get(0), StateSpace.SHARED);
        Src at;
        if (a.base().isZero()) {
            at = Ptx.imm(a.offset() & 0xffffffffL);
        } else if (a.offset() != 0) {
            Reg r = Ptx.r32(cx);
            cx.emitUnguarded("IADD3", List.of(), List.of(r, Reg.PT, Reg.PT), List.of(Src.of(a.base()),
                    Ptx.imm(a.offset() & 0xffffffffL), Ptx.rz()));
            at = Src.of(r);
        } else {
            at = Src.of(a.base());
        }
        Reg ua = cx.newReg(RegFile.UR, 1);
        UniformLoop.forEachServing(cx, List.of(at), List.of(ua), false, served -> {
            Src bar = Src.of(Addr.of(ua, 0));
            if (!noinc) {
                guarded(cx.emitUnguarded("SYNCS", List.of("ARRIVE", "TRANS64", "RED", "A0T1"), List.of(Reg.RZ),
                        List.of(bar, Ptx.rz())), served);
            }
            guarded(cx.emitUnguarded("ARRIVES", List.of("LDGSTSBAR", "64", noinc ? "ARVCNT" : "TRANSCNT"),
                    List.of(), List.of(bar)), served);
        });
        if (done != null) {
            cx.startBlock(done);
        }
    }

    private static void guarded(Instr in, Reg served) {
        if (served != null) {
            in.setGuard(new Guard(served, false));
        }
    }

    private static void wait(LoweringContext cx, long pending) {
        cx.emit("DEPBAR", List.of("LE"), List.of(), List.of(Src.of(GROUPS), Ptx.imm(pending)));
    }

    private static void copy(Instruction insn, LoweringContext cx) throws CompilationException {
        String prefetch = null;
        boolean cacheHint = false;
        for (String m : insn.modifiers()) {
            switch (m) {
                case "async", "ca", "cg", "shared", "shared::cta", "global" -> { }
                case "L2::cache_hint" -> cacheHint = true;
                // the L2 prefetch size, kept as ptxas keeps it: LDGSTS .LTC64B/.LTC128B/.LTC256B (bits 72:71)
                case "L2::64B" -> prefetch = "LTC64B";
                case "L2::128B" -> prefetch = "LTC128B";
                case "L2::256B" -> prefetch = "LTC256B";
                default -> throw cx.unsupported("cp.async qualifier ." + m);
            }
        }
        List<Operand> ops = cacheHint && insn.operands().size() >= 4
                ? insn.operands().subList(0, insn.operands().size() - 1) : insn.operands();
        if (ops.size() < 3 || ops.size() > 4 || immediate(cx, ops.get(2)) < 0) {
            throw cx.unsupported("cp.async operands");
        }
        int size = (int) immediate(cx, ops.get(2));
        boolean bypass = insn.hasModifier("cg");
        if (size != 4 && size != 8 && size != 16 || bypass && size != 16) {
            throw cx.unsupported("cp-size " + size);
        }
        // A guarded-off copy writes nothing, but LDGSTS's read predicate, false, writes zeros: branch around it
        // (the tables have no guarded LDGSTS; ptxas branches too).
        BasicBlock done = insn.guard() != null ? cx.branchAroundGuard() : null;
        Addr shared = cx.address((Operand.Address) ops.get(0), StateSpace.SHARED);
        Addr global = cx.address((Operand.Address) ops.get(1), StateSpace.GLOBAL);
        List<String> mods = new ArrayList<>(List.of("E"));
        if (bypass) {
            mods.add("BYPASS");
        }
        if (prefetch != null) {
            mods.add(prefetch); // nvdisasm's order: after .BYPASS, before the size
        }
        if (size > 4) {
            mods.add(Integer.toString(8 * size));
        }
        List<Src> srcs = new ArrayList<>(List.of(Src.of(shared)));
        if (ops.size() == 3) {
            srcs.add(Src.of(global));
        } else if (immediate(cx, ops.get(3)) >= 0) {
            long srcSize = immediate(cx, ops.get(3));
            if (srcSize < 0 || srcSize > size) {
                throw cx.unsupported("src-size " + srcSize);
            }
            if (srcSize == 0) {
                srcs.add(Src.of(global));
                srcs.add(Ptx.notPt()); // nothing read: all zeros
            } else if (srcSize == size) {
                srcs.add(Src.of(global));
            } else {
                mods.add("ZFILL");
                srcs.add(Src.of(Addr.of(global.base(), global.offset() + size - srcSize)));
            }
        } else if (isPredicate(cx, ops.get(3))) {
            srcs.add(Src.of(global));
            Reg read = Ptx.pred(cx);
            cx.emit("PLOP3", List.of("LUT"), List.of(read, Reg.PT),
                    List.of(Compare.predSrc(cx, ops.get(3)), Ptx.pt(), Ptx.pt(), Ptx.imm(0x0f), Ptx.imm(0)));
            srcs.add(Src.of(read));
        } else {
            Src n = cx.src(ops.get(3), PtxType.U32);
            mods.add("ZFILL");
            srcs.add(Src.of(Addr.of(filled(cx, global.base(), n, size), global.offset())));
            Reg any = Ptx.pred(cx);
            cx.emit("ISETP", List.of("NE", "U32", "AND"), List.of(any, Reg.PT), List.of(n, Ptx.rz(), Ptx.pt()));
            srcs.add(Src.of(any));
        }
        cx.emit("LDGSTS", mods, List.of(), srcs);
        if (done != null) {
            cx.startBlock(done);
        }
    }

    /** {@code base + ((size - n) & (size - 1))}: the address whose low bits tell LDGSTS.ZFILL how many bytes to fill. */
    private static Reg filled(LoweringContext cx, Reg base, Src n, int size) {
        Reg fill = Ptx.r32(cx);
        cx.emit("IADD3", List.of(), List.of(fill, Reg.PT, Reg.PT), List.of(n.negated(), Ptx.imm(size), Ptx.rz()));
        cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, fill),
                List.of(Src.of(fill), Ptx.imm(size - 1), Ptx.rz(), Ptx.imm(0xc0), Ptx.notPt()));
        Reg carry = Ptx.pred(cx);
        Reg sum = cx.newReg(RegFile.R, 2);
        cx.emit("IADD3", List.of(), List.of(sum.component(0), carry, Reg.PT),
                List.of(Src.of(base.component(0)), Src.of(fill), Ptx.rz()));
        cx.emit("IADD3", List.of("X"), List.of(sum.component(1), Reg.PT, Reg.PT),
                List.of(Src.of(base.component(1)), Ptx.rz(), Ptx.rz(), Src.of(carry), Ptx.notPt()));
        return sum;
    }

    /** The value of a constant operand, or -1 when it is not one. */
    private static long immediate(LoweringContext cx, Operand o) {
        return cx.src(o, PtxType.U32).value() instanceof Imm i ? i.bits() & 0xffffffffL : -1;
    }

    private static boolean isPredicate(LoweringContext cx, Operand o) {
        return cx.src(o, PtxType.U32).value() instanceof Reg r && r.file() == RegFile.P;
    }
}
