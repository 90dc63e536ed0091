package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code ld}, {@code st}, {@code ldu}: LDG/STG (global), LDS/STS (shared), LDL/STL (local), LD/ST (generic), LDC or a
 * constant-bank MOV ({@code .const}, kernel parameters); {@code .param} of device functions and call sites are
 * registers. Vectors become one wide access into a register tuple. Memory-order qualifiers are spelled as ptxas
 * spells them on sm_80: {@code .volatile} → {@code STRONG.SYS}, {@code .relaxed.gpu} → {@code STRONG.GPU},
 * {@code .acquire} adds {@code CCTL.IVALL} after the load, {@code .release} puts {@code MEMBAR; ERRBAR} before the
 * store; {@code .nc}/{@code ldu} → {@code CONSTANT}; cache hints {@code .cs} → {@code EF}, {@code .cg} →
 * {@code STRONG.GPU}, {@code .cv} → {@code STRONG.SYS}.
 */
@AutoService(InstructionLowerer.class)
public final class MemoryLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("ld", "st", "ldu");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (ClusterMemory.applies(insn)) {
            ClusterMemory.lower(insn, cx, this);
            return;
        }
        boolean load = !insn.opcode().equals("st");
        StateSpace space = space(insn);
        PtxType t = Ptx.type(insn);
        int vec = insn.hasModifier("v8") ? 8 : insn.hasModifier("v4") ? 4 : insn.hasModifier("v2") ? 2 : 1;
        Operand.Address addrOp = (Operand.Address) insn.operands().get(load ? 1 : 0);
        Operand value = insn.operands().get(load ? 0 : 1);
        if (value instanceof Operand.Vector one && one.elements().size() == 1 && vec == 1) {
            value = one.elements().get(0); // { %r1 }: a braced scalar, as Triton writes them
        }
        int elemBytes = t == PtxType.PRED ? 4 : t.sizeBytes();
        if (vec > 1 && !(value instanceof Operand.Vector)) {
            // a vector register (.reg .v4 .u32 %v): one scalar access of the whole width
            if (elemBytes * vec > 16 || elemBytes < 4) {
                throw cx.unsupported("vector register of sub-word elements");
            }
            t = elemBytes * vec == 8 ? PtxType.B64 : elemBytes * vec == 16 ? PtxType.B128 : PtxType.B32;
            elemBytes = t.sizeBytes();
            vec = 1;
        }
        int bytes = elemBytes * vec;
        boolean cacheHint = insn.modifiers().stream().anyMatch(m -> m.startsWith("L2::") && m.contains("cache_hint"));
        if (bytes > 16 || cacheHint && space != StateSpace.GLOBAL && space != null) {
            throw cx.unsupported(null);
        }
        if (space == StateSpace.PARAM) {
            param(insn, cx, load, t, vec, addrOp, value);
            return;
        }
        Addr addr = cx.address(addrOp, space);
        List<String> mods = new ArrayList<>();
        String op;
        switch (space == null ? StateSpace.REG : space) {
            case GLOBAL -> {
                op = load ? "LDG" : "STG";
                mods.add("E");
            }
            case SHARED -> op = load ? "LDS" : "STS";
            case LOCAL -> op = load ? "LDL" : "STL";
            case CONST -> {
                if (!load) {
                    throw cx.unsupported(null);
                }
                loadConst(cx, t, vec, elemBytes, addr, value);
                return;
            }
            default -> {
                op = load ? "LD" : "ST";
                mods.add("E");
            }
        }
        String size = Ptx.sizeMod(t, elemBytes * vec == bytes && vec == 1 ? elemBytes : bytes);
        if (size != null && !load && size.startsWith("S")) {
            size = "U" + size.substring(1); // a store writes the low bytes whatever their sign: ptxas's STS.U16
        }
        boolean global = space == StateSpace.GLOBAL || space == null;
        boolean ordered = insn.hasModifier("volatile") || insn.hasModifier("relaxed") || insn.hasModifier("acquire")
                || insn.hasModifier("release") || insn.hasModifier("nc") || insn.opcode().equals("ldu")
                || insn.hasModifier("cg") || insn.hasModifier("cv");
        if (global && !ordered && (insn.hasModifier("cs") || insn.hasModifier("lu"))) {
            // the eviction priority prints before the size (LD.E.EF.U8); ld.lu is LU, ld/st.cs EF
            mods.add(load && insn.hasModifier("lu") ? "LU" : "EF");
        }
        if (size != null) {
            mods.add(size);
        }
        boolean acquire = insn.hasModifier("acquire");
        boolean release = insn.hasModifier("release");
        if (global) {
            String scope = insn.hasModifier("sys") ? "SYS" : insn.hasModifier("cta") ? "SM" : "GPU";
            if (insn.hasModifier("volatile")) {
                mods.add("STRONG");
                mods.add("SYS");
            } else if (insn.hasModifier("relaxed") || acquire || release) {
                mods.add("STRONG");
                mods.add(scope);
            } else if (insn.hasModifier("nc") || insn.opcode().equals("ldu")) {
                mods.add("CONSTANT");
            } else if (insn.hasModifier("cg")) {
                mods.add("STRONG");
                mods.add("GPU");
            } else if (insn.hasModifier("cv")) {
                mods.add("STRONG");
                mods.add("SYS");
            }
            if (release) {
                cx.emit("MEMBAR", List.of("ALL", insn.hasModifier("sys") ? "SYS" : insn.hasModifier("cta") ? "CTA" : "GPU"),
                        List.of(), List.of());
                cx.emit("ERRBAR", List.of(), List.of(), List.of());
            }
        } else if (acquire || release) {
            if (release) {
                cx.emit("MEMBAR", List.of("ALL", "CTA"), List.of(), List.of());
            }
        }
        // .L2::cache_hint: the 64-bit policy in a uniform pair after the address, which the access names as its
        // memory descriptor (ptxas: R2UR UR6, R2; R2UR UR7, R3; LDG.E R7, desc[UR6][R4.64])
        Src policy = cacheHint ? Src.of(uniformPolicy(cx, insn.operands().get(2))) : null;
        if (load) {
            Reg tuple = loadTarget(cx, value, t, vec, bytes);
            cx.emit(op, mods, List.of(tuple), policy == null ? List.of(Src.of(addr)) : List.of(Src.of(addr), policy));
            distribute(cx, tuple, value, t, vec);
            if (acquire && (space == StateSpace.GLOBAL || space == null)) {
                cx.emit("CCTL", List.of("IVALL"), List.of(), List.of());
            }
        } else {
            Src v = storeValue(cx, value, t, vec, bytes);
            cx.emit(op, mods, List.of(), policy == null ? List.of(Src.of(addr), v) : List.of(Src.of(addr), v, policy));
        }
    }

    /** A 64-bit cache policy moved into a fresh uniform register pair (also atom/red's, see AtomicLowerer). */
    static Reg uniformPolicy(LoweringContext cx, Operand o) throws CompilationException {
        Reg q = cx.newReg(RegFile.UR, 2);
        Src v = cx.src(o, PtxType.B64);
        for (int h = 0; h < 2; h++) {
            Src half = Ptx.part(v, h);
            cx.emit(half.value() instanceof org.jptxas.ori.ir.Imm ? "UMOV" : "R2UR", List.of(),
                    List.of(q.component(h)), List.of(half));
        }
        return q;
    }

    static StateSpace space(Instruction insn) {
        for (String m : insn.modifiers()) {
            switch (m) {
                case "global":
                    return StateSpace.GLOBAL;
                case "shared", "shared::cta": // the executing CTA's shared memory, the same window
                    return StateSpace.SHARED;
                case "local":
                    return StateSpace.LOCAL;
                case "const":
                    return StateSpace.CONST;
                case "param", "param::entry", "param::func": // ::entry names a kernel's parameters, ::func a
                    // function's and a call's (argument and return value), as plain .param does in each place
                    return StateSpace.PARAM;
                default:
                    break;
            }
        }
        return null;
    }

    /** The register a load writes: the destination itself for scalars, a fresh tuple for vectors. */
    private static Reg loadTarget(LoweringContext cx, Operand value, PtxType t, int vec, int bytes) {
        if (vec == 1) {
            Reg d = cx.dst(value, t);
            if (bytes <= 4 && d.width() == 2) {
                return cx.newReg(RegFile.R, 1);
            }
            return d;
        }
        return cx.newReg(RegFile.R, Math.max(1, bytes / 4));
    }

    /** Copies a loaded tuple into the vector's element registers (or extends a narrow scalar into a pair). */
    static void distribute(LoweringContext cx, Reg tuple, Operand value, PtxType t, int vec) {
        if (vec == 1) {
            Reg d = cx.dst(value, t);
            if (d != tuple && !d.equals(tuple)) {
                cx.emit("MOV", List.of(), List.of(d.component(0)), List.of(Src.of(tuple)));
                if (Ptx.signed(t)) {
                    cx.emit("SHF", List.of("R", "S32", "HI"), List.of(d.component(1)),
                            List.of(Ptx.rz(), Ptx.imm(31), Src.of(tuple)));
                } else {
                    cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Ptx.rz()));
                }
            }
            return;
        }
        List<Operand> els = ((Operand.Vector) value).elements();
        int elemBytes = t.sizeBytes();
        for (int k = 0; k < els.size(); k++) {
            if (els.get(k) instanceof Operand.Sink) {
                continue;
            }
            Reg d = cx.dst(els.get(k), t);
            if (elemBytes == 8) {
                cx.emit("MOV", List.of(), List.of(d.component(0)), List.of(Src.of(tuple.component(2 * k))));
                cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Src.of(tuple.component(2 * k + 1))));
            } else if (elemBytes == 4) {
                cx.emit("MOV", List.of(), List.of(d), List.of(Src.of(tuple.width() == 1 ? tuple : tuple.component(k))));
            } else if (elemBytes == 2) {
                Src word = Src.of(tuple.width() == 1 ? tuple : tuple.component(k / 2));
                cx.emit("PRMT", List.of(), List.of(d),
                        List.of(word, Ptx.imm(k % 2 == 0 ? (Ptx.signed(t) ? 0x9910 : 0x7610) : (Ptx.signed(t) ? 0xbb32 : 0x7632)),
                                Ptx.rz()));
            } else {
                Src word = Src.of(tuple);
                cx.emit("PRMT", List.of(), List.of(d), List.of(word, Ptx.imm(0x7770 + k), Ptx.rz()));
            }
        }
    }

    /** The value a store writes: the source itself for scalars, a tuple built from the elements for vectors. */
    static Src storeValue(LoweringContext cx, Operand value, PtxType t, int vec, int bytes) {
        if (vec == 1) {
            Src v = cx.src(value, t);
            if (v.value() instanceof Reg r && r.width() == 2 && bytes <= 4) {
                return Src.of(r.component(0));
            }
            if (!(v.value() instanceof Reg)) {
                Reg tmp = cx.newReg(RegFile.R, Math.max(1, bytes / 4));
                MovLowerer.move(cx, tmp, v, t);
                return Src.of(tmp);
            }
            return v;
        }
        List<Operand> els = ((Operand.Vector) value).elements();
        int elemBytes = t.sizeBytes();
        Reg tuple = cx.newReg(RegFile.R, Math.max(1, bytes / 4));
        if (elemBytes >= 4) {
            int per = elemBytes / 4;
            for (int k = 0; k < els.size(); k++) {
                Src e = cx.src(els.get(k), t);
                for (int c = 0; c < per; c++) {
                    cx.emit("MOV", List.of(), List.of(tuple.component(k * per + c)), List.of(Ptx.part(e, c)));
                }
            }
        } else if (elemBytes == 2) {
            for (int w = 0; w < els.size() / 2; w++) {
                Reg dst = tuple.width() == 1 ? tuple : tuple.component(w);
                cx.emit("PRMT", List.of(), List.of(dst),
                        List.of(cx.src(els.get(2 * w), t), Ptx.imm(0x5410), cx.src(els.get(2 * w + 1), t)));
            }
        } else {
            // bytes four to a register (v8: two registers)
            for (int w = 0; w < Math.max(1, els.size() / 4); w++) {
                Reg dst = tuple.width() == 1 ? tuple : tuple.component(w);
                Reg lo = Ptx.r32(cx);
                cx.emit("PRMT", List.of(), List.of(lo),
                        List.of(cx.src(els.get(4 * w), t), Ptx.imm(0x3340), cx.src(els.get(4 * w + 1), t)));
                if (els.size() == 2) {
                    cx.emit("MOV", List.of(), List.of(dst), List.of(Src.of(lo)));
                } else {
                    Reg hi = Ptx.r32(cx);
                    cx.emit("PRMT", List.of(), List.of(hi),
                            List.of(cx.src(els.get(4 * w + 2), t), Ptx.imm(0x3340), cx.src(els.get(4 * w + 3), t)));
                    cx.emit("PRMT", List.of(), List.of(dst), List.of(Src.of(lo), Ptx.imm(0x5410), Src.of(hi)));
                }
            }
        }
        return Src.of(tuple);
    }

    private void loadConst(LoweringContext cx, PtxType t, int vec, int elemBytes, Addr addr, Operand value)
            throws CompilationException {
        int bytes = elemBytes * vec;
        if (addr.offset() < 0 || addr.offset() + bytes > 0x10000) {
            // ptxas encodes a negative offset in the signed field (c[0x3][-0x4]); the tables hold unsigned ones
            throw cx.unsupported("constant offset " + addr.offset() + " outside the bank");
        }
        Reg tuple = loadTarget(cx, value, t, vec, bytes);
        if (addr.base().isZero() && bytes >= 4) {
            CBank c = CBank.of(3, (int) addr.offset());
            for (int k = 0; k < tuple.width(); k++) {
                cx.emit("MOV", List.of(), List.of(tuple.component(k)),
                        List.of(Src.of(CBank.of(3, c.offset() + 4 * k))));
            }
        } else if (bytes == 16) {
            // LDC has no 128-bit size (nvdisasm reads it as INVALID6): two LDC.64, as ptxas loads a 16-byte constant
            Reg index = addr.base().isZero() ? null : addr.base().width() == 2 ? addr.base().component(0) : addr.base();
            for (int half = 0; half < 2; half++) {
                Reg pair = cx.newReg(RegFile.R, 2);
                cx.emit("LDC", List.of("64"), List.of(pair),
                        List.of(Src.of(new CBank(3, (int) addr.offset() + 8 * half, index))));
                for (int k = 0; k < 2; k++) {
                    cx.emit("MOV", List.of(), List.of(tuple.component(2 * half + k)), List.of(Src.of(pair.component(k))));
                }
            }
        } else {
            Reg index = addr.base().isZero() ? null : addr.base().width() == 2 ? addr.base().component(0) : addr.base();
            List<String> mods = new ArrayList<>();
            String size = Ptx.sizeMod(t, vec == 1 ? elemBytes : bytes);
            if (size != null) {
                mods.add(size);
            }
            cx.emit("LDC", mods, List.of(tuple), List.of(Src.of(new CBank(3, (int) addr.offset(), index))));
        }
        distribute(cx, tuple, value, t, vec);
    }

    /** {@code ld.param}/{@code st.param}: kernel parameters from constant bank 0, other parameters are registers. */
    private void param(Instruction insn, LoweringContext cx, boolean load, PtxType t, int vec, Operand.Address addrOp,
            Operand value) throws CompilationException {
        Expr e = addrOp.expression();
        Expr.SymbolRef base = e instanceof Expr.SymbolRef r ? r
                : e instanceof Expr.Binary b && b.left() instanceof Expr.SymbolRef r2 ? r2 : null;
        if (base == null) {
            throw cx.unsupported("parameter address");
        }
        if (cx.resolved().symbolOf(base).orElse(null) instanceof org.jptxas.frontend.ptx.check.Symbol.Variable rv
                && rv.space() == StateSpace.REG) {
            // through a register holding a kernel parameter's address (mov.b64 %rd, param): constant bank 0
            if (!load || !cx.isKernel()) {
                throw cx.unsupported("parameter access through a register");
            }
            Addr a = cx.address(addrOp, StateSpace.SHARED);
            if (a.offset() < 0 || a.offset() > 0xffff) {
                throw cx.unsupported("parameter offset " + a.offset() + " outside the bank");
            }
            Reg index = a.base().width() == 2 ? a.base().component(0) : a.base();
            Reg tuple = loadTarget(cx, value, t, vec, t.sizeBytes() * vec);
            List<String> mods = new ArrayList<>();
            String size = Ptx.sizeMod(t, t.sizeBytes() * vec);
            if (size != null) {
                mods.add(size);
            }
            cx.emit("LDC", mods, List.of(tuple), List.of(Src.of(new CBank(0, (int) a.offset(), index))));
            distribute(cx, tuple, value, t, vec);
            return;
        }
        boolean kernelParam = cx.resolved().symbolOf(base).filter(s -> s instanceof org.jptxas.frontend.ptx.check.Symbol.Variable)
                .map(s -> (org.jptxas.frontend.ptx.check.Symbol.Variable) s)
                .map(v -> cx.isKernel() && isKernelParam(cx, v)).orElse(false);
        int elemBytes = t.sizeBytes();
        if (kernelParam) {
            if (!load) {
                throw cx.unsupported("store to a kernel parameter");
            }
            Addr a = cx.address(addrOp, StateSpace.PARAM);
            int off = (int) a.offset();
            List<Operand> dsts = vec == 1 ? List.of(value) : ((Operand.Vector) value).elements();
            for (int k = 0; k < dsts.size(); k++) {
                if (dsts.get(k) instanceof Operand.Sink) {
                    continue;
                }
                Reg d = cx.dst(dsts.get(k), t);
                int at = off + k * elemBytes;
                if (elemBytes >= 4) {
                    for (int c = 0; c < d.width(); c++) {
                        cx.emit("MOV", List.of(), List.of(d.component(c)),
                                List.of(c * 4 < elemBytes ? Src.of(CBank.of(0, at + 4 * c)) : Ptx.rz()));
                    }
                } else {
                    List<String> mods = new ArrayList<>();
                    mods.add(Ptx.sizeMod(t, elemBytes));
                    cx.emit("LDC", mods, List.of(d.width() == 2 ? d.component(0) : d),
                            List.of(Src.of(CBank.of(0, at))));
                    if (d.width() == 2) {
                        cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Ptx.rz()));
                    }
                }
            }
            return;
        }
        // Device-function or call-site parameter: a register, addressed in 32-bit words.
        List<Reg> p = cx.paramRegisters(base);
        long off = 0;
        if (e instanceof Expr.Binary b) {
            try {
                off = org.jptxas.frontend.ptx.parse.ConstantEvaluator.evaluate(b.right());
            } catch (org.jptxas.frontend.ptx.parse.ConstantEvaluator.NotConstantException ex) {
                throw cx.unsupported("parameter address");
            }
            if (b.op() == Expr.BinaryOp.SUB) {
                off = -off;
            }
        }
        if (elemBytes < 4 && vec == 1 && off % elemBytes == 0) {
            subWordParam(cx, load, t, p, (int) off, value);
            return;
        }
        if (off % 4 != 0 || (elemBytes < 4 && vec > 1)) {
            throw cx.unsupported("sub-word parameter access");
        }
        List<Operand> vals = vec == 1 ? List.of(value) : ((Operand.Vector) value).elements();
        int word = (int) (off / 4);
        int per = Math.max(1, elemBytes / 4);
        for (int k = 0; k < vals.size(); k++) {
            if (vals.get(k) instanceof Operand.Sink) {
                continue;
            }
            for (int c = 0; c < per; c++) {
                int w = word + k * per + c;
                Reg slot = paramWord(p, w);
                if (slot == null) {
                    throw cx.unsupported("parameter offset " + 4 * w);
                }
                if (load) {
                    Reg d = cx.dst(vals.get(k), t);
                    Reg dc = d.width() == 1 ? d : d.component(c);
                    cx.emit("MOV", List.of(), List.of(dc), List.of(Src.of(slot)));
                    if (d.width() == 2 && per == 1) {
                        cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Ptx.rz()));
                    }
                } else {
                    Src v = cx.src(vals.get(k), t);
                    cx.emit("MOV", List.of(), List.of(slot), List.of(Ptx.part(v, c)));
                }
            }
        }
    }

    /**
     * An 8/16-bit access at a byte offset of a register-held parameter: PRMT extracts (zero- or sign-extending) or
     * inserts the bytes, leaving the rest of the word as it is.
     */
    private void subWordParam(LoweringContext cx, boolean load, PtxType t, List<Reg> p, int off, Operand value)
            throws CompilationException {
        int at = off % 4;
        int n = t.sizeBytes();
        Reg slot = paramWord(p, off / 4);
        if (slot == null) {
            throw cx.unsupported("parameter offset " + off);
        }
        if (load) {
            int sel = 0;
            for (int i = 0; i < 4; i++) {
                int nib = i < n ? at + i : Ptx.signed(t) ? 8 | (at + n - 1) : 4;
                sel |= nib << (4 * i);
            }
            Reg d = cx.dst(value, t);
            cx.emit("PRMT", List.of(), List.of(d.width() == 2 ? d.component(0) : d),
                    List.of(Src.of(slot), Ptx.imm(sel), Ptx.rz()));
            if (d.width() == 2) {
                cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Ptx.rz()));
            }
        } else {
            int sel = 0;
            for (int i = 0; i < 4; i++) {
                int nib = i >= at && i < at + n ? i - at : 4 + i;
                sel |= nib << (4 * i);
            }
            Src v = cx.src(value, t);
            if (v.value() instanceof Reg r && r.width() == 2) {
                v = Src.of(r.component(0));
            }
            cx.emit("PRMT", List.of(), List.of(slot), List.of(v, Ptx.imm(sel), Src.of(slot)));
        }
    }

    /** Word {@code w} of a parameter's registers ({@link LoweringContext#paramRegisters}), or null past its end. */
    private static Reg paramWord(List<Reg> chunks, int w) {
        if (w < 0) {
            return null;
        }
        Reg c = chunks.size() == 1 ? chunks.get(0) : w / 4 < chunks.size() ? chunks.get(w / 4) : null;
        int k = chunks.size() == 1 ? w : w % 4;
        if (c == null || k >= c.comps()) {
            return null;
        }
        return c.comps() == 1 ? c : c.component(k);
    }

    private static boolean isKernelParam(LoweringContext cx, org.jptxas.frontend.ptx.check.Symbol.Variable v) {
        return cx instanceof FunctionLowerer fl && fl.kernelParamOffset(v.declarator()) != null;
    }
}
