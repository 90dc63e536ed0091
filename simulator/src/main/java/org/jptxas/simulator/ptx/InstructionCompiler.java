package org.jptxas.simulator.ptx;

import static org.jptxas.simulator.ptx.Values.bits;
import static org.jptxas.simulator.ptx.Values.ext;
import static org.jptxas.simulator.ptx.Values.f32;
import static org.jptxas.simulator.ptx.Values.f64;
import static org.jptxas.simulator.ptx.Values.isFloat;
import static org.jptxas.simulator.ptx.Values.isSigned;
import static org.jptxas.simulator.ptx.Values.mask;
import static org.jptxas.simulator.ptx.Values.write;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.check.VideoSelectors;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.MatrixFragments;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.numeric.Ieee;
import org.jptxas.simulator.numeric.Rounding;
import org.jptxas.simulator.ptx.PtxProgram.Symbol;

/**
 * Translates one PTX instruction into executable semantics, following the PTX ISA. Instructions outside what the
 * interpreter knows compile to an UNSUPPORTED instruction that stops the run with its name when executed.
 */
final class InstructionCompiler {
    private final FunctionCompiler fc;
    private final Instruction ins;
    private final List<String> mods;
    private final List<PtxType> types = new ArrayList<>();
    private final List<Operand> ops;
    private int guardReg = -1;
    private boolean guardNeg;

    InstructionCompiler(FunctionCompiler fc, Instruction ins) {
        this.fc = fc;
        this.ins = ins;
        this.mods = ins.modifiers();
        this.ops = ins.operands();
        for (String m : mods) {
            PtxType.fromName(m).ifPresent(types::add);
        }
    }

    Insn compile() throws ProgramException {
        if (ins.guard() != null) {
            Symbol g = fc.lookup(ins.guard().predicate());
            if (g == null || g.kind() != Symbol.Kind.REGISTER) {
                throw fc.error(line(), "guard '" + ins.guard().predicate() + "' is not a predicate register");
            }
            guardReg = g.index();
            guardNeg = ins.guard().negated();
        }
        try {
            return dispatch();
        } catch (Unsupported u) {
            return new Insn(Insn.Kind.UNSUPPORTED, guardReg, guardNeg, null, null, null, null, text(), line(),
                    u.getMessage());
        }
    }

