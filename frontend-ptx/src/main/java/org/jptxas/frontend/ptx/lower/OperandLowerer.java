package org.jptxas.frontend.ptx.lower;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.check.SpecialRegister;
import org.jptxas.frontend.ptx.check.Symbol;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.target.DriverConstants;
import org.jptxas.ori.target.TargetFeature;

/**
 * PTX operands as Ori operands: registers, immediates, variables, special registers, constant-bank values and
 * addresses.
 */
final class OperandLowerer {
    private final FunctionLowerer lowerer;
    private Boolean sharedWithRank;

    OperandLowerer(FunctionLowerer lowerer) {
        this.lowerer = lowerer;
    }

    /** Whether this function's shared-variable addresses carry the cluster rank ({@link SharedAddresses}). */
    private boolean sharedAddressesWithRank() {
        if (sharedWithRank == null) {
            sharedWithRank = SharedAddresses.rankInAddress(lowerer) && SharedAddresses.mayEscape(lowerer.fn.body());
        }
        return sharedWithRank;
    }

    org.jptxas.ori.ir.Operand value(Operand operand, PtxType type, boolean constantOk) {
        if (operand instanceof Expr.SymbolRef r) {
            Symbol sym = lowerer.resolved.symbolOf(r).orElse(null);
            if (sym instanceof Symbol.Variable v) {
                return variableValue(v, type, constantOk);
            }
            if (sym instanceof Symbol.Special sp) {
                return special(sp, r.component(), constantOk);
            }
            if (sym instanceof Symbol.Function fn) {
                // A function's address: its offset in the section code generation places it in (an
                // address-taken function stays a function, see ModuleInliner/CallSequences).
                Reg a = pair(Src.of(new Sym(fn.name(), Sym.Kind.FUNCTION, Sym.Part.LO32, 0)),
                        Src.of(new Sym(fn.name(), Sym.Kind.FUNCTION, Sym.Part.HI32, 0)));
                return type != null && type.sizeBytes() == 8 ? a : a.component(0);
            }
            throw lowerer.unsupportedRuntime("operand " + r.name());
        }
        if (operand instanceof Expr.FloatLit f) {
            return new Imm(isFloat(type) ? FloatBits.convert(f, type) : FloatBits.rawBits(f));
        }
        if (operand instanceof Expr e) {
            Expr.SymbolRef base = addressBase(e);
            long offset;
            try {
                offset = addressOffset(e);
            } catch (InitializerBytes.NotConstant ex) {
                throw lowerer.unsupportedRuntime("operand expression");
            }
            if (base == null) {
                if (isFloat(type)) {
                    return new Imm(FloatBits.fromInteger(offset, type));
                }
                return new Imm(truncate(offset, type));
            }
            org.jptxas.ori.ir.Operand b = value(base, type, false);
            if (offset == 0) {
                return b;
            }
            return addConstant((Reg) b, offset);
        }
        throw lowerer.unsupportedRuntime("operand form");
    }

    private static boolean isFloat(PtxType t) {
        return t == PtxType.F16 || t == PtxType.BF16 || t == PtxType.F32 || t == PtxType.F64;
    }

    static long truncate(long v, PtxType type) {
        int bytes = type == null ? 8 : type.sizeBytes();
        if (bytes >= 8 || bytes == 0) {
            return bytes == 0 ? v & 0xffffffffL : v;
        }
        return v & ((1L << (8 * bytes)) - 1);
    }

    private Reg addConstant(Reg base, long offset) {
        if (base.width() == 2) {
            Reg out = lowerer.newReg(RegFile.R, 2);
            Reg carry = lowerer.newReg(RegFile.P, 1);
            lowerer.emitUnguarded("IADD3", List.of(), List.of(out.component(0), carry, Reg.PT),
                    List.of(Src.of(base.component(0)), Src.of(Imm.ofInt((int) offset)), Src.of(Reg.RZ)));
            lowerer.emitUnguarded("IADD3", List.of("X"), List.of(out.component(1), Reg.PT, Reg.PT),
                    List.of(Src.of(base.component(1)), Src.of(Imm.ofInt((int) (offset >> 32))), Src.of(Reg.RZ),
                            Src.of(carry), Src.of(Reg.PT).inverted()));
            return out;
        }
        Reg out = lowerer.newReg(RegFile.R, 1);
        lowerer.emitUnguarded("IADD3", List.of(), List.of(out, Reg.PT, Reg.PT),
                List.of(Src.of(base), Src.of(Imm.ofInt((int) offset)), Src.of(Reg.RZ)));
        return out;
    }

