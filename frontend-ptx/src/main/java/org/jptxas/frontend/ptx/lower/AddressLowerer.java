package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.BankWindow;

/**
 * {@code cvta}, {@code isspacep}: generic ↔ window addresses as ptxas computes
 * them (window bases in constant bank 0: shared at {@code c[0x0][0x18]}, local at {@code c[0x0][0x20]}; global is
 * identity; shared ones where addresses carry the cluster rank: {@link #sharedWithRank}), QSPC for
 * {@code isspacep.shared/local/global}, a window range check for {@code isspacep.const/param}.
 */
@AutoService(InstructionLowerer.class)
public final class AddressLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("cvta", "isspacep");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        switch (insn.opcode()) {
            case "cvta" -> cvta(insn, cx);
            default -> isspacep(insn, cx);
        }
    }

    private static int windowBase(StateSpace s, LoweringContext cx) {
        if (s == StateSpace.CONST) {
            return cx.profile().constWindow().slot();
        }
        return s == StateSpace.LOCAL ? 0x20 : 0x18;
    }

    private void cvta(Instruction insn, LoweringContext cx) throws CompilationException {
        boolean toWindow = insn.hasModifier("to");
        StateSpace space = MemoryLowerer.space(insn);
        PtxType t = Ptx.type(insn);
        Reg d = cx.dst(Ptx.op(insn, 0), t);
        Src a = cx.src(Ptx.op(insn, 1), t);
        if (space == StateSpace.PARAM) {
            if (toWindow) {
                cvtaToParam(cx, d, a);
            } else {
                cvtaParam(cx, d, a);
            }
            return;
        }
        if (space == null || (space != StateSpace.GLOBAL && space != StateSpace.SHARED && space != StateSpace.LOCAL
                && space != StateSpace.CONST)) {
            throw cx.unsupported(null);
        }
        if (space == StateSpace.CONST && cx.profile().constWindow() == null) {
            throw cx.unsupported("generic addresses of .const on " + cx.target().name());
        }
        if (space == StateSpace.GLOBAL) {
            MovLowerer.move(cx, d, a, t);
            return;
        }
        int base = windowBase(space, cx);
        if (space == StateSpace.SHARED && SharedAddresses.rankInAddress(cx)) {
            sharedWithRank(cx, d, a, toWindow);
            return;
        }
        if (toWindow) {
            windowOffset(cx, d.width() == 2 ? d.component(0) : d, a, space);
            if (d.width() == 2) {
                cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Ptx.rz()));
            }
            return;
        }
        if (d.width() != 2) {
            throw cx.unsupported("32-bit generic addresses");
        }
        windowGeneric(cx, d, Ptx.lo(a), base);
    }

    /** The generic address {@code d} (a pair) of window offset {@code a}: the window's pointer at c[0x0][base] plus it. */
    static void windowGeneric(LoweringContext cx, Reg d, Src a, int base) {
        Reg carry = Ptx.pred(cx);
        Reg lo = Ptx.r32(cx);
        cx.emit("IADD3", List.of(), List.of(lo, carry, Reg.PT), List.of(a, Src.of(CBank.of(0, base)), Ptx.rz()));
        cx.emit("IADD3", List.of("X"), List.of(d.component(1), Reg.PT, Reg.PT),
                List.of(Ptx.rz(), Src.of(CBank.of(0, base + 4)), Ptx.rz(), Src.of(carry), Ptx.notPt()));
        cx.emit("MOV", List.of(), List.of(d.component(0)), List.of(Src.of(lo)));
    }

    /**
     * {@code cvta[.to].shared} where shared addresses carry the cluster rank ({@link SharedAddresses}), as ptxas 13
     * does: a generic shared address is the shared address (its low word) under the window's high word
     * ({@code SR_SWINHI}), and back the low word alone (the rank in its top byte stays).
     */
    private static void sharedWithRank(LoweringContext cx, Reg d, Src a, boolean toWindow) throws CompilationException {
        Reg lo = d.width() == 2 ? d.component(0) : d;
        if (toWindow) {
            cx.emit("MOV", List.of(), List.of(lo), List.of(Ptx.lo(a)));
            if (d.width() == 2) {
                cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Ptx.rz()));
            }
            return;
        }
        if (d.width() != 2) {
            throw cx.unsupported("32-bit generic addresses");
        }
        Reg hi = Ptx.r32(cx);
        cx.emitUnguarded("S2R", List.of(), List.of(hi),
                List.of(Src.of(new org.jptxas.ori.ir.SpecialReg("SR_SWINHI"))));
        cx.emit("MOV", List.of(), List.of(lo), List.of(Ptx.lo(a)));
        cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Src.of(hi)));
    }

    /**
     * {@code cvta.param.u64 d, a}: the generic address of a kernel parameter. A parameter's address (a {@code mov} of
     * its name) is its offset in constant bank 0 here, so {@code d = pointer + (a - pointee)}, with a 64-bit carry as
     * ptxas adds it ({@code UIADD3 / UIADD3.X}).
     */
    static void cvtaParam(LoweringContext cx, Reg d, Src a) throws CompilationException {
        BankWindow p = cx.profile().paramWindow();
        if (p == null) {
            throw cx.unsupported("generic addresses of kernel parameters on " + cx.target().name());
        }
        if (d.width() != 2) {
            throw cx.unsupported("32-bit generic addresses");
        }
        Src off = Ptx.lo(a);
        if (p.pointee() != 0) {
            Reg rel = Ptx.r32(cx);
            cx.emit("IADD3", List.of(), List.of(rel, Reg.PT, Reg.PT),
                    List.of(off, Src.of(org.jptxas.ori.ir.Imm.ofInt(-p.pointee())), Ptx.rz()));
            off = Src.of(rel);
        }
        Reg carry = Ptx.pred(cx);
        Reg lo = Ptx.r32(cx);
        cx.emit("IADD3", List.of(), List.of(lo, carry, Reg.PT), List.of(off, Src.of(CBank.of(0, p.slot())), Ptx.rz()));
        cx.emit("IADD3", List.of("X"), List.of(d.component(1), Reg.PT, Reg.PT),
                List.of(Ptx.rz(), Src.of(CBank.of(0, p.slot() + 4)), Ptx.rz(), Src.of(carry), Ptx.notPt()));
        cx.emit("MOV", List.of(), List.of(d.component(0)), List.of(Src.of(lo)));
    }

    /**
     * {@code cvta.to.param.u64 d, a}: back from a generic address to a parameter's address, which is its offset in
     * constant bank 0 here: {@code d = a - pointer + pointee} (ptxas subtracts the parameter area's generic start).
     */
    private static void cvtaToParam(LoweringContext cx, Reg d, Src a) throws CompilationException {
        BankWindow p = cx.profile().paramWindow();
        if (p == null) {
            throw cx.unsupported("generic addresses of kernel parameters on " + cx.target().name());
        }
        if (d.width() != 2) {
            throw cx.unsupported("32-bit generic addresses");
        }
        Reg off = bankOffset(cx, a, p);
        MovLowerer.move(cx, d, Src.of(off), PtxType.U64);
    }

    /** The constant-bank offset a generic address {@code a} names in window {@code w}: {@code a - pointer + pointee}. */
    private static Reg bankOffset(LoweringContext cx, Src a, BankWindow w) {
        Reg base = cx.newReg(RegFile.R, 2);
        cx.emit("MOV", List.of(), List.of(base.component(0)), List.of(Src.of(CBank.of(0, w.slot()))));
        cx.emit("MOV", List.of(), List.of(base.component(1)), List.of(Src.of(CBank.of(0, w.slot() + 4))));
        Reg off = cx.newReg(RegFile.R, 2);
        IntArith.add64(cx, off, a, Src.of(base), true);
        if (w.pointee() == 0) {
            return off;
        }
        Reg bank = cx.newReg(RegFile.R, 2);
        IntArith.add64(cx, bank, Src.of(off), Src.of(new Imm(w.pointee())), false);
        return bank;
    }

    /**
     * {@code isspacep.const/param}: whether the generic address falls in the window: the module's {@code .const}
     * variables (their bytes, as ptxas bounds the window by them), or constant bank 0 where the parameters live.
     */
    private static void inBankWindow(LoweringContext cx, Reg p, Src a, StateSpace space) throws CompilationException {
        BankWindow w = space == StateSpace.CONST ? cx.profile().constWindow() : cx.profile().paramWindow();
        if (w == null) {
            throw cx.unsupported("generic addresses of " + space + " on " + cx.target().name());
        }
        long size = space == StateSpace.CONST ? DataLayout.constBytes(cx.resolved().module()) : 0x10000;
        if (size == 0) {
            cx.emit("PLOP3", List.of("LUT"), List.of(p, Reg.PT),
                    List.of(Ptx.pt(), Ptx.pt(), Ptx.pt(), Ptx.imm(0), Ptx.imm(0)));
            return;
        }
        Reg off = bankOffset(cx, a, w);
        Reg below = Ptx.pred(cx);
        cx.emit("ISETP", List.of("LT", "U32", "AND"), List.of(below, Reg.PT),
                List.of(Src.of(off.component(0)), Ptx.imm((int) size), Ptx.pt()));
        cx.emit("ISETP", List.of("EQ", "U32", "AND"), List.of(p, Reg.PT),
                List.of(Src.of(off.component(1)), Ptx.rz(), Src.of(below)));
    }

    /**
     * {@code dst = generic - window base}: the offset in the window of {@code space} of a generic address (its low
     * 32 bits suffice), as {@code cvta.to} computes it and as instructions that take only window addresses need it.
     */
    static void windowOffset(LoweringContext cx, Reg dst, Src generic, StateSpace space) {
        cx.emit("IADD3", List.of(), List.of(dst, Reg.PT, Reg.PT),
                List.of(Ptx.lo(generic), Src.of(CBank.of(0, windowBase(space, cx))).negated(), Ptx.rz()));
    }

    private void isspacep(Instruction insn, LoweringContext cx) throws CompilationException {
        StateSpace space = MemoryLowerer.space(insn);
        Reg p = cx.dst(Ptx.op(insn, 0), PtxType.PRED);
        Src a = cx.src(Ptx.op(insn, 1), PtxType.U64);
        if (space == StateSpace.CONST || space == StateSpace.PARAM) {
            inBankWindow(cx, p, a, space);
            return;
        }
        String kind = switch (space == null ? StateSpace.REG : space) {
            case SHARED -> "S";
            case LOCAL -> "L";
            case GLOBAL -> "G";
            default -> null;
        };
        if (kind == null || !(a.value() instanceof Reg r) || r.width() != 2) {
            throw cx.unsupported(null);
        }
        cx.emit("QSPC", List.of("E", kind), List.of(p, Reg.RZ), List.of(Src.of(org.jptxas.ori.ir.Addr.of(r, 0))));
    }
}