    /** Thrown while compiling an instruction form the interpreter does not implement. */
    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported(String what) {
            super(what, null, false, false);
        }
    }

    private int line() {
        return ins.pos().line();
    }

    private String text() {
        return ins.fullName();
    }

    private Unsupported unsupported() {
        return new Unsupported(ins.fullName());
    }

    private Insn simple(Insn.ThreadOp op) {
        return new Insn(Insn.Kind.SIMPLE, guardReg, guardNeg, op, null, null, null, text(), line(), null);
    }

    private Insn warp(Insn.WarpOp op, Src memberMask) {
        return new Insn(Insn.Kind.WARP, guardReg, guardNeg, null, op, memberMask, null, text(), line(), null);
    }

    private Insn kind(Insn.Kind k) {
        return new Insn(k, guardReg, guardNeg, null, null, null, null, text(), line(), null);
    }

    private PtxType type() throws Unsupported {
        if (types.isEmpty()) {
            throw unsupported();
        }
        return types.get(types.size() - 1);
    }

    private boolean has(String m) {
        return mods.contains(m);
    }

    // ---------------------------------------------------------------- operands

    int dst(Operand o) throws ProgramException, Unsupported {
        if (o instanceof Operand.Sink) {
            return -1;
        }
        if (o instanceof Expr.SymbolRef r && r.component() == null) {
            Symbol s = fc.lookup(r.name());
            if (s != null && s.kind() == Symbol.Kind.REGISTER) {
                return s.index();
            }
            throw fc.error(line(), "'" + r.name() + "' is not a register");
        }
        throw unsupported();
    }

    Src src(Operand o, PtxType t) throws ProgramException, Unsupported {
        if (o instanceof Expr.IntLit i) {
            long v = i.value();
            if (t != null && isFloat(t)) {
                return Src.imm(floatImm((double) v, t));
            }
            return Src.imm(v);
        }
        if (o instanceof Expr.FloatLit f) {
            if (t == null || !isFloat(t)) {
                return Src.imm(f.form() == Expr.FloatForm.HEX_F32 ? f.bits() & 0xffffffffL : f.bits());
            }
            if (f.form() == Expr.FloatForm.HEX_F32 && t == PtxType.F32) {
                return Src.imm(f.bits() & 0xffffffffL);
            }
            if (f.form() == Expr.FloatForm.HEX_F64 && t == PtxType.F64) {
                return Src.imm(f.bits());
            }
            return Src.imm(floatImm(f.value(), t));
        }
        if (o instanceof Expr.SymbolRef r) {
            Symbol s = fc.lookup(r.name());
            if (s == null && r.name().equals("WARP_SZ")) {
                return Src.imm(32);
            }
            if (s != null && s.kind() == Symbol.Kind.FUNCTION) {
                return Src.imm(functionAddress(r.name())); // an opaque code address, which indirect calls look up
            }
            if (s == null) {
                Special sp = Special.of(r.name(), r.component()).orElseThrow(() -> fc.error(line(), "undefined name '" + r.name()
                        + (r.component() == null ? "" : "." + r.component()) + "'"));
                return special(sp);
            }
            if (s.kind() == Symbol.Kind.REGISTER) {
                int idx = s.index();
                return Src.reg(idx);
            }
            return address(s, 0);
        }
        if (o instanceof Expr e) {
            Long v = ConstExpr.evaluate(e);
            if (v != null) {
                return src(new Expr.IntLit(e.pos(), v, Expr.Radix.DECIMAL, false), t);
            }
            if (e instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.ADD || b.op() == Expr.BinaryOp.SUB)) {
                Long off = ConstExpr.evaluate(b.right());
                if (off != null && b.left() instanceof Expr.SymbolRef r) {
                    Src base = src(r, null);
                    long k = b.op() == Expr.BinaryOp.ADD ? off : -off;
                    return tt -> base.get(tt) + k;
                }
            }
        }
        throw unsupported();
    }

    private static long floatImm(double v, PtxType t) {
        return switch (t) {
            case F32 -> Float.floatToRawIntBits((float) v) & 0xffffffffL;
            case F64 -> Double.doubleToRawLongBits(v);
            case F16 -> Values.toHalf(v, false);
            case BF16 -> Values.toHalf(v, true);
            default -> (long) v;
        };
    }

    /** The address of a variable plus a constant: in its own space for ld/st, as the value of {@code mov}. */
    private Src address(Symbol s, long off) throws Unsupported {
        return switch (s.kind()) {
            case GLOBAL_VAR -> {
                int idx = s.index();
                yield t -> t.machine.globalVarAddress[idx] + off;
            }
            case SHARED_VAR -> {
                if (s.offset() < 0) {
                    yield t -> t.machine.program.dynamicSharedBase() + off;
                }
                long a = s.offset() + off;
                yield t -> a;
            }
            case CONST_VAR, PARAM_VAR -> {
                long a = s.offset() + off;
                yield t -> a;
            }
            case LOCAL_VAR -> {
                long a = s.offset() + off;
                if (s.index() == 1) { // module-scope .local: a per-thread static
                    yield t -> a;
                }
                yield t -> t.frame.localBase + a;
            }
            default -> throw unsupported();
        };
    }

    private Src special(Special sp) {
        return switch (sp) {
            case TID_X -> t -> t.tidX;
            case TID_Y -> t -> t.tidY;
            case TID_Z -> t -> t.tidZ;
            case NTID_X -> t -> t.machine.launch.block().x();
            case NTID_Y -> t -> t.machine.launch.block().y();
            case NTID_Z -> t -> t.machine.launch.block().z();
            case CTAID_X -> t -> t.cta.index.x();
            case CTAID_Y -> t -> t.cta.index.y();
            case CTAID_Z -> t -> t.cta.index.z();
            case NCTAID_X -> t -> t.machine.launch.grid().x();
            case NCTAID_Y -> t -> t.machine.launch.grid().y();
            case NCTAID_Z -> t -> t.machine.launch.grid().z();
            case LANEID -> t -> t.lane;
            case WARPID -> t -> t.warp;
            case NWARPID -> t -> 64;
            case SMID, GRIDID, ZERO -> t -> 0;
            case NSMID -> t -> 1;
            case CLUSTER_CTARANK -> t -> t.cta.rank;
            case CLUSTER_NCTARANK -> PtxCluster::size;
            case IS_EXPLICIT_CLUSTER -> t -> t.machine.launch.cluster().isPresent() ? 1 : 0;
            case CLOCK, GLOBALTIMER_LO -> t -> t.machine.warpInstructions & 0xffffffffL;
            case CLOCK_HI, GLOBALTIMER_HI -> t -> t.machine.warpInstructions >>> 32;
            case CLOCK64, GLOBALTIMER -> t -> t.machine.warpInstructions;
            case LANEMASK_EQ -> t -> 1L << t.lane;
            case LANEMASK_LT -> t -> (1L << t.lane) - 1;
            case LANEMASK_LE -> t -> (2L << t.lane) - 1;
            case LANEMASK_GT -> t -> 0xffffffffL & ~((2L << t.lane) - 1);
            case LANEMASK_GE -> t -> 0xffffffffL & ~((1L << t.lane) - 1);
            case DYNAMIC_SMEM_SIZE -> t -> t.machine.launch.dynamicSharedBytes();
            case TOTAL_SMEM_SIZE -> t -> t.machine.sharedBytes;
            case CLUSTERID_X -> t -> t.cta.index.x() / clusterDim(t, 0);
            case CLUSTERID_Y -> t -> t.cta.index.y() / clusterDim(t, 1);
            case CLUSTERID_Z -> t -> t.cta.index.z() / clusterDim(t, 2);
            case NCLUSTERID_X -> t -> t.machine.launch.grid().x() / clusterDim(t, 0);
            case NCLUSTERID_Y -> t -> t.machine.launch.grid().y() / clusterDim(t, 1);
            case NCLUSTERID_Z -> t -> t.machine.launch.grid().z() / clusterDim(t, 2);
            case CLUSTER_CTAID_X -> t -> t.cta.index.x() % clusterDim(t, 0);
            case CLUSTER_CTAID_Y -> t -> t.cta.index.y() % clusterDim(t, 1);
            case CLUSTER_CTAID_Z -> t -> t.cta.index.z() % clusterDim(t, 2);
            case CLUSTER_NCTAID_X -> t -> clusterDim(t, 0);
            case CLUSTER_NCTAID_Y -> t -> clusterDim(t, 1);
            case CLUSTER_NCTAID_Z -> t -> clusterDim(t, 2);
        };
    }

    private static int clusterDim(ThreadState t, int axis) {
        return t.machine.launch.cluster().map(c -> axis == 0 ? c.x() : axis == 1 ? c.y() : c.z()).orElse(1);
    }

    /** A memory operand {@code [base+off]}: its address, in the instruction's space. */
    private Src memory(Operand o) throws ProgramException, Unsupported {
        if (!(o instanceof Operand.Address a) || a.expression() == null) {
            throw unsupported();
        }
        Expr e = a.expression();
        Long abs = ConstExpr.evaluate(e);
        if (abs != null) {
            long v = abs;
            return t -> v;
        }
        long off = 0;
        Expr base = e;
        if (e instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.ADD || b.op() == Expr.BinaryOp.SUB)) {
            Long k = ConstExpr.evaluate(b.right());
            if (k != null) {
                off = b.op() == Expr.BinaryOp.ADD ? k : -k;
                base = b.left();
            }
        }
        if (base instanceof Expr.SymbolRef r) {
            Symbol s = fc.lookup(r.name());
            if (s == null) {
                throw fc.error(line(), "undefined name '" + r.name() + "'");
            }
            if (s.kind() == Symbol.Kind.REGISTER) {
                int idx = s.index();
                long k = off;
                return t -> t.frame.regs[idx] + k;
            }
            return address(s, off);
        }
        throw unsupported();
    }

    private AddressSpace space() {
        for (String m : mods) {
            switch (m) {
                case "global": return AddressSpace.GLOBAL;
                case "shared", "shared::cta", "shared::cluster": return AddressSpace.SHARED; // PtxCluster: a block's rank in the address
                case "local": return AddressSpace.LOCAL;
                case "const": return AddressSpace.CONST;
                case "param": return AddressSpace.PARAM;
                default: break;
            }
        }
        return AddressSpace.GENERIC;
    }

    private int vectorLength() {
        for (String m : mods) {
            if (m.equals("v2")) {
                return 2;
            }
            if (m.equals("v4")) {
                return 4;
            }
            if (m.equals("v8")) {
                return 8;
            }
        }
        return 1;
    }

    private Operand op(int i) throws Unsupported {
        if (i >= ops.size()) {
            throw unsupported();
        }
        return ops.get(i);
    }

    // ---------------------------------------------------------------- dispatch

    private Insn dispatch() throws ProgramException, Unsupported {
        return switch (ins.opcode()) {
            case "mov" -> mov();
            case "add", "sub" -> has("cc") ? carryOp() : binary();
            case "mul", "div", "rem", "min", "max", "and", "or", "xor", "shl", "shr", "copysign" -> binary();
            case "mad", "fma" -> has("cc") && !isFloat(type()) ? carryOp() : mad();
            case "addc", "subc", "madc" -> carryOp();
            case "testp" -> testp();
            case "set" -> set();
            case "slct" -> slct();
            case "isspacep" -> isspacep();
            case "bmsk" -> bmsk();
            case "szext" -> szext();
            case "elect" -> elect();
            case "neg", "abs", "not", "cnot", "popc", "clz", "brev", "bfind", "sqrt", "rsqrt", "rcp", "sin", "cos", "ex2",
                    "lg2", "tanh" -> unary();
            case "mul24", "mad24" -> mul24();
            case "sad" -> sad();
            case "bfe" -> bfe();
            case "bfi" -> bfi();
            case "prmt" -> prmt();
            case "dp4a", "dp2a" -> dot();
            case "shf" -> shf();
            case "lop3" -> lop3();
            case "selp" -> selp();
            case "setp" -> setp();
            case "cvt" -> cvt();
            case "cvta" -> cvta();
            case "ld", "ldu" -> load();
            case "st" -> store();
            case "atom", "red" -> atom();
            case "bra" -> bra();
            case "call" -> call();
            case "ret" -> kind(Insn.Kind.RET);
            case "exit" -> kind(Insn.Kind.EXIT);
            case "trap" -> kind(Insn.Kind.TRAP);
            case "bar", "barrier" -> barrier();
            case "membar", "fence", "nanosleep", "prefetch", "prefetchu", "pmevent", "brkpt", "discard", "applypriority",
                    "createpolicy" -> nop();
            case "activemask" -> activemask();
            case "shfl" -> shfl();
            case "vote" -> vote();
            case "match" -> match();
            case "redux" -> redux();
            case "ldmatrix" -> ldmatrix();
            case "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vset" -> video();
            case "vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vset2", "vadd4", "vsub4", "vavrg4",
                    "vabsdiff4", "vmin4", "vmax4", "vset4" -> videoSimd();
            case "mma" -> mma();
            case "cp" -> has("bulk") ? hopper(false) : cpAsync();
            case "mbarrier" -> hopper(true);
            case "mapa", "getctarank" -> simple(ClusterInstruction.compile(ins.opcode(), mods, ops, new OperandAccess()));
            default -> throw unsupported();
        };
    }

    private Insn nop() throws Unsupported, ProgramException {
        if (ins.opcode().equals("createpolicy")) {
            // the policy is an opaque hint whose bits only the hardware defines: a fixed value, so that the
            // instructions taking it run (what they load or store does not depend on it)
            int d = dst(op(0));
            return simple(t -> write(t, d, 0));
        }
        return simple(t -> { });
    }

    // ---------------------------------------------------------------- moves and integer ALU

    private Insn mov() throws ProgramException, Unsupported {
        PtxType t = type();
        Operand d = op(0), s = op(1);
        if (t.sizeBytes() == 16 || d instanceof Operand.Vector && s instanceof Operand.Vector) {
            Insn.ThreadOp op = MovInstruction.compile(t, d, s, new OperandAccess());
            if (op == null) {
                throw unsupported();
            }
            return simple(op);
        }
        if (d instanceof Operand.Vector v) { // unpack: mov.b64 {lo, hi}, %rd
            Src src = src(s, t);
            int n = v.elements().size();
            int width = t.sizeBytes() / n;
            int[] regs = new int[n];
            for (int i = 0; i < n; i++) {
                regs[i] = dst(v.elements().get(i));
            }
            return simple(th -> {
                long x = src.get(th);
                for (int i = 0; i < n; i++) {
                    write(th, regs[i], x >>> (8 * width * i));
                }
            });
        }
        int dr = dst(d);
        if (s instanceof Operand.Vector v) { // pack: mov.b32 %f1, {lo, hi}
            int n = v.elements().size();
            int width = t.sizeBytes() / n;
            Src[] parts = new Src[n];
            for (int i = 0; i < n; i++) {
                parts[i] = src(v.elements().get(i), null);
            }
            long m = mask(width);
            return simple(th -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x |= (parts[i].get(th) & m) << (8 * width * i);
                }
                write(th, dr, x);
            });
        }
        Src src = src(s, t);
        return simple(th -> write(th, dr, src.get(th)));
    }

    /** The first slot of a {@code .b128} register operand (an immediate or a narrower register is not supported). */
    private int wide(Operand o) throws Unsupported {
        int slot = wideSlot(o);
        if (slot < 0) {
            throw unsupported();
        }
        return slot;
    }

    private int wideSlot(Operand o) {
        if (o instanceof Expr.SymbolRef r && r.component() == null) {
            Symbol sym = fc.lookup(r.name());
            if (sym != null && sym.kind() == Symbol.Kind.REGISTER && sym.size() == 16) {
                return sym.index();
            }
        }
        return -1;
    }

    private Insn binary() throws ProgramException, Unsupported {
        PtxType t = type();
        String o = ins.opcode();
        int d = dst(op(0));
        Src a = src(op(1), t);
        Src b = src(op(2), (o.equals("shl") || o.equals("shr")) ? PtxType.U32 : t);
        if (isFloat(t)) {
            return floatBinary(o, t, d, a, b);
        }
        int size = Math.max(1, t.sizeBytes());
        boolean signed = isSigned(t);
        boolean sat = has("sat");
        int bitsN = 8 * size;
        if (o.equals("mul")) {
            boolean wide = has("wide"), hi = has("hi");
            if (wide) {
                return simple(th -> write(th, d, ext(a.get(th), t) * ext(b.get(th), t)));
            }
            if (hi) {
                if (size == 8) {
                    return simple(th -> write(th, d, mulHigh64(a.get(th), b.get(th), signed)));
                }
                return simple(th -> write(th, d, (ext(a.get(th), t) * ext(b.get(th), t)) >> bitsN));
            }
            return simple(th -> write(th, d, a.get(th) * b.get(th)));
        }
        return switch (o) {
            case "add" -> sat && signed ? simple(th -> write(th, d, clampSigned(ext(a.get(th), t) + ext(b.get(th), t), size)))
                    : simple(th -> write(th, d, a.get(th) + b.get(th)));
            case "sub" -> sat && signed ? simple(th -> write(th, d, clampSigned(ext(a.get(th), t) - ext(b.get(th), t), size)))
                    : simple(th -> write(th, d, a.get(th) - b.get(th)));
            case "div" -> simple(th -> write(th, d, intDiv(ext(a.get(th), t), ext(b.get(th), t), signed, size, false)));
            case "rem" -> simple(th -> write(th, d, intDiv(ext(a.get(th), t), ext(b.get(th), t), signed, size, true)));
            case "min" -> simple(th -> {
                long x = ext(a.get(th), t), y = ext(b.get(th), t);
                write(th, d, signed ? Math.min(x, y) : (Long.compareUnsigned(x, y) <= 0 ? x : y));
            });
            case "max" -> simple(th -> {
                long x = ext(a.get(th), t), y = ext(b.get(th), t);
                write(th, d, signed ? Math.max(x, y) : (Long.compareUnsigned(x, y) >= 0 ? x : y));
            });
            case "and" -> t == PtxType.PRED ? simple(th -> write(th, d, a.get(th) & b.get(th) & 1))
                    : simple(th -> write(th, d, a.get(th) & b.get(th)));
            case "or" -> simple(th -> write(th, d, a.get(th) | b.get(th)));
            case "xor" -> simple(th -> write(th, d, a.get(th) ^ b.get(th)));
            case "shl" -> simple(th -> {
                long s = b.get(th) & 0xffffffffL;
                write(th, d, s >= bitsN ? 0 : a.get(th) << s);
            });
            case "shr" -> simple(th -> {
                long s = b.get(th) & 0xffffffffL;
                long x = ext(a.get(th), t);
                if (signed) {
                    write(th, d, x >> Math.min(s, 63));
                } else {
                    write(th, d, s >= bitsN ? 0 : x >>> s);
                }
            });
            default -> throw unsupported();
        };
    }

    private static long clampSigned(long v, int size) {
        long max = (1L << (8 * size - 1)) - 1, min = -(1L << (8 * size - 1));
        return Math.max(min, Math.min(max, v));
    }

    /** PTX leaves division by zero undefined; the hardware sequences give all ones (quotient) and the dividend (rem). */
    private static long intDiv(long x, long y, boolean signed, int size, boolean rem) {
        if (y == 0) {
            return rem ? x : -1L;
        }
        if (size == 8 && !signed) {
            return rem ? Long.remainderUnsigned(x, y) : Long.divideUnsigned(x, y);
        }
        if (signed && size == 8 && x == Long.MIN_VALUE && y == -1) {
            return rem ? 0 : x;
        }
        return rem ? x % y : x / y;
    }

    private Insn floatBinary(String o, PtxType t, int d, Src a, Src b) throws Unsupported {
        Rounding r = Values.rounding(mods, Rounding.RN);
        boolean ftz = has("ftz"), sat = has("sat");
        boolean approx = has("approx") || has("full");
        switch (t) {
            case F32 -> {
                return simple(th -> {
                    float x = Values.f32In(a.get(th), ftz), y = Values.f32In(b.get(th), ftz);
                    float z = switch (o) {
                        case "add" -> Ieee.add(x, y, r);
                        case "sub" -> Ieee.add(x, -y, r);
                        case "mul" -> Ieee.mul(x, y, r);
                        case "div" -> approx ? (float) ((double) x / y) : Ieee.div(x, y, r);
                        case "min" -> fmin(x, y);
                        case "max" -> fmax(x, y);
                        case "copysign" -> Math.copySign(y, x);
                        default -> throw new InterpreterError("unsupported " + o + ".f32");
                    };
                    if (o.equals("copysign")) {
                        write(th, d, Float.floatToRawIntBits(z) & 0xffffffffL);
                    } else {
                        write(th, d, Values.f32Result(z, ftz, sat));
                    }
                });
            }
            case F64 -> {
                return simple(th -> {
                    double x = f64(a.get(th)), y = f64(b.get(th));
                    double z = switch (o) {
                        case "add" -> Ieee.add(x, y, r);
                        case "sub" -> Ieee.add(x, -y, r);
                        case "mul" -> Ieee.mul(x, y, r);
                        case "div" -> Ieee.div(x, y, r);
                        case "min" -> Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.min(x, y);
                        case "max" -> Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.max(x, y);
                        case "copysign" -> Math.copySign(y, x);
                        default -> throw new InterpreterError("unsupported " + o + ".f64");
                    };
                    write(th, d, o.equals("copysign") ? Double.doubleToRawLongBits(z) : bits(sat ? Ieee.saturate(z) : z));
                });
            }
            case F16, BF16, F16X2, BF16X2 -> {
                boolean bf = t == PtxType.BF16 || t == PtxType.BF16X2;
                boolean nanMode = has("NaN");
                int lanes = t == PtxType.F16X2 || t == PtxType.BF16X2 ? 2 : 1;
                return simple(th -> {
                    long x = a.get(th), y = b.get(th), out = 0;
                    for (int i = 0; i < lanes; i++) {
                        double p = Values.half(x >>> (16 * i), bf), q = Values.half(y >>> (16 * i), bf);
                        double z = switch (o) {
                            case "add" -> p + q;
                            case "sub" -> p - q;
                            case "mul" -> p * q;
                            // .NaN: a NaN operand gives NaN (canonical), not the other operand
                            case "min" -> nanMode && (Double.isNaN(p) || Double.isNaN(q)) ? Double.NaN
                                    : Double.isNaN(p) ? q : Double.isNaN(q) ? p : Math.min(p, q);
                            case "max" -> nanMode && (Double.isNaN(p) || Double.isNaN(q)) ? Double.NaN
                                    : Double.isNaN(p) ? q : Double.isNaN(q) ? p : Math.max(p, q);
                            default -> throw new InterpreterError("unsupported " + o + "." + t.ptxName());
                        };
                        if (sat) {
                            z = Ieee.saturate(z);
                        }
                        out |= (Values.toHalf(z, bf) & 0xffffL) << (16 * i);
                    }
                    write(th, d, out);
                });
            }
            default -> throw unsupported();
        }
    }

    private static float fmin(float x, float y) {
        if (Float.isNaN(x)) {
            return y;
        }
        return Float.isNaN(y) ? x : Math.min(x, y);
    }

    private static float fmax(float x, float y) {
        if (Float.isNaN(x)) {
            return y;
        }
        return Float.isNaN(y) ? x : Math.max(x, y);
    }

    private Insn mad() throws ProgramException, Unsupported {
        PtxType t = type();
        int d = dst(op(0));
        Src a = src(op(1), t), b = src(op(2), t), c = src(op(3), has("wide") ? wide(t) : t);
        if (isFloat(t)) {
            Rounding r = Values.rounding(mods, Rounding.RN);
            boolean ftz = has("ftz"), sat = has("sat");
            switch (t) {
                case F32:
                    return simple(th -> write(th, d, Values.f32Result(Ieee.fma(Values.f32In(a.get(th), ftz),
                            Values.f32In(b.get(th), ftz), Values.f32In(c.get(th), ftz), r), ftz, sat)));
                case F64:
                    return simple(th -> write(th, d, bits(Ieee.fma(f64(a.get(th)), f64(b.get(th)), f64(c.get(th)), r))));
                case F16: case BF16: case F16X2: case BF16X2: {
                    boolean bf = t == PtxType.BF16 || t == PtxType.BF16X2;
                    int lanes = t == PtxType.F16X2 || t == PtxType.BF16X2 ? 2 : 1;
                    boolean relu = has("relu");
                    return simple(th -> {
                        long x = a.get(th), y = b.get(th), z = c.get(th), out = 0;
                        for (int i = 0; i < lanes; i++) {
                            double v = Math.fma(Values.half(x >>> (16 * i), bf), Values.half(y >>> (16 * i), bf),
                                    Values.half(z >>> (16 * i), bf));
                            if (sat) {
                                v = Ieee.saturate(v);
                            }
                            if (relu && !(v > 0) && !Double.isNaN(v)) {
                                v = 0;
                            }
                            out |= (Values.toHalf(v, bf) & 0xffffL) << (16 * i);
                        }
                        write(th, d, out);
                    });
                }
                default:
                    throw unsupported();
            }
        }
        int size = t.sizeBytes();
        if (has("wide")) {
            return simple(th -> write(th, d, ext(a.get(th), t) * ext(b.get(th), t) + c.get(th)));
        }
        if (has("hi")) {
            boolean signed = isSigned(t);
            if (size == 8) {
                return simple(th -> write(th, d, mulHigh64(a.get(th), b.get(th), signed) + c.get(th)));
            }
            return simple(th -> write(th, d, ((ext(a.get(th), t) * ext(b.get(th), t)) >> (8 * size)) + c.get(th)));
        }
        return simple(th -> write(th, d, a.get(th) * b.get(th) + c.get(th)));
    }

    private static PtxType wide(PtxType t) {
        return switch (t) {
            case S16 -> PtxType.S32;
            case U16 -> PtxType.U32;
            case S32 -> PtxType.S64;
            case U32 -> PtxType.U64;
            default -> t;
        };
    }

    private Insn unary() throws ProgramException, Unsupported {
        PtxType t = type();
        String o = ins.opcode();
        int d = dst(op(0));
        Src a = src(op(1), t);
        int size = Math.max(1, t.sizeBytes());
        if (isFloat(t) && !o.equals("popc") && !o.equals("clz") && !o.equals("brev")) {
            return floatUnary(o, t, d, a);
        }
        return switch (o) {
            case "neg" -> simple(th -> write(th, d, -a.get(th)));
            case "abs" -> simple(th -> write(th, d, Math.abs(ext(a.get(th), t))));
            case "not" -> t == PtxType.PRED ? simple(th -> write(th, d, a.get(th) == 0 ? 1 : 0))
                    : simple(th -> write(th, d, ~a.get(th)));
            case "cnot" -> simple(th -> write(th, d, (a.get(th) & mask(size)) == 0 ? 1 : 0));
            case "popc" -> simple(th -> write(th, d, Long.bitCount(a.get(th) & mask(size))));
            case "clz" -> simple(th -> write(th, d, Long.numberOfLeadingZeros(a.get(th) & mask(size)) - (64 - 8 * size)));
            case "brev" -> simple(th -> write(th, d, Long.reverse(a.get(th)) >>> (64 - 8 * size)));
            case "bfind" -> {
                boolean shiftamt = has("shiftamt");
                boolean signed = isSigned(t);
                yield simple(th -> {
                    long x = ext(a.get(th), t);
                    if (signed && x < 0) {
                        x = ~x;
                    }
                    x &= mask(size);
                    if (x == 0) {
                        write(th, d, 0xffffffffL);
                        return;
                    }
                    int msb = 63 - Long.numberOfLeadingZeros(x);
                    write(th, d, shiftamt ? 8 * size - 1 - msb : msb);
                });
            }
            default -> throw unsupported();
        };
    }

    private Insn floatUnary(String o, PtxType t, int d, Src a) throws Unsupported {
        Rounding r = Values.rounding(mods, Rounding.RN);
        boolean ftz = has("ftz");
        switch (t) {
            case F32:
                return simple(th -> {
                    long raw = a.get(th);
                    float x = Values.f32In(raw, ftz);
                    switch (o) {
                        // a NaN comes out canonical, as the GPU computes f32 neg/abs (ptxas's and jptxas's FADD with
                        // a negated or absolute source); its sign and payload are not PTX's to define (f64 and 16-bit
                        // neg/abs keep the bit operation: jptxas's code flips the sign bit there)
                        case "neg" -> write(th, d, Float.isNaN(x) ? Ieee.CANONICAL_NAN32
                                : (Float.floatToRawIntBits(x) ^ 0x80000000) & 0xffffffffL);
                        case "abs" -> write(th, d, Float.isNaN(x) ? Ieee.CANONICAL_NAN32
                                : Float.floatToRawIntBits(x) & 0x7fffffffL);
                        default -> {
                            float z = switch (o) {
                                case "sqrt" -> Ieee.sqrt(x, r);
                                case "rsqrt" -> (float) (1.0 / Math.sqrt(x));
                                case "rcp" -> Ieee.div(1.0f, x, r);
                                case "sin" -> (float) Math.sin(x);
                                case "cos" -> (float) Math.cos(x);
                                case "ex2" -> (float) Math.pow(2.0, x);
                                case "lg2" -> (float) (Math.log(x) / Math.log(2.0));
                                case "tanh" -> (float) Math.tanh(x);
                                default -> throw new InterpreterError("unsupported " + o + ".f32");
                            };
                            write(th, d, Values.f32Result(z, ftz, false));
                        }
                    }
                });
            case F64:
                return simple(th -> {
                    double x = f64(a.get(th));
                    switch (o) {
                        case "neg" -> write(th, d, Double.doubleToRawLongBits(x) ^ Long.MIN_VALUE);
                        case "abs" -> write(th, d, Double.doubleToRawLongBits(x) & Long.MAX_VALUE);
                        default -> {
                            double z = switch (o) {
                                case "sqrt" -> Ieee.sqrt(x, r);
                                case "rsqrt" -> 1.0 / Math.sqrt(x);
                                case "rcp" -> Ieee.div(1.0, x, r);
                                default -> throw new InterpreterError("unsupported " + o + ".f64");
                            };
                            write(th, d, bits(z));
                        }
                    }
                });
            case F16: case BF16: case F16X2: case BF16X2: {
                int lanes = t == PtxType.F16X2 || t == PtxType.BF16X2 ? 2 : 1;
                if (o.equals("neg") || o.equals("abs")) {
                    long m = lanes == 2 ? 0x80008000L : 0x8000L;
                    return o.equals("neg") ? simple(th -> write(th, d, a.get(th) ^ m))
                            : simple(th -> write(th, d, a.get(th) & ~m));
                }
                throw unsupported();
            }
            default:
                throw unsupported();
        }
    }

    private Insn mul24() throws ProgramException, Unsupported {
        PtxType t = type();
        int d = dst(op(0));
        Src a = src(op(1), t), b = src(op(2), t);
        Src c = ins.opcode().equals("mad24") ? src(op(3), t) : th -> 0L;
        boolean hi = has("hi");
        boolean signed = isSigned(t);
        return simple(th -> {
            long x = a.get(th) & 0xffffff, y = b.get(th) & 0xffffff;
            if (signed) {
                x = Values.sext(x << 8, 4) >> 8;
                y = Values.sext(y << 8, 4) >> 8;
            }
            long p = x * y;
            write(th, d, (hi ? p >> 16 : p) + c.get(th));
        });
    }

    private Insn sad() throws ProgramException, Unsupported {
        PtxType t = type();
        int d = dst(op(0));
        Src a = src(op(1), t), b = src(op(2), t), c = src(op(3), t);
        boolean signed = isSigned(t);
        return simple(th -> {
            long x = ext(a.get(th), t), y = ext(b.get(th), t);
            boolean less = signed ? x < y : Long.compareUnsigned(x, y) < 0;
            write(th, d, c.get(th) + (less ? y - x : x - y));
        });
    }

    private Insn bfe() throws ProgramException, Unsupported {
        PtxType t = type();
        int d = dst(op(0));
        Src a = src(op(1), t), b = src(op(2), PtxType.U32), c = src(op(3), PtxType.U32);
        int bitsN = 8 * t.sizeBytes();
        boolean signed = isSigned(t);
        return simple(th -> {
            long x = a.get(th);
            int pos = (int) (b.get(th) & 0xff), len = (int) (c.get(th) & 0xff);
            long sbit = 0;
            if (signed && len != 0) {
                sbit = (x >>> Math.min(pos + len - 1, bitsN - 1)) & 1;
            }
            long r = 0;
            for (int i = 0; i < bitsN; i++) {
                long bit = i < len && pos + i <= bitsN - 1 ? (x >>> (pos + i)) & 1 : sbit;
                r |= bit << i;
            }
            write(th, d, r);
        });
    }

    private Insn bfi() throws ProgramException, Unsupported {
        PtxType t = type();
        int d = dst(op(0));
        Src a = src(op(1), t), b = src(op(2), t), c = src(op(3), PtxType.U32), e = src(op(4), PtxType.U32);
        int bitsN = 8 * t.sizeBytes();
        return simple(th -> {
            long x = a.get(th), f = b.get(th);
            int pos = (int) (c.get(th) & 0xff), len = (int) (e.get(th) & 0xff);
            for (int i = 0; i < len && pos + i <= bitsN - 1; i++) {
                long bit = (x >>> i) & 1;
                f = (f & ~(1L << (pos + i))) | (bit << (pos + i));
            }
            write(th, d, f);
        });
    }

    private Insn prmt() throws ProgramException, Unsupported {
        int d = dst(op(0));
        Src a = src(op(1), PtxType.B32), b = src(op(2), PtxType.B32), c = src(op(3), PtxType.B32);
        String mode = null;
        for (String m : mods) {
            if (m.equals("f4e") || m.equals("b4e") || m.equals("rc8") || m.equals("ecl") || m.equals("ecr") || m.equals("rc16")) {
                mode = m;
            }
        }
        if (mode != null) {
            String md = mode;
            return simple(th -> write(th, d, prmtMode(md, a.get(th), b.get(th), (int) c.get(th))));
        }
        return simple(th -> {
            long pool = ((b.get(th) & 0xffffffffL) << 32) | (a.get(th) & 0xffffffffL);
            int s = (int) c.get(th);
            long r = 0;
            for (int i = 0; i < 4; i++) {
                int sel = (s >>> (4 * i)) & 0xf;
                long byteVal = (pool >>> (8 * (sel & 7))) & 0xff;
                if ((sel & 8) != 0) {
                    byteVal = (byteVal & 0x80) != 0 ? 0xff : 0;
                }
                r |= byteVal << (8 * i);
            }
            write(th, d, r);
        });
    }

    /** The special prmt modes: forward/backward 4-extract, replicate 8/16, edge clamp left/right. */
    private static long prmtMode(String mode, long a, long b, int c) {
        long pool = ((b & 0xffffffffL) << 32) | (a & 0xffffffffL);
        int s = c & 3;
        int[] sel = switch (mode) {
            case "f4e" -> new int[] {s, s + 1, s + 2, s + 3};
            case "b4e" -> new int[] {s, s - 1, s - 2, s - 3};
            case "rc8" -> new int[] {s, s, s, s};
            case "ecl" -> new int[] {s, Math.max(s, 1), Math.max(s, 2), 3};
            case "ecr" -> new int[] {0, Math.min(s, 1), Math.min(s, 2), s};
            default -> new int[] {(s & 1) * 2, (s & 1) * 2 + 1, (s & 1) * 2, (s & 1) * 2 + 1}; // rc16
        };
        long r = 0;
        for (int i = 0; i < 4; i++) {
            r |= ((pool >>> (8 * (sel[i] & 7))) & 0xff) << (8 * i);
        }
        return r;
    }

    private Insn dot() throws ProgramException, Unsupported {
        if (types.size() < 2) {
            throw unsupported();
        }
        boolean aSigned = isSigned(types.get(0)), bSigned = isSigned(types.get(1));
        boolean four = ins.opcode().equals("dp4a");
        boolean hi = has("hi");
        int d = dst(op(0));
        Src a = src(op(1), PtxType.B32), b = src(op(2), PtxType.B32), c = src(op(3), PtxType.B32);
        return simple(th -> {
            int x = (int) a.get(th), y = (int) b.get(th);
            int acc = (int) c.get(th);
            if (four) {
                for (int k = 0; k < 4; k++) {
                    int p = aSigned ? (byte) (x >> (8 * k)) : (x >>> (8 * k)) & 0xff;
                    int q = bSigned ? (byte) (y >> (8 * k)) : (y >>> (8 * k)) & 0xff;
                    acc += p * q;
                }
            } else {
                for (int k = 0; k < 2; k++) {
                    int p = aSigned ? (short) (x >> (16 * k)) : (x >>> (16 * k)) & 0xffff;
                    int sh = 8 * (k + (hi ? 2 : 0));
                    int q = bSigned ? (byte) (y >> sh) : (y >>> sh) & 0xff;
                    acc += p * q;
                }
            }
            write(th, d, acc);
        });
    }

    // ---------------------------------------------------------------- video instructions

    /** Scalar video instructions, as ptxas expands them ({@link VideoSemantics}). */
    private Insn video() throws ProgramException, Unsupported {
        rejectVideoSelectors();
        String op = ins.opcode();
        boolean vset = op.equals("vset");
        if (types.size() != (vset ? 2 : 3)) {
            throw unsupported();
        }
        String cmp = vset ? mods.stream().filter(m -> List.of("eq", "ne", "lt", "le", "gt", "ge").contains(m))
                .findFirst().orElseThrow(this::unsupported) : null;
        VideoSemantics.Secondary second = has("add") ? VideoSemantics.Secondary.ADD
                : has("min") ? VideoSemantics.Secondary.MIN
                : has("max") ? VideoSemantics.Secondary.MAX : VideoSemantics.Secondary.NONE;
        VideoSemantics.Form form = new VideoSemantics.Form(VideoSemantics.Op.of(op),
                !vset && isSigned(types.get(0)), isSigned(types.get(vset ? 0 : 1)), isSigned(types.get(vset ? 1 : 2)),
                has("sat") && !vset, has("wrap"), cmp, second);
        int d = dst(op(0));
        Src a = src(op(1), PtxType.B32), b = src(op(2), PtxType.B32);
        Src c = second != VideoSemantics.Secondary.NONE ? src(op(3), PtxType.B32) : null;
        return simple(th -> write(th, d, VideoSemantics.scalar(form, (int) a.get(th), (int) b.get(th),
                c == null ? 0 : (int) c.get(th)) & 0xffffffffL));
    }

    /**
     * SIMD video instructions on 2 half-words or 4 bytes: each lane of a and b extended by its type, the operation
     * (vavrg: the average rounded up), {@code .sat} clamping to the destination lane; the lanes packed into d, or
     * with {@code .add} their sum plus c. Every lane is written (the default mask); selectors are not modelled.
     */
    private Insn videoSimd() throws ProgramException, Unsupported {
        rejectVideoSelectors();
        String name = ins.opcode();
        int lanes = name.endsWith("2") ? 2 : 4;
        String op = name.substring(0, name.length() - 1);
        boolean vset = op.equals("vset");
        if (types.size() != (vset ? 2 : 3)) {
            throw unsupported();
        }
        boolean dSigned = !vset && isSigned(types.get(0));
        boolean aSigned = isSigned(types.get(vset ? 0 : 1)), bSigned = isSigned(types.get(vset ? 1 : 2));
        String cmp = vset ? mods.stream().filter(m -> List.of("eq", "ne", "lt", "le", "gt", "ge").contains(m))
                .findFirst().orElseThrow(this::unsupported) : null;
        boolean sat = has("sat") && !vset;
        boolean add = has("add");
        int d = dst(op(0));
        Src a = src(op(1), PtxType.B32), b = src(op(2), PtxType.B32), c = src(op(3), PtxType.B32);
        int bits = 32 / lanes;
        int mask = (1 << bits) - 1;
        return simple(th -> {
            int x = (int) a.get(th), y = (int) b.get(th);
            int sum = (int) c.get(th);
            int packed = 0;
            for (int i = 0; i < lanes; i++) {
                int va = lane(x, i, bits, aSigned), vb = lane(y, i, bits, bSigned);
                int t = switch (op) {
                    case "vadd" -> va + vb;
                    case "vsub" -> va - vb;
                    case "vavrg" -> va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
                    case "vabsdiff" -> Math.abs(va - vb);
                    case "vmin" -> Math.min(va, vb);
                    case "vmax" -> Math.max(va, vb);
                    default -> VideoSemantics.compare(cmp, va, vb) ? 1 : 0;
                };
                if (sat) {
                    t = dSigned ? Math.max(-(1 << (bits - 1)), Math.min((1 << (bits - 1)) - 1, t)) : Math.max(0, Math.min(mask, t));
                }
                sum += t;
                packed |= (t & mask) << (bits * i);
            }
            write(th, d, (add ? sum : packed) & 0xffffffffL);
        });
    }

    /** Operand selectors ({@code a.b1}, {@code d.h10}) are not modelled: such an instruction stops the run by name. */
    private void rejectVideoSelectors() throws Unsupported {
        for (Operand o : ops) {
            String selector = VideoSelectors.of(o);
            if (selector != null) {
                throw new Unsupported(ins.fullName() + " with video selector ." + selector);
            }
        }
    }

    private static int lane(int x, int i, int bits, boolean signed) {
        int v = x >>> (bits * i);
        return signed ? (v << (32 - bits)) >> (32 - bits) : v & ((1 << bits) - 1);
    }

    private Insn shf() throws ProgramException, Unsupported {
        boolean left = has("l"), clamp = has("clamp");
        int d = dst(op(0));
        Src a = src(op(1), PtxType.B32), b = src(op(2), PtxType.B32), c = src(op(3), PtxType.U32);
        return simple(th -> {
            long v = ((b.get(th) & 0xffffffffL) << 32) | (a.get(th) & 0xffffffffL);
            long s = c.get(th) & 0xffffffffL;
            int n = (int) (clamp ? Math.min(s, 32) : s & 31);
            write(th, d, left ? (v << n) >>> 32 : v >>> n);
        });
    }

    private Insn lop3() throws ProgramException, Unsupported {
        int d = dst(op(0));
        Src a = src(op(1), PtxType.B32), b = src(op(2), PtxType.B32), c = src(op(3), PtxType.B32);
        Src lut = src(op(4), PtxType.B32);
        return simple(th -> {
            long x = a.get(th), y = b.get(th), z = c.get(th);
            int l = (int) lut.get(th);
            long r = 0;
            for (int i = 0; i < 8; i++) {
                if ((l >>> i & 1) != 0) {
                    r |= ((i & 4) != 0 ? x : ~x) & ((i & 2) != 0 ? y : ~y) & ((i & 1) != 0 ? z : ~z);
                }
            }
            write(th, d, r);
        });
    }

    private Insn selp() throws ProgramException, Unsupported {
        PtxType t = type();
        int d = dst(op(0));
        Src a = src(op(1), t), b = src(op(2), t), c = src(op(3), PtxType.PRED);
        return simple(th -> write(th, d, c.get(th) != 0 ? a.get(th) : b.get(th)));
    }

    // ---------------------------------------------------------------- comparisons

    private Insn setp() throws ProgramException, Unsupported {
        PtxType t = type();
        String cmp = mods.get(0);
        String bool = mods.size() > 1 && (mods.contains("and") || mods.contains("or") || mods.contains("xor"))
                ? (mods.contains("and") ? "and" : mods.contains("or") ? "or" : "xor") : null;
        int p, q = -1;
        if (op(0) instanceof Operand.Pair pair) {
            p = dst(pair.first());
            q = dst(pair.second());
        } else {
            p = dst(op(0));
        }
        Src a = src(op(1), t), b = src(op(2), t);
        Src c;
        boolean cNeg;
        if (bool != null) {
            Operand co = op(3);
            cNeg = co instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
            c = src(cNeg ? ((Expr.Unary) co).operand() : co, PtxType.PRED);
        } else {
            c = null;
            cNeg = false;
        }
        if (t == PtxType.F16X2 || t == PtxType.BF16X2) {
            return simple(HalfPairCompare.setp(new HalfPairCompare.Sources(a, b, c, cNeg, bool, has("ftz"),
                    comparison(cmp, lane(t))), p, q));
        }
        Compare compare = comparison(cmp, t);
        int qq = q;
        boolean ftz = has("ftz");
        return simple(th -> {
            long x = a.get(th), y = b.get(th);
            if (ftz && t == PtxType.F32) {
                x = Float.floatToRawIntBits(Ieee.ftz(f32(x))) & 0xffffffffL;
                y = Float.floatToRawIntBits(Ieee.ftz(f32(y))) & 0xffffffffL;
            } else if (ftz && t == PtxType.F16) {
                x = ftzHalf(x);
                y = ftzHalf(y);
            }
            boolean r = compare.test(x, y);
            boolean nr = !r;
            if (bool != null) {
                boolean k = (c.get(th) != 0) != cNeg;
                r = combine(bool, r, k);
                nr = combine(bool, nr, k);
            }
            write(th, p, r ? 1 : 0);
            if (qq >= 0) {
                write(th, qq, nr ? 1 : 0);
            }
        });
    }

    /** An f16 source under .ftz (set/setp on f16): a subnormal is a zero of its sign. */
    private static long ftzHalf(long h) {
        return (h & 0x7c00) == 0 ? h & 0x8000 : h & 0xffff;
    }

    /** The lane type of a packed pair. */
    private static PtxType lane(PtxType pair) {
        return pair == PtxType.BF16X2 ? PtxType.BF16 : PtxType.F16;
    }

    private static boolean combine(String op, boolean a, boolean b) {
        return switch (op) {
            case "and" -> a && b;
            case "or" -> a || b;
            default -> a ^ b;
        };
    }

    @FunctionalInterface
    interface Compare {
        boolean test(long a, long b);
    }

    private Compare comparison(String cmp, PtxType t) throws Unsupported {
        if (isFloat(t)) {
            boolean half = t == PtxType.F16 || t == PtxType.BF16;
            boolean bf = t == PtxType.BF16;
            if (t == PtxType.F16X2 || t == PtxType.BF16X2) {
                throw unsupported();
            }
            FloatCompare fcmp = floatComparison(cmp);
            if (t == PtxType.F32) {
                return (x, y) -> fcmp.test(f32(x), f32(y));
            }
            if (half) {
                return (x, y) -> fcmp.test(Values.half(x, bf), Values.half(y, bf));
            }
            return (x, y) -> fcmp.test(f64(x), f64(y));
        }
        boolean signed = isSigned(t);
        return switch (cmp) {
            case "eq" -> (x, y) -> ext(x, t) == ext(y, t);
            case "ne" -> (x, y) -> ext(x, t) != ext(y, t);
            case "lt" -> signed ? (x, y) -> ext(x, t) < ext(y, t) : (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) < 0;
            case "le" -> signed ? (x, y) -> ext(x, t) <= ext(y, t) : (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) <= 0;
            case "gt" -> signed ? (x, y) -> ext(x, t) > ext(y, t) : (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) > 0;
            case "ge" -> signed ? (x, y) -> ext(x, t) >= ext(y, t) : (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) >= 0;
            case "lo" -> (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) < 0;
            case "ls" -> (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) <= 0;
            case "hi" -> (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) > 0;
            case "hs" -> (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) >= 0;
            default -> throw unsupported();
        };
    }

    @FunctionalInterface
    interface FloatCompare {
        boolean test(double a, double b);
    }

    private FloatCompare floatComparison(String cmp) throws Unsupported {
        return switch (cmp) {
            case "eq" -> (x, y) -> x == y;
            case "ne" -> (x, y) -> x != y && !Double.isNaN(x) && !Double.isNaN(y);
            case "lt" -> (x, y) -> x < y;
            case "le" -> (x, y) -> x <= y;
            case "gt" -> (x, y) -> x > y;
            case "ge" -> (x, y) -> x >= y;
            case "equ" -> (x, y) -> x == y || Double.isNaN(x) || Double.isNaN(y);
            case "neu" -> (x, y) -> x != y;
            case "ltu" -> (x, y) -> !(x >= y);
            case "leu" -> (x, y) -> !(x > y);
            case "gtu" -> (x, y) -> !(x <= y);
            case "geu" -> (x, y) -> !(x < y);
            case "num" -> (x, y) -> !Double.isNaN(x) && !Double.isNaN(y);
            case "nan" -> (x, y) -> Double.isNaN(x) || Double.isNaN(y);
            default -> throw unsupported();
        };
    }

    // ---------------------------------------------------------------- conversions

    /**
     * {@code cvt.pack.sat.{u8,s8,u16,s16}.s32{.b32} d, a, b{, c}} (PTX ISA "cvt.pack"): a and b clamped to the
     * narrow type, b in bits [0, n) and a in [n, 2n); for the 8-bit types c fills bits [2n, 32).
     */
    private Insn cvtPack(PtxType dt, PtxType st) throws ProgramException, Unsupported {
        int bits = 8 * dt.sizeBytes();
        if (!has("sat") || bits > 16 || !isSigned(st)) {
            throw unsupported();
        }
        boolean signed = isSigned(dt);
        long max = signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1, min = signed ? -(1L << (bits - 1)) : 0;
        long mask = (1L << bits) - 1;
        int d = dst(op(0));
        Src a = src(op(1), st), b = src(op(2), st);
        Src c = bits < 16 ? src(op(3), PtxType.B32) : null;
        return simple(th -> {
            long ta = Math.max(min, Math.min(max, (int) a.get(th))) & mask;
            long tb = Math.max(min, Math.min(max, (int) b.get(th))) & mask;
            long r = ta << bits | tb;
            if (c != null) {
                r |= c.get(th) << (2 * bits);
            }
            write(th, d, r & 0xffffffffL);
        });
    }

    private Insn cvt() throws ProgramException, Unsupported {
        if (types.size() < 2) {
            throw unsupported();
        }
        PtxType dt = types.get(0), st = types.get(1);
        if (has("pack")) {
            return cvtPack(dt, st);
        }
        int d = dst(op(0));
        Src a = src(op(1), st);
        boolean sat = has("sat"), ftz = has("ftz"), relu = has("relu");
        Rounding r = Values.rounding(mods, null);
        boolean integralRounding = mods.stream().anyMatch(m -> m.endsWith("i") && Rounding.ofModifier(m) != null);
        if (dt == PtxType.F16X2 || dt == PtxType.BF16X2) {
            Src b = src(op(2), st);
            boolean bf = dt == PtxType.BF16X2;
            return simple(th -> {
                long hi = Values.toHalf(cvtDouble(f32(a.get(th)), relu, sat), bf) & 0xffff;
                long lo = Values.toHalf(cvtDouble(f32(b.get(th)), relu, sat), bf) & 0xffff;
                write(th, d, hi << 16 | lo);
            });
        }
        if (isFloat(dt) && isFloat(st)) {
            return simple(th -> write(th, d, floatToFloat(a.get(th), st, dt, r, integralRounding, ftz, sat, relu)));
        }
        if (isFloat(dt)) {
            Rounding rr = r == null ? Rounding.RN : r;
            boolean signed = isSigned(st);
            return simple(th -> {
                long v = ext(a.get(th), st);
                java.math.BigDecimal exact = signed || st.sizeBytes() < 8 || v >= 0 ? java.math.BigDecimal.valueOf(v)
                        : new java.math.BigDecimal(Long.toUnsignedString(v));
                long out = switch (dt) {
                    case F32 -> {
                        float f = v == 0 ? 0.0f : Ieee.roundToFloat(exact, rr);
                        yield Values.f32Result(f, ftz, sat);
                    }
                    case F64 -> Double.doubleToRawLongBits(v == 0 ? 0.0 : Ieee.roundToDouble(exact, rr));
                    case F16, BF16 -> Values.toHalf(v == 0 ? 0.0 : Ieee.roundToDouble(exact, Rounding.RN), dt == PtxType.BF16);
                    default -> throw new InterpreterError("unsupported cvt to " + dt.ptxName());
                };
                write(th, d, out);
            });
        }
        if (isFloat(st)) {
            Rounding rr = r == null ? Rounding.RZ : r;
            int size = dt.sizeBytes();
            boolean signed = isSigned(dt);
            return simple(th -> {
                double x = switch (st) {
                    case F32 -> Values.f32In(a.get(th), ftz);
                    case F64 -> f64(a.get(th));
                    case F16, BF16 -> Values.half(a.get(th), st == PtxType.BF16);
                    default -> throw new InterpreterError("unsupported cvt from " + st.ptxName());
                };
                write(th, d, floatToInt(x, rr, size, signed));
            });
        }
        // integer to integer: extend from the source, then saturate or truncate to the destination
        int dsize = dt.sizeBytes();
        boolean dsigned = isSigned(dt);
        return simple(th -> {
            long v = ext(a.get(th), st);
            if (sat) {
                boolean ssigned = isSigned(st);
                if (dsigned) {
                    long max = dsize >= 8 ? Long.MAX_VALUE : (1L << (8 * dsize - 1)) - 1;
                    long min = dsize >= 8 ? Long.MIN_VALUE : -(1L << (8 * dsize - 1));
                    if (!ssigned && v < 0) {
                        v = max;
                    } else {
                        v = Math.max(min, Math.min(max, v));
                    }
                } else {
                    long max = mask(dsize);
                    if (ssigned && v < 0) {
                        v = 0;
                    } else if (dsize < 8 && Long.compareUnsigned(v, max) > 0) {
                        v = max;
                    }
                }
            }
            write(th, d, dsigned ? Values.sext(v, dsize) : v);
        });
    }

    private static double cvtDouble(double v, boolean relu, boolean sat) {
        if (relu && !(v > 0) && !Double.isNaN(v)) {
            v = 0;
        }
        return sat ? Ieee.saturate(v) : v;
    }

    private static long floatToFloat(long raw, PtxType st, PtxType dt, Rounding r, boolean integral, boolean ftz,
                                     boolean sat, boolean relu) {
        double x = switch (st) {
            case F32 -> Values.f32In(raw, ftz);
            case F64 -> f64(raw);
            case F16, BF16 -> Values.half(raw, st == PtxType.BF16);
            default -> throw new InterpreterError("unsupported cvt from " + st.ptxName());
        };
        if (integral) {
            x = Ieee.roundIntegral(x, r);
        }
        if (relu && !(x > 0) && !Double.isNaN(x)) {
            x = 0;
        }
        return switch (dt) {
            case F32 -> {
                float f;
                if (integral || st != PtxType.F64) {
                    f = (float) x;
                } else {
                    Rounding rr = r == null ? Rounding.RN : r;
                    f = Double.isNaN(x) || Double.isInfinite(x) || x == 0 ? (float) x
                            : Ieee.roundToFloat(new java.math.BigDecimal(x), rr);
                }
                yield Values.f32Result(f, ftz, sat);
            }
            case F64 -> bits(sat ? Ieee.saturate(x) : x);
            case F16, BF16 -> Values.toHalf(sat ? Ieee.saturate(x) : x, dt == PtxType.BF16);
            default -> throw new InterpreterError("unsupported cvt to " + dt.ptxName());
        };
    }

    /** Float to integer: round as asked, saturate to the destination's range; NaN gives 0. */
    private static long floatToInt(double x, Rounding r, int size, boolean signed) {
        if (Double.isNaN(x)) {
            return 0;
        }
        double v = Ieee.roundIntegral(x, r);
        if (signed) {
            double max = Math.scalb(1.0, 8 * size - 1);
            if (v >= max) {
                return size >= 8 ? Long.MAX_VALUE : (long) max - 1;
            }
            if (v < -max) {
                return size >= 8 ? Long.MIN_VALUE : -(long) max;
            }
            return (long) v;
        }
        if (v <= 0) {
            return 0;
        }
        double max = Math.scalb(1.0, 8 * size);
        if (v >= max) {
            return mask(size);
        }
        if (size >= 8 && v >= Math.scalb(1.0, 63)) {
            return new java.math.BigDecimal(v).toBigInteger().longValue();
        }
        return (long) v;
    }

    private Insn cvta() throws ProgramException, Unsupported {
        boolean to = has("to");
        AddressSpace s = space();
        if (s == AddressSpace.GENERIC || s == AddressSpace.PARAM && to) {
            throw unsupported();
        }
        int d = dst(op(0));
        Src a = src(op(1), PtxType.U64);
        long base = Machine.windowStart(s);
        boolean narrow = types.contains(PtxType.U32);
        if (to) {
            return simple(th -> {
                long v = a.get(th);
                write(th, d, base == 0 ? v : v - base);
            });
        }
        return simple(th -> {
            long v = a.get(th);
            if (narrow) {
                v &= 0xffffffffL;
            }
            write(th, d, base == 0 ? v : v + base);
        });
    }

    // ---------------------------------------------------------------- memory

    private Insn load() throws ProgramException, Unsupported {
        PtxType t = type();
        AddressSpace s = space();
        int n = vectorLength();
        int size = t.sizeBytes();
        Src addr = memory(op(1));
        boolean signed = isSigned(t);
        if (n == 1) {
            int d = dst(op(0));
            if (size == 16) {
                return simple(Wide128.load(s, addr, wide(op(0))));
            }
            return simple(th -> {
                long v = th.machine.load(th, s, addr.get(th), size);
                write(th, d, signed ? Values.sext(v, size) : v);
            });
        }
        if (!(op(0) instanceof Operand.Vector v) || v.elements().size() != n) {
            throw unsupported();
        }
        int[] regs = new int[n];
        for (int i = 0; i < n; i++) {
            regs[i] = dst(v.elements().get(i));
        }
        return simple(th -> {
            long a = addr.get(th);
            if ((a & ((long) n * size - 1)) != 0) {
                throw new org.jptxas.simulator.memory.MemoryAccessException(s, a, n * size, "misaligned vector access");
            }
            for (int i = 0; i < n; i++) {
                long x = th.machine.load(th, s, a + (long) i * size, size);
                write(th, regs[i], signed ? Values.sext(x, size) : x);
            }
        });
    }

    private Insn store() throws ProgramException, Unsupported {
        PtxType t = type();
        AddressSpace s = space();
        int n = vectorLength();
        int size = t.sizeBytes();
        Src addr = memory(op(0));
        if (n == 1) {
            if (size == 16) {
                return simple(op(1) instanceof Expr.SymbolRef ? Wide128.store(s, addr, wide(op(1)))
                        : Wide128.store(s, addr, src(op(1), PtxType.B64)));
            }
            Src v = src(op(1), t);
            return simple(th -> th.machine.store(th, s, addr.get(th), size, v.get(th)));
        }
        if (!(op(1) instanceof Operand.Vector vec) || vec.elements().size() != n) {
            throw unsupported();
        }
        Src[] vals = new Src[n];
        for (int i = 0; i < n; i++) {
            vals[i] = src(vec.elements().get(i), t);
        }
        return simple(th -> {
            long a = addr.get(th);
            if ((a & ((long) n * size - 1)) != 0) {
                throw new org.jptxas.simulator.memory.MemoryAccessException(s, a, n * size, "misaligned vector access");
            }
            for (int i = 0; i < n; i++) {
                th.machine.store(th, s, a + (long) i * size, size, vals[i].get(th));
            }
        });
    }

    private Insn atom() throws ProgramException, Unsupported {
        PtxType t = type();
        AddressSpace s = space();
        boolean red = ins.opcode().equals("red");
        String op = null;
        for (String m : mods) {
            switch (m) {
                case "add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec" -> op = m;
                default -> { }
            }
        }
        boolean pair = t == PtxType.F16X2 || t == PtxType.BF16X2;
        if (op == null || vectorLength() > 1 || pair && !op.equals("add") || t == PtxType.B128) {
            throw unsupported();
        }
        int base = red ? 0 : 1;
        int d = red ? -1 : dst(op(0));
        Src addr = memory(op(base));
        Src b = src(op(base + 1), t);
        Src c = op.equals("cas") ? src(op(base + 2), t) : null;
        int size = t.sizeBytes();
        String o = op;
        return simple(th -> {
            long a = addr.get(th);
            long old = th.machine.load(th, s, a, size);
            long x = b.get(th);
            long v = switch (o) {
                case "add" -> atomicAdd(old, x, t);
                case "min" -> isFloat(t) ? bitsOf(Math.min(asDouble(old, t), asDouble(x, t)), t)
                        : isSigned(t) ? Math.min(ext(old, t), ext(x, t)) : (Long.compareUnsigned(ext(old, t), ext(x, t)) <= 0 ? old : x);
                case "max" -> isFloat(t) ? bitsOf(Math.max(asDouble(old, t), asDouble(x, t)), t)
                        : isSigned(t) ? Math.max(ext(old, t), ext(x, t)) : (Long.compareUnsigned(ext(old, t), ext(x, t)) >= 0 ? old : x);
                case "and" -> old & x;
                case "or" -> old | x;
                case "xor" -> old ^ x;
                case "exch" -> x;
                case "cas" -> (old & mask(size)) == (x & mask(size)) ? c.get(th) : old;
                case "inc" -> Long.compareUnsigned(old & mask(size), x & mask(size)) >= 0 ? 0 : old + 1;
                case "dec" -> (old & mask(size)) == 0 || Long.compareUnsigned(old & mask(size), x & mask(size)) > 0 ? x : old - 1;
                default -> throw new InterpreterError("unsupported atom." + o);
            };
            th.machine.store(th, s, a, size, v);
            write(th, d, isSigned(t) ? Values.sext(old, size) : old);
        });
    }

    private static long atomicAdd(long old, long x, PtxType t) {
        return switch (t) {
            case F32 -> Float.floatToRawIntBits(f32(old) + f32(x)) & 0xffffffffL;
            case F64 -> Double.doubleToRawLongBits(f64(old) + f64(x));
            case F16, BF16 -> Values.toHalf(Values.half(old, t == PtxType.BF16) + Values.half(x, t == PtxType.BF16),
                    t == PtxType.BF16);
            // each lane on its own, rounded to nearest (no carry between the lanes)
            case F16X2, BF16X2 -> atomicAdd(old, x, t == PtxType.BF16X2 ? PtxType.BF16 : PtxType.F16) & 0xffff
                    | (atomicAdd(old >>> 16, x >>> 16, t == PtxType.BF16X2 ? PtxType.BF16 : PtxType.F16) & 0xffff) << 16;
            default -> old + x;
        };
    }

    private static double asDouble(long v, PtxType t) {
        return t == PtxType.F32 ? f32(v) : f64(v);
    }

    private static long bitsOf(double v, PtxType t) {
        return t == PtxType.F32 ? Float.floatToRawIntBits((float) v) & 0xffffffffL : Double.doubleToRawLongBits(v);
    }

    // ---------------------------------------------------------------- control

    private Insn bra() throws Unsupported {
        if (ops.size() != 1 || !(ops.get(0) instanceof Expr.SymbolRef r)) {
            throw unsupported(); // brx.idx and indirect branches
        }
        Insn in = kind(Insn.Kind.BRANCH);
        fc.branchTo(in, r.name());
        return in;
    }

    /** The opaque address a function's name evaluates to ({@code mov.u64 %rd, f}). */
    static long functionAddress(String name) {
        return 0x0000_0400_0000_0000L + 16L * (name.hashCode() & 0xffffL);
    }

    private Insn call() throws ProgramException, Unsupported {
        // call{.uni} [(ret, ...),] func [, (arg, ...)] [, prototype];
        List<Operand> rets = List.of();
        List<Operand> args = List.of();
        String callee = null;
        int i = 0;
        if (i < ops.size() && ops.get(i) instanceof Operand.ParenList pl && i + 1 < ops.size()
                && ops.get(i + 1) instanceof Expr.SymbolRef) {
            rets = pl.elements();
            i++;
        }
        Src target = null;
        if (i < ops.size() && ops.get(i) instanceof Expr.SymbolRef r) {
            Symbol s = fc.lookup(r.name());
            if (s != null && s.kind() == Symbol.Kind.REGISTER) {
                target = src(r, PtxType.U64); // indirect call: the callee is looked up by address when it runs
            } else if (s == null || s.kind() != Symbol.Kind.FUNCTION) {
                throw unsupported();
            } else {
                callee = r.name();
            }
            i++;
        } else {
            throw unsupported();
        }
        if (i < ops.size() && ops.get(i) instanceof Operand.ParenList pl) {
            args = pl.elements();
        }
        int[] argOffsets = new int[args.size()];
        Src[] argValues = new Src[args.size()];
        for (int k = 0; k < args.size(); k++) {
            Symbol s = args.get(k) instanceof Expr.SymbolRef ar ? fc.lookup(ar.name()) : null;
            if (s != null && s.kind() == Symbol.Kind.PARAM_VAR) {
                argOffsets[k] = (int) s.offset();
            } else {
                argOffsets[k] = -1;
                argValues[k] = src(args.get(k), null);
            }
        }
        int[] retOffsets = new int[rets.size()];
        int[] retRegs = new int[rets.size()];
        for (int k = 0; k < rets.size(); k++) {
            Symbol s = rets.get(k) instanceof Expr.SymbolRef rr ? fc.lookup(rr.name()) : null;
            if (s != null && s.kind() == Symbol.Kind.PARAM_VAR) {
                retOffsets[k] = (int) s.offset();
                retRegs[k] = -1;
            } else {
                retOffsets[k] = -1;
                retRegs[k] = dst(rets.get(k));
            }
        }
        Insn in = kind(Insn.Kind.CALL);
        in.call = new Insn.CallSite(callee, argOffsets, argValues, retOffsets, retRegs);
        in.call.target = target;
        return in;
    }

    private Insn barrier() throws ProgramException, Unsupported {
        // bar.sync a{, b}; barrier.sync{.aligned} a{, b}; bar.arrive a, b; bar.red.op.type d, a{, b}, {!}c; bar.warp.sync m
        if (has("warp")) {
            Src m = src(op(0), PtxType.B32);
            return warp((lanes, group) -> { }, m);
        }
        boolean redOp = has("red");
        boolean arrive = has("arrive");
        boolean cluster = has("cluster");
        if (cluster) { // barrier.cluster.arrive/wait: PtxCluster
            return simple(t -> PtxCluster.barrier(t, arrive));
        }
        if (redOp) {
            String reduction = has("popc") ? "popc" : has("and") ? "and" : "or";
            int d = dst(op(0));
            Src id = src(op(1), PtxType.U32);
            Src count = ops.size() == 4 ? src(op(2), PtxType.U32) : null;
            Operand po = op(ops.size() - 1);
            boolean neg = po instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
            Src pred = src(neg ? ((Expr.Unary) po).operand() : po, PtxType.PRED);
            return new Insn(Insn.Kind.BARRIER, guardReg, guardNeg, null, null, null,
                    new Insn.BarrierSpec(id, count, true, reduction, d, pred, neg), text(), line(), null);
        }
        Src id = ops.isEmpty() ? t -> 0L : src(op(0), PtxType.U32);
        Src count = ops.size() > 1 ? src(op(1), PtxType.U32) : null;
        return new Insn(Insn.Kind.BARRIER, guardReg, guardNeg, null, null, null,
                new Insn.BarrierSpec(id, count, !arrive, null, -1, null, false), text(), line(), null);
    }

    // ---------------------------------------------------------------- carry chains and small ALU ops

    /** add.cc, addc{.cc}, sub.cc, subc{.cc}, mad{c}.lo/hi{.cc}: extended-precision arithmetic through CC.CF. */
    private Insn carryOp() throws ProgramException, Unsupported {
        PtxType t = type();
        String o = ins.opcode();
        boolean setCc = has("cc");
        boolean useCarry = o.endsWith("c");
        int size = t.sizeBytes();
        if (size != 4 && size != 8) {
            throw unsupported();
        }
        int d = dst(op(0));
        Src a = src(op(1), t), b = src(op(2), t);
        boolean mad = o.startsWith("mad");
        Src c = mad ? src(op(3), t) : null;
        boolean hi = has("hi");
        boolean sub = o.startsWith("sub");
        long m = mask(size);
        return simple(th -> {
            long x = a.get(th) & m, y = b.get(th) & m;
            long cin = useCarry && th.carry ? 1 : 0;
            if (mad) {
                long p;
                if (size == 4) {
                    long full = x * y;
                    p = hi ? full >>> 32 : full & m;
                    if (isSigned(t) && hi) {
                        p = ((ext(x, t) * ext(y, t)) >> 32) & m;
                    }
                } else {
                    p = hi ? mulHigh64(x, y, isSigned(t)) : x * y;
                }
                x = p & m;
                y = c.get(th) & m;
            }
            long r;
            boolean carryOut;
            if (sub) {
                r = (x - y - cin) & m;
                carryOut = Long.compareUnsigned(x, y) < 0 || (Long.compareUnsigned(x, y) == 0 && cin != 0)
                        || (cin != 0 && y == m);
            } else {
                r = (x + y + cin) & m;
                carryOut = size == 4 ? ((x + y + cin) >>> 32) != 0
                        : Long.compareUnsigned(r, x) < 0 || (cin != 0 && r == x);
            }
            write(th, d, r);
            if (setCc) {
                th.carry = carryOut;
            }
        });
    }

    private Insn testp() throws ProgramException, Unsupported {
        PtxType t = type();
        String what = mods.get(0);
        int d = dst(op(0));
        Src a = src(op(1), t);
        boolean f32 = t == PtxType.F32;
        return simple(th -> {
            double x = f32 ? f32(a.get(th)) : f64(a.get(th));
            boolean sub = x != 0 && Math.abs(x) < (f32 ? Float.MIN_NORMAL : Double.MIN_NORMAL);
            boolean r = switch (what) {
                case "finite" -> !Double.isNaN(x) && !Double.isInfinite(x);
                case "infinite" -> Double.isInfinite(x);
                case "number" -> !Double.isNaN(x);
                case "notanumber" -> Double.isNaN(x);
                case "normal" -> !Double.isNaN(x) && !Double.isInfinite(x) && x != 0 && !sub;
                case "subnormal" -> sub;
                default -> throw new InterpreterError("unsupported testp." + what);
            };
            write(th, d, r ? 1 : 0);
        });
    }

    /** set.CmpOp{.BoolOp}.dtype.stype: all ones (integer) or 1.0f for true. */
    private Insn set() throws ProgramException, Unsupported {
        if (types.size() < 2) {
            throw unsupported();
        }
        PtxType dt = types.get(0), st = types.get(1);
        String bool = mods.contains("and") ? "and" : mods.contains("or") ? "or" : mods.contains("xor") ? "xor" : null;
        int d = dst(op(0));
        Src a = src(op(1), st), b = src(op(2), st);
        if (st == PtxType.F16X2 || st == PtxType.BF16X2) {
            Operand co = bool != null ? op(3) : null;
            boolean cNeg = co instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
            Src c = co == null ? null : src(cNeg ? ((Expr.Unary) co).operand() : co, PtxType.PRED);
            return simple(HalfPairCompare.set(new HalfPairCompare.Sources(a, b, c, cNeg, bool, has("ftz"),
                    comparison(mods.get(0), lane(st))), dt, d));
        }
        Compare compare = comparison(mods.get(0), st);
        Src c = bool != null ? src(op(3), PtxType.PRED) : null;
        long yes = dt == PtxType.F32 ? Float.floatToRawIntBits(1.0f) & 0xffffffffL : 0xffffffffL;
        boolean ftz = has("ftz") && st == PtxType.F32, ftzHalf = has("ftz") && st == PtxType.F16;
        return simple(th -> {
            long x = a.get(th), y = b.get(th);
            if (ftz) { // as setp: subnormal f32 sources compare as zeros of their sign
                x = Float.floatToRawIntBits(Ieee.ftz(f32(x))) & 0xffffffffL;
                y = Float.floatToRawIntBits(Ieee.ftz(f32(y))) & 0xffffffffL;
            } else if (ftzHalf) {
                x = ftzHalf(x);
                y = ftzHalf(y);
            }
            boolean r = compare.test(x, y);
            if (bool != null) {
                r = combine(bool, r, c.get(th) != 0);
            }
            write(th, d, r ? yes : 0);
        });
    }

    private Insn slct() throws ProgramException, Unsupported {
        if (types.size() < 2) {
            throw unsupported();
        }
        PtxType dt = types.get(0), ct = types.get(1);
        int d = dst(op(0));
        Src a = src(op(1), dt), b = src(op(2), dt), c = src(op(3), ct);
        if (ct == PtxType.F32) {
            // .ftz: a subnormal c is a zero of its sign, and -0 >= 0
            boolean ftz = has("ftz");
            return simple(th -> {
                float x = f32(c.get(th));
                write(th, d, (ftz ? Ieee.ftz(x) : x) >= 0 ? a.get(th) : b.get(th));
            });
        }
        return simple(th -> write(th, d, (int) c.get(th) >= 0 ? a.get(th) : b.get(th)));
    }

    private Insn isspacep() throws ProgramException, Unsupported {
        AddressSpace s = space();
        int d = dst(op(0));
        Src a = src(op(1), PtxType.U64);
        return simple(th -> {
            long x = a.get(th);
            AddressSpace w = Machine.windowOf(x);
            boolean r = s == AddressSpace.GLOBAL ? w == AddressSpace.GLOBAL && th.machine.launch.global().find(x, 1).isPresent()
                    : w == s;
            write(th, d, r ? 1 : 0);
        });
    }

    private Insn bmsk() throws ProgramException, Unsupported {
        boolean clamp = has("clamp");
        int d = dst(op(0));
        Src a = src(op(1), PtxType.U32), b = src(op(2), PtxType.U32);
        return simple(th -> {
            long pos = a.get(th) & 0xffffffffL, len = b.get(th) & 0xffffffffL;
            if (!clamp) {
                pos &= 0xff;
                len &= 0xff;
            }
            long end = Math.min(32, pos + len);
            long m = pos >= 32 ? 0 : ((1L << end) - 1) & ~((1L << pos) - 1);
            write(th, d, m);
        });
    }

    private Insn szext() throws ProgramException, Unsupported {
        boolean clamp = has("clamp");
        boolean signed = type() == PtxType.S32;
        int d = dst(op(0));
        Src a = src(op(1), PtxType.U32), b = src(op(2), PtxType.U32);
        return simple(th -> {
            long x = a.get(th) & 0xffffffffL;
            long n = b.get(th) & 0xffffffffL;
            n = clamp ? Math.min(n, 32) : n & 31;
            if (n == 0) {
                write(th, d, 0);
                return;
            }
            long v = n >= 32 ? x : x & ((1L << n) - 1);
            if (signed && n < 32 && (v >>> (n - 1) & 1) != 0) {
                v |= ~((1L << n) - 1);
            }
            write(th, d, v);
        });
    }

    private Insn elect() throws ProgramException, Unsupported {
        int d, p;
        if (op(0) instanceof Operand.Pair pair) {
            d = dst(pair.first());
            p = dst(pair.second());
        } else {
            d = -1;
            p = dst(op(0));
        }
        Src m = src(op(1), PtxType.B32);
        return warp((lanes, group) -> {
            int leader = Integer.numberOfTrailingZeros(group);
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, leader);
                    write(lanes[l], p, l == leader ? 1 : 0);
                }
            }
        }, m);
    }

    // ---------------------------------------------------------------- warp-level

    private Insn activemask() throws ProgramException, Unsupported {
        int d = dst(op(0));
        return warp((lanes, group) -> {
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, group & 0xffffffffL);
                }
            }
        }, null);
    }

    private Insn shfl() throws ProgramException, Unsupported {
        // shfl.sync.mode.b32 d[|p], a, b, c, membermask;
        String mode = mods.contains("up") ? "up" : mods.contains("down") ? "down" : mods.contains("bfly") ? "bfly" : "idx";
        int d, p = -1;
        if (op(0) instanceof Operand.Pair pair) {
            d = dst(pair.first());
            p = dst(pair.second());
        } else {
            d = dst(op(0));
        }
        Src a = src(op(1), PtxType.B32), b = src(op(2), PtxType.B32), c = src(op(3), PtxType.B32);
        Src m = ops.size() > 4 ? src(op(4), PtxType.B32) : t -> 0xffffffffL;
        int pp = p;
        return warp((lanes, group) -> {
            long[] values = new long[32];
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    values[l] = a.get(lanes[l]);
                }
            }
            long[] out = new long[32];
            boolean[] ok = new boolean[32];
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) == 0) {
                    continue;
                }
                ThreadState th = lanes[l];
                int bval = (int) b.get(th) & 0x1f, cval = (int) c.get(th);
                int segmask = (cval >>> 8) & 0x1f, clamp = cval & 0x1f;
                int maxLane = (l & segmask) | (clamp & ~segmask), minLane = l & segmask;
                int j;
                boolean valid;
                switch (mode) {
                    case "up" -> { j = l - bval; valid = j >= maxLane; }
                    case "down" -> { j = l + bval; valid = j <= maxLane; }
                    case "bfly" -> { j = l ^ bval; valid = j <= maxLane; }
                    default -> { j = minLane | (bval & ~segmask); valid = j <= maxLane; }
                }
                if (!valid) {
                    j = l;
                }
                if ((group >>> j & 1) == 0) {
                    throw new InterpreterError("shfl.sync reads lane " + j + ", which is not executing it (undefined)");
                }
                out[l] = values[j];
                ok[l] = valid;
            }
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, out[l]);
                    if (pp >= 0) {
                        write(lanes[l], pp, ok[l] ? 1 : 0);
                    }
                }
            }
        }, m);
    }

    private Insn vote() throws ProgramException, Unsupported {
        String mode = mods.contains("all") ? "all" : mods.contains("any") ? "any" : mods.contains("uni") ? "uni" : "ballot";
        int d = dst(op(0));
        Operand po = op(1);
        boolean neg = po instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
        Src pred = src(neg ? ((Expr.Unary) po).operand() : po, PtxType.PRED);
        Src m = ops.size() > 2 ? src(op(2), PtxType.B32) : t -> 0xffffffffL;
        return warp((lanes, group) -> {
            int ballot = 0;
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0 && (pred.get(lanes[l]) != 0) != neg) {
                    ballot |= 1 << l;
                }
            }
            long r = switch (mode) {
                case "all" -> ballot == group ? 1 : 0;
                case "any" -> ballot != 0 ? 1 : 0;
                case "uni" -> ballot == 0 || ballot == group ? 1 : 0;
                default -> ballot & 0xffffffffL;
            };
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, r);
                }
            }
        }, m);
    }

    private Insn match() throws ProgramException, Unsupported {
        boolean all = mods.contains("all");
        PtxType t = type();
        int d, p = -1;
        if (op(0) instanceof Operand.Pair pair) {
            d = dst(pair.first());
            p = dst(pair.second());
        } else {
            d = dst(op(0));
        }
        Src a = src(op(1), t);
        Src m = src(op(2), PtxType.B32);
        long vm = mask(t.sizeBytes());
        int pp = p;
        return warp((lanes, group) -> {
            long[] v = new long[32];
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    v[l] = a.get(lanes[l]) & vm;
                }
            }
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) == 0) {
                    continue;
                }
                int same = 0;
                for (int o = 0; o < 32; o++) {
                    if ((group >>> o & 1) != 0 && v[o] == v[l]) {
                        same |= 1 << o;
                    }
                }
                if (all) {
                    boolean eq = same == group;
                    write(lanes[l], d, eq ? group & 0xffffffffL : 0);
                    if (pp >= 0) {
                        write(lanes[l], pp, eq ? 1 : 0);
                    }
                } else {
                    write(lanes[l], d, same & 0xffffffffL);
                }
            }
        }, m);
    }

    private Insn redux() throws ProgramException, Unsupported {
        PtxType t = type();
        String op = null;
        for (String m : mods) {
            if (m.equals("add") || m.equals("min") || m.equals("max") || m.equals("and") || m.equals("or") || m.equals("xor")) {
                op = m;
            }
        }
        if (op == null || isFloat(t)) {
            throw unsupported();
        }
        int d = dst(op(0));
        Src a = src(op(1), t);
        Src m = src(op(2), PtxType.B32);
        String o = op;
        boolean signed = isSigned(t);
        return warp((lanes, group) -> {
            long acc = switch (o) {
                case "and" -> -1L;
                case "min" -> signed ? Integer.MAX_VALUE : 0xffffffffL;
                case "max" -> signed ? Integer.MIN_VALUE : 0;
                default -> 0;
            };
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) == 0) {
                    continue;
                }
                long v = ext(a.get(lanes[l]), t);
                acc = switch (o) {
                    case "add" -> acc + v;
                    case "min" -> signed ? Math.min(acc, v) : (Long.compareUnsigned(acc, v) <= 0 ? acc : v);
                    case "max" -> signed ? Math.max(acc, v) : (Long.compareUnsigned(acc, v) >= 0 ? acc : v);
                    case "and" -> acc & v;
                    case "or" -> acc | v;
                    default -> acc ^ v;
                };
            }
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, acc);
                }
            }
        }, m);
    }

    /**
     * {@code ldmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 {d0, ...}, [a]}: N = 1, 2 or 4 8x8
     * matrices of 16-bit elements; lane t gives the address of row t%8 of matrix t/8 (16 bytes, 16-byte aligned, in
     * shared memory: a shared-space address with {@code .shared}, else a generic one that must point into the shared
     * window). Every lane t receives in di, low half first, elements (t/4, 2(t%4)) and (t/4, 2(t%4)+1) of matrix i,
     * or with {@code .trans} elements (2(t%4), t/4) and (2(t%4)+1, t/4). The whole warp executes it (as a
     * {@code .sync} instruction with a full member mask); a row whose lane does not execute it is undefined.
     */
    private Insn ldmatrix() throws ProgramException, Unsupported {
        int n = has("x4") ? 4 : has("x2") ? 2 : has("x1") ? 1 : 0;
        AddressSpace s = has("shared::cta") ? AddressSpace.SHARED : space();
        if (n == 0 || !has("sync") || !has("aligned") || !has("m8n8") || !has("b16")
                || s != AddressSpace.SHARED && s != AddressSpace.GENERIC) {
            throw unsupported();
        }
        for (String m : mods) {
            switch (m) {
                case "sync", "aligned", "m8n8", "x1", "x2", "x4", "trans", "shared", "shared::cta", "b16" -> { }
                default -> throw unsupported();
            }
        }
        List<Operand> elements = op(0) instanceof Operand.Vector v ? v.elements() : List.of(op(0));
        if (elements.size() != n) {
            throw fc.error(line(), "ldmatrix." + (n == 1 ? "x1" : n == 2 ? "x2" : "x4") + " needs " + n
                    + " destination register(s), not " + elements.size());
        }
        int[] regs = new int[n];
        for (int i = 0; i < n; i++) {
            regs[i] = dst(elements.get(i));
        }
        Src addr = memory(op(1));
        boolean trans = has("trans");
        String where = "line " + line() + " (" + text() + ")";
        return warp((lanes, group) -> {
            int[][] rows = new int[8 * n][];
            for (int r = 0; r < 8 * n; r++) {
                if ((group >>> r & 1) == 0) {
                    throw new InterpreterError("ldmatrix reads row " + (r & 7) + " of matrix " + r / 8 + " from lane "
                            + r + ", which is not executing it (undefined)");
                }
                ThreadState th = lanes[r];
                try {
                    rows[r] = matrixRow(th, s, addr.get(th));
                } catch (MemoryAccessException e) {
                    throw new FaultException(new Fault.MemoryFault(th.ref(), where, e));
                }
            }
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) == 0) {
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    write(lanes[l], regs[i], Integer.toUnsignedLong(MatrixFragments.of(rows, 8 * i, l, trans)));
                }
            }
        }, t -> 0xffffffffL);
    }

    /** This instruction's operands as the async-copy and mbarrier compilers read them. */
    private final class OperandAccess implements MbarrierInstruction.Operands, AsyncCopyInstruction.Operands,
            MovInstruction.Operands {
        @Override
        public int wide(Operand o) {
            return wideSlot(o);
        }

        @Override
        public Src src(Operand o, PtxType t) throws ProgramException, Unsupported {
            return InstructionCompiler.this.src(o, t);
        }

        @Override
        public Src memory(Operand o) throws ProgramException, Unsupported {
            return InstructionCompiler.this.memory(o);
        }

        @Override
        public int dst(Operand o) throws ProgramException, Unsupported {
            return o instanceof Operand.Sink ? -1 : InstructionCompiler.this.dst(o);
        }

        @Override
        public Long constant(Operand o) {
            return o instanceof Expr e ? ConstExpr.evaluate(e) : null;
        }
    }

    /** {@code mbarrier...} and {@code cp.async.bulk...}: {@link MbarrierInstruction}. */
    private Insn hopper(boolean barrier) throws ProgramException, Unsupported {
        OperandAccess io = new OperandAccess();
        Insn.ThreadOp op = barrier ? MbarrierInstruction.mbarrier(mods, ops, io)
                : MbarrierInstruction.bulkCopy(mods, ops, io);
        if (op == null) {
            throw unsupported();
        }
        return simple(op);
    }

    /** {@code cp.async...}: {@link AsyncCopyInstruction}. */
    private Insn cpAsync() throws ProgramException, Unsupported {
        if (!has("async")) {
            throw unsupported();
        }
        Insn.ThreadOp op = AsyncCopyInstruction.compile(mods, ops, new OperandAccess());
        if (op == null) {
            throw unsupported();
        }
        return simple(op);
    }

    /** {@code mma.sync.aligned ...}: {@link MmaInstruction}, over the whole warp. */
    private Insn mma() throws ProgramException, Unsupported {
        org.jptxas.simulator.exec.WarpMma.Spec s = MmaInstruction.spec(mods);
        if (s == null) {
            throw unsupported();
        }
        return warp(MmaInstruction.compile(s, ops, new MmaInstruction.Operands() {
            @Override
            public Src src(Operand o, PtxType t) throws ProgramException, Unsupported {
                return InstructionCompiler.this.src(o, t);
            }

            @Override
            public int dst(Operand o) throws ProgramException, Unsupported {
                return InstructionCompiler.this.dst(o);
            }
        }), t -> 0xffffffffL);
    }

    /** One 16-byte matrix row of ldmatrix as four little-endian words, from shared memory. */
    private static int[] matrixRow(ThreadState th, AddressSpace s, long a) {
        long off = a & 0xffffffffL; // a shared-space address is 32-bit (register + offset wraps as in LDSM's Ra + imm)
        if (s == AddressSpace.GENERIC) {
            if (Machine.windowOf(a) != AddressSpace.SHARED) {
                throw new MemoryAccessException(AddressSpace.GENERIC, a, 16,
                        "ldmatrix needs a generic address in the shared window");
            }
            off = a - Machine.SHARED_WINDOW;
        }
        return th.cta.shared.load128(off);
    }

    /** The high 64 bits of the 128-bit product (Java 17 has no unsigned multiplyHigh: correct the signed one). */
    static long mulHigh64(long x, long y, boolean signed) {
        long h = Math.multiplyHigh(x, y);
        return signed ? h : h + ((x >> 63) & y) + ((y >> 63) & x);
    }
}