    /** The value of a variable operand: a register, or the address of a variable in memory. */
    private org.jptxas.ori.ir.Operand variableValue(Symbol.Variable v, PtxType type, boolean constantOk) {
        Declarator d = v.declarator();
        boolean wide = type != null && type.sizeBytes() == 8;
        switch (v.space()) {
            case REG -> {
                Reg r = lowerer.regOf(d, v.name());
                if (type != null && r.comps() == 2 && type.sizeBytes() > 0 && type.sizeBytes() <= 4) {
                    return r.component(0);
                }
                return r;
            }
            case PARAM -> {
                Integer k = lowerer.kernelParams.get(d);
                if (k != null) {
                    // a kernel parameter's address: its offset in constant bank 0 (ld.param through it is an LDC)
                    int at = lowerer.profile.paramBase() + k;
                    return wide ? pair(Src.of(Imm.ofInt(at)), Src.of(Reg.RZ)) : Imm.ofInt(at);
                }
                return lowerer.paramRegister(lowerer.declOf.getOrDefault(d, v.decl()), d);
            }
            case SHARED -> {
                PtxLowering.Placement p = lowerer.placed.get(d);
                long off = p == null ? 0 : p.offset();
                if (sharedAddressesWithRank()) { // the block's cluster rank in the top byte
                    Reg a = SharedAddresses.ofOffset(lowerer, off);
                    return wide ? pair(Src.of(a), Src.of(Reg.RZ)) : a;
                }
                return wide ? pair(Src.of(Imm.ofInt((int) off)), Src.of(Reg.RZ)) : Imm.ofInt((int) off);
            }
            case LOCAL -> {
                Long off = lowerer.frame.get(d);
                Reg a = lowerer.newReg(RegFile.R, 1);
                lowerer.emitUnguarded("IADD3", List.of(), List.of(a, Reg.PT, Reg.PT),
                        List.of(Src.of(FunctionLowerer.SP), Src.of(Imm.ofInt(off == null ? 0 : off.intValue())), Src.of(Reg.RZ)));
                return wide ? pair(Src.of(a), Src.of(Reg.RZ)) : a;
            }
            case CONST -> {
                PtxLowering.Placement p = lowerer.placed.get(d);
                long off = p == null ? 0 : p.offset();
                return wide ? pair(Src.of(Imm.ofInt((int) off)), Src.of(Reg.RZ)) : Imm.ofInt((int) off);
            }
            case GLOBAL -> {
                Reg a = globalAddress(v.name());
                return wide ? a : a.component(0);
            }
            default -> throw lowerer.unsupportedRuntime("the address of " + v.space().directive() + " variable " + v.name());
        }
    }

    /** The 64-bit address of a global variable, through relocations. */
    Reg globalAddress(String name) {
        return pair(Src.of(new Sym(name, Sym.Kind.GLOBAL, Sym.Part.LO32, 0)),
                Src.of(new Sym(name, Sym.Kind.GLOBAL, Sym.Part.HI32, 0)));
    }

    /** A fresh 64-bit register built from two 32-bit values. */
    Reg pair(Src lo, Src hi) {
        Reg r = lowerer.newReg(RegFile.R, 2);
        lowerer.emitUnguarded("MOV", List.of(), List.of(r.component(0)), List.of(lo));
        lowerer.emitUnguarded("MOV", List.of(), List.of(r.component(1)), List.of(hi));
        return r;
    }

