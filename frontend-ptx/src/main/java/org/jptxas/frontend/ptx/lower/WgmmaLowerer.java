package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Hopper's warpgroup multiplies (sm_90a), as ptxas writes them:
 * <ul>
 * <li>{@code wgmma.fence}: {@code WARPGROUP.ARRIVE};</li>
 * <li>{@code wgmma.mma_async.sync.aligned.m64nNkK.D.A.B d, a, b-desc, scale-d, ...}: {@code HGMMA.64xNxK.TYPES
 * Rd, gdesc[URx].flags, Rd[, !UPT]} (A and B descriptors in the uniform quad URx..URx+3), or with A in registers
 * {@code HGMMA... Rd, Ra, gdesc[URx].flags, Rd} (B's descriptor in the pair URx, URx+1); {@code imm-scale} -1 is
 * {@code .negA}/{@code .negB}, {@code imm-trans} 1 is {@code .tnspA}/{@code .tnspB}, a false {@code scale-d}
 * ({@code D = A B}) is {@code !UPT};</li>
 * <li>{@code wgmma.commit_group}: the group's last multiply gets {@code gsb0};</li>
 * <li>{@code wgmma.wait_group N}: {@code WARPGROUP.DEPBAR.LE gsb0, N}.</li>
 * </ul>
 * The accumulators are fixed registers ({@link WarpgroupAccumulators}); ARRIVE reads, and DEPBAR reads and writes,
 * every register of the accumulators live there, and the multiply reads and writes its own, so in Ori nothing
 * touching a live accumulator moves across them (the multiply's result lands at the wait). Accumulators that are
 * never live at once may share registers, so these instructions name only the live ones. The shapes and types come from {@link GmmaTypes}.
 */
@AutoService(InstructionLowerer.class)
public final class WgmmaLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("wgmma.fence", "wgmma.commit_group", "wgmma.wait_group", "wgmma.mma_async");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        WarpgroupAccumulators acc = cx.warpgroupAccumulators();
        if (acc.problem() != null) {
            throw cx.unsupported(acc.problem());
        }
        List<String> mods = insn.modifiers();
        List<Reg> kept = acc.registersAt(insn);
        List<Src> all = new ArrayList<>();
        for (Reg r : kept) {
            all.add(Src.of(r));
        }
        if (mods.contains("fence")) {
            cx.emit("WARPGROUP", List.of("ARRIVE"), List.of(), all);
        } else if (mods.contains("commit_group")) {
            if (acc.uncommitted != null) {
                List<String> m = new ArrayList<>(acc.uncommitted.mods());
                m.add(GSB0);
                acc.uncommitted.setMods(m);
                acc.uncommitted = null;
            }
        } else if (mods.contains("wait_group")) {
            Src n = cx.src(insn.operands().get(0), PtxType.U32);
            if (!(n.value() instanceof Imm)) {
                throw cx.unsupported("a wait_group count that is not a constant");
            }
            List<Src> srcs = new ArrayList<>();
            srcs.add(n);
            srcs.addAll(all);
            cx.emit("WARPGROUP", List.of("DEPBAR", "LE"), kept, srcs);
        } else if (mods.contains("mma_async")) {
            multiply(insn, cx, acc);
        } else {
            throw cx.unsupported("this wgmma form");
        }
    }

    /** The Ori modifier that marks the last multiply of a committed group ({@code , gsb0} in SASS). */
    public static final String GSB0 = "gsb0";

    private static void multiply(Instruction insn, LoweringContext cx, WarpgroupAccumulators acc)
            throws CompilationException {
        GmmaTypes.Row row = GmmaTypes.of(insn.modifiers());
        if (row == null) {
            throw cx.unsupported("this wgmma shape or type combination");
        }
        List<Operand> ops = insn.operands();
        boolean regA = ops.get(1) instanceof Operand.Vector;
        int fixedOps = 4 + row.immediates(regA);
        if (ops.size() != fixedOps) {
            throw cx.unsupported("operand count");
        }
        List<Operand> d = ((Operand.Vector) ops.get(0)).elements();
        if (d.size() != row.accumulatorRegisters()) {
            throw cx.unsupported("accumulator of " + d.size() + " registers");
        }
        List<Reg> dregs = new ArrayList<>();
        for (int k = 0; k < d.size(); k++) {
            Reg r = d.get(k) instanceof Operand.Sink ? null : cx.dst(d.get(k), PtxType.B32);
            if (r == null || r.virtual() || (k > 0 && r.index() != dregs.get(0).index() + k)) {
                throw cx.unsupported("a wgmma accumulator that is not one block of registers");
            }
            dregs.add(r);
        }
        List<Src> srcs = new ArrayList<>();
        if (regA) {
            List<Operand> a = ((Operand.Vector) ops.get(1)).elements();
            if (a.size() != 4) {
                throw cx.unsupported("A fragment of " + a.size() + " registers");
            }
            Reg t = cx.newReg(RegFile.R, 4);
            for (int k = 0; k < 4; k++) {
                cx.emit("MOV", List.of(), List.of(t.component(k)), List.of(cx.src(a.get(k), PtxType.B32)));
            }
            // the hardware reads B's descriptor from URx+2..URx+3 of gdesc[URx] with A in registers too (ptxas's
            // HGMMA.64x64x16.F32 R24, R56, gdesc[UR4].tnspB, R24 after UMOV UR6, UR7 = B): the tuple's first pair is
            // not read, and is zeroed so that nothing reads an undefined register
            Reg q = cx.newReg(RegFile.UR, 4);
            for (int h = 0; h < 2; h++) {
                cx.emit("UMOV", List.of(), List.of(q.component(h)), List.of(Src.of(Imm.ofInt(0))));
            }
            descriptor(cx, ops.get(2), q, 2);
            srcs.add(Src.of(t));
            srcs.add(Src.of(q));
        } else {
            Reg q = cx.newReg(RegFile.UR, 4);
            descriptor(cx, ops.get(1), q, 0);
            descriptor(cx, ops.get(2), q, 2);
            srcs.add(Src.of(q));
        }
        Boolean scaleD = constantPredicate(ops.get(3), cx);
        if (scaleD == null) {
            throw cx.unsupported("a wgmma scale-d predicate that is not a constant");
        }
        srcs.add(scaleD ? Src.of(Reg.UPT) : Src.of(Reg.UPT).inverted());
        for (Reg r : dregs) {
            srcs.add(Src.of(r));
        }
        List<String> mods = new ArrayList<>(row.sassModifiers());
        int imm = 4;
        int scaleA = row.hasScale() ? intLiteral(ops.get(imm++), cx) : 1;
        int scaleB = row.hasScale() ? intLiteral(ops.get(imm++), cx) : 1;
        int transA = row.hasTranspose() && !regA ? intLiteral(ops.get(imm++), cx) : 0;
        int transB = row.hasTranspose() ? intLiteral(ops.get(imm++), cx) : 0;
        if (Math.abs(scaleA) != 1 || Math.abs(scaleB) != 1 || (transA & ~1) != 0 || (transB & ~1) != 0) {
            throw cx.unsupported("wgmma immediate scale or transpose values");
        }
        // nvdisasm's order on the descriptor: .negA .tnspA .negB .tnspB (gdesc[UR8].negA.tnspB)
        if (scaleA < 0) {
            mods.add("negA");
        }
        if (transA == 1) {
            mods.add("tnspA");
        }
        if (scaleB < 0) {
            mods.add("negB");
        }
        if (transB == 1) {
            mods.add("tnspB");
        }
        if (!GmmaTypes.encodable(row.sassOpcode(), mods, regA)) {
            throw cx.unsupported("the SASS encoding " + row.sassOpcode() + "." + String.join(".", mods)
                    + (regA ? " with A in registers" : "") + " (not in the sm_90a tables yet)");
        }
        Instr in = cx.emit(row.sassOpcode(), mods, dregs, srcs);
        acc.uncommitted = in;
    }

    /** A 64-bit matrix descriptor moved into parts {@code at}, {@code at + 1} of the uniform tuple {@code q}. */
    private static void descriptor(LoweringContext cx, Operand o, Reg q, int at) throws CompilationException {
        Src v = cx.src(o, PtxType.B64);
        for (int h = 0; h < 2; h++) {
            Src half = Ptx.part(v, h);
            boolean constant = half.value() instanceof Imm;
            cx.emit(constant ? "UMOV" : "R2UR", List.of(), List.of(q.component(at + h)), List.of(half));
        }
    }

    private static int intLiteral(Operand o, LoweringContext cx) throws CompilationException {
        Long v = WarpgroupAccumulators.literal(o);
        if (v != null) {
            return v.intValue();
        }
        throw cx.unsupported("a wgmma immediate that is not an integer literal");
    }

    /** The value of a scale-d operand when it is a literal or a predicate only ever set to one constant, else null. */
    private static Boolean constantPredicate(Operand o, LoweringContext cx) {
        Long v = WarpgroupAccumulators.literal(o);
        if (v != null) {
            return v != 0;
        }
        if (o instanceof Expr.SymbolRef r) {
            return cx.warpgroupAccumulators().constantPredicate(r.name());
        }
        return null;
    }
}