    /** {@code %pm0} ... {@code %pm7} and their 64-bit {@code _64} forms. */
    private static final java.util.regex.Pattern PERFORMANCE_MONITOR = java.util.regex.Pattern.compile("%pm([0-7])(_64)?");

    private org.jptxas.ori.ir.Operand special(Symbol.Special sp, String component, boolean constantOk) {
        SpecialRegister sr = sp.register();
        if (sr == null) {
            java.util.regex.Matcher pm = PERFORMANCE_MONITOR.matcher(sp.name());
            if (pm.matches()) {
                // ptxas reads %pmN with CS2R.32 SR_PMN and %pmN_64 with the 64-bit CS2R of the same register
                String name = "SR_PM" + pm.group(1);
                return pm.group(2) == null ? cs2r32(name) : cs2r64(name);
            }
            throw lowerer.unsupportedRuntime("special register " + sp.name());
        }
        int dim = component == null ? 0 : switch (component) {
            case "y" -> 1;
            case "z" -> 2;
            case "w" -> 3;
            default -> 0;
        };
        String axis = component == null ? "X" : component.toUpperCase(java.util.Locale.ROOT);
        switch (sr) {
            case TID:
                return s2r("SR_TID." + axis);
            case CTAID:
                return s2r("SR_CTAID." + axis);
            case NTID:
                return constant(driver().ntid(dim), constantOk);
            case NCTAID:
                return constant(driver().nctaid(dim), constantOk);
            case LANEID:
                return s2r("SR_LANEID");
            case SMID:
                return s2r("SR_VIRTUALSMID");
            case NSMID:
                return constant(driver().nsmid(), constantOk);
            case WARPID: {
                Reg v = s2r("SR_VIRTID");
                Reg s = lowerer.newReg(RegFile.R, 1);
                lowerer.emitUnguarded("SHF", List.of("R", "U32", "HI"), List.of(s),
                        List.of(Src.of(Reg.RZ), Src.of(Imm.ofInt(8)), Src.of(v)));
                Reg w = lowerer.newReg(RegFile.R, 1);
                lowerer.emitUnguarded("SGXT", List.of("U32"), List.of(w), List.of(Src.of(s), Src.of(Imm.ofInt(7))));
                return w;
            }
            case NWARPID: {
                if (!lowerer.profile.has(TargetFeature.NWARPID_IN_VIRTCFG)) {
                    return Imm.ofInt(64);
                }
                Reg v = s2r("SR_VIRTCFG");
                Reg s = lowerer.newReg(RegFile.R, 1);
                lowerer.emitUnguarded("SHF", List.of("R", "U32", "HI"), List.of(s),
                        List.of(Src.of(Reg.RZ), Src.of(Imm.ofInt(8)), Src.of(v)));
                Reg w = lowerer.newReg(RegFile.R, 1);
                lowerer.emitUnguarded("SGXT", List.of("U32"), List.of(w), List.of(Src.of(s), Src.of(Imm.ofInt(8))));
                return w;
            }
            case LANEMASK_EQ:
                return s2r("SR_EQMASK");
            case LANEMASK_LT:
                return s2r("SR_LTMASK");
            case LANEMASK_LE:
                return s2r("SR_LEMASK");
            case LANEMASK_GT:
                return s2r("SR_GTMASK");
            case LANEMASK_GE:
                return s2r("SR_GEMASK");
            case CLOCK:
                return cs2r32("SR_CLOCKLO");
            case CLOCK_HI:
                return cs2r32("SR_CLOCKHI");
            case GLOBALTIMER_LO:
                return cs2r32("SR_GLOBALTIMERLO");
            case GLOBALTIMER_HI:
                return cs2r32("SR_GLOBALTIMERHI");
            case CLOCK64:
                return cs2r64("SR_CLOCKLO");
            case GLOBALTIMER:
                return cs2r64("SR_GLOBALTIMERLO");
            case DYNAMIC_SMEM_SIZE:
                if (driver().dynamicSmemSize() == DriverConstants.UNKNOWN) {
                    throw lowerer.unsupportedRuntime("special register " + sp.name() + ": not at a fixed place in "
                            + "this target's constant bank 0");
                }
                return constant(driver().dynamicSmemSize(), constantOk);
            case GRIDID:
                return pair(Src.of(CBank.of(0, driver().gridId())), Src.of(CBank.of(0, driver().gridId() + 4)));
            case WARP_SZ:
                return Imm.ofInt(32);
            default:
                if (ClusterRegisters.serves(sr)) {
                    if (!ClusterRegisters.readable(driver(), sr)) {
                        throw lowerer.unsupportedRuntime("special register " + sp.name() + ": the cluster shape is not "
                                + "at a fixed place in this target's constant bank 0");
                    }
                    return ClusterRegisters.read(lowerer, sr, dim, constantOk);
                }
                throw lowerer.unsupportedRuntime("special register " + sp.name());
        }
    }

    /** Where this target's driver puts the launch constants (a backend's fact: it moved on sm_100). */
    private DriverConstants driver() {
        return lowerer.profile.driver();
    }

    private org.jptxas.ori.ir.Operand constant(int offset, boolean constantOk) {
        CBank c = CBank.of(0, offset);
        if (constantOk) {
            return c;
        }
        Reg r = lowerer.newReg(RegFile.R, 1);
        lowerer.emitUnguarded("MOV", List.of(), List.of(r), List.of(Src.of(c)));
        return r;
    }

    private Reg s2r(String name) {
        Reg r = lowerer.newReg(RegFile.R, 1);
        lowerer.emitUnguarded("S2R", List.of(), List.of(r), List.of(Src.of(new SpecialReg(name))));
        return r;
    }

    private Reg cs2r32(String name) {
        Reg r = lowerer.newReg(RegFile.R, 1);
        lowerer.emitUnguarded("CS2R_32", List.of(), List.of(r), List.of(Src.of(new SpecialReg(name))));
        return r;
    }

    private Reg cs2r64(String name) {
        Reg r = lowerer.newReg(RegFile.R, 2);
        lowerer.emitUnguarded("CS2R_64", List.of(), List.of(r), List.of(Src.of(new SpecialReg(name))));
        return r;
    }

    /** A base register or variable of an address expression, with the constant offset. */
    private static Expr.SymbolRef addressBase(Expr e) {
        if (e instanceof Expr.SymbolRef r) {
            return r;
        }
        if (e instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.ADD || b.op() == Expr.BinaryOp.SUB)) {
            Expr.SymbolRef l = addressBase(b.left());
            if (l != null) {
                return l;
            }
            return b.op() == Expr.BinaryOp.ADD ? addressBase(b.right()) : null;
        }
        return null;
    }

    private static long addressOffset(Expr e) throws InitializerBytes.NotConstant {
        if (e instanceof Expr.SymbolRef) {
            return 0;
        }
        if (e instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.ADD || b.op() == Expr.BinaryOp.SUB)
                && (addressBase(b.left()) != null || addressBase(b.right()) != null)) {
            long l = addressOffset(b.left());
            long r = addressOffset(b.right());
            return b.op() == Expr.BinaryOp.ADD ? l + r : l - r;
        }
        try {
            return org.jptxas.frontend.ptx.parse.ConstantEvaluator.evaluate(e);
        } catch (org.jptxas.frontend.ptx.parse.ConstantEvaluator.NotConstantException ex) {
            throw new InitializerBytes.NotConstant("not constant");
        }
    }

    /** An address operand as a register (or constant-bank window) plus offset in {@code space}. */
    Addr addressOf(Operand.Address operand, StateSpace space) {
        Expr e = operand.expression();
        if (e == null) {
            throw lowerer.unsupportedRuntime("address form");
        }
        Expr.SymbolRef base = addressBase(e);
        long off;
        try {
            off = addressOffset(e);
        } catch (InitializerBytes.NotConstant ex) {
            throw lowerer.unsupportedRuntime("address expression");
        }
        boolean wide = space == null || space == StateSpace.GLOBAL;
        if (base == null) {
            return Addr.of(Reg.RZ, off);
        }
        Symbol sym = lowerer.resolved.symbolOf(base).orElse(null);
        if (!(sym instanceof Symbol.Variable v)) {
            throw lowerer.unsupportedRuntime("address " + base.name());
        }
        Declarator d = v.declarator();
        switch (v.space()) {
            case REG -> {
                Reg r = lowerer.regOf(d, v.name());
                if (wide && r.comps() != 2) {
                    throw lowerer.unsupportedRuntime("32-bit generic/global addresses");
                }
                if (!wide && r.comps() == 2) {
                    r = r.component(0);
                }
                return Addr.of(r, off);
            }
            case SHARED, CONST -> {
                PtxLowering.Placement p = lowerer.placed.get(d);
                if (p == null) {
                    throw lowerer.unsupportedRuntime(v.space().directive() + " variable " + v.name() + " without a layout");
                }
                if (wide && v.space() == StateSpace.SHARED && SharedAddresses.rankInAddress(lowerer)) {
                    // the variable's shared address (with the block's cluster rank) under the window's high word
                    Reg shared = SharedAddresses.ofOffset(lowerer, p.offset() + off);
                    return Addr.of(SharedAddresses.generic(lowerer, Src.of(shared)), 0);
                }
                if (wide) {
                    // generic address of a variable: window base plus offset
                    return Addr.of(genericOf(v.space(), p.offset() + off), 0);
                }
                return Addr.of(Reg.RZ, p.offset() + off);
            }
            case LOCAL -> {
                Long f = lowerer.frame.get(d);
                if (wide) {
                    return Addr.of(genericOf(StateSpace.LOCAL, (f == null ? 0 : f) + off), 0);
                }
                return Addr.of(FunctionLowerer.SP, (f == null ? 0 : f) + off);
            }
            case PARAM -> {
                Integer k = lowerer.kernelParams.get(d);
                if (k != null) {
                    return Addr.of(Reg.RZ, lowerer.profile.paramBase() + k + off);
                }
                throw lowerer.unsupportedRuntime("address of .param variable " + v.name());
            }
            case GLOBAL -> {
                return Addr.of(globalAddress(v.name()), off);
            }
            default -> throw lowerer.unsupportedRuntime("address in " + v.space().directive());
        }
    }

    /** The generic address of a shared or local window offset: window base (c[0x0][0x18] / 0x20) plus offset. */
    private Reg genericOf(StateSpace space, long offset) {
        Reg window;
        if (space == StateSpace.LOCAL) {
            window = lowerer.newReg(RegFile.R, 1);
            lowerer.emitUnguarded("IADD3", List.of(), List.of(window, Reg.PT, Reg.PT),
                    List.of(Src.of(FunctionLowerer.SP), Src.of(Imm.ofInt((int) offset)), Src.of(Reg.RZ)));
        } else if (space == StateSpace.SHARED || (space == StateSpace.CONST && lowerer.profile.constWindow() != null)) {
            window = null;
        } else {
            throw lowerer.unsupportedRuntime("generic address of " + space.directive() + " variables");
        }
        int base = space == StateSpace.LOCAL ? 0x20
                : space == StateSpace.CONST ? lowerer.profile.constWindow().slot() : 0x18;
        Reg out = lowerer.newReg(RegFile.R, 2);
        Reg carry = lowerer.newReg(RegFile.P, 1);
        lowerer.emitUnguarded("IADD3", List.of(), List.of(out.component(0), carry, Reg.PT),
                List.of(Src.of(window == null ? Imm.ofInt((int) offset) : window), Src.of(CBank.of(0, base)),
                        Src.of(Reg.RZ)));
        lowerer.emitUnguarded("IADD3", List.of("X"), List.of(out.component(1), Reg.PT, Reg.PT),
                List.of(Src.of(Reg.RZ), Src.of(CBank.of(0, base + 4)), Src.of(Reg.RZ), Src.of(carry),
                        Src.of(Reg.PT).inverted()));
        return out;
    }
}
