package org.jptxas.simulator.ptx;

import static org.jptxas.simulator.ptx.Values.bits;
import static org.jptxas.simulator.ptx.Values.isFloat;
import static org.jptxas.simulator.ptx.Values.mask;
import static org.jptxas.simulator.ptx.Values.write;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.ptx.PtxProgram.Symbol;

/**
 * Translates one PTX instruction into executable semantics, following the PTX ISA. Instructions outside what the
 * interpreter knows compile to an UNSUPPORTED instruction that stops the run with its name when executed.
 */
final class InstructionCompiler {
    final FunctionCompiler fc;
    final Instruction ins;
    final List<String> mods;
    final List<PtxType> types = new ArrayList<>();
    final List<Operand> ops;
    int guardReg = -1;
    boolean guardNeg;

    /** The instruction families' compilers, sharing this instruction's operands and modifiers. */
    final ArithmeticCompiler arithmetic = new ArithmeticCompiler(this);
    final BitCompiler bits = new BitCompiler(this);
    final CompareCompiler compare = new CompareCompiler(this);
    final ConversionCompiler conversion = new ConversionCompiler(this);
    final MemoryCompiler memoryAccess = new MemoryCompiler(this);
    final ControlFlowCompiler control = new ControlFlowCompiler(this);
    final WarpCompiler warpLevel = new WarpCompiler(this);

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

    int line() {
        return ins.pos().line();
    }

    String text() {
        return ins.fullName();
    }

    Unsupported unsupported() {
        return new Unsupported(ins.fullName());
    }

    Insn simple(Insn.ThreadOp op) {
        return new Insn(Insn.Kind.SIMPLE, guardReg, guardNeg, op, null, null, null, text(), line(), null);
    }

    Insn warp(Insn.WarpOp op, Src memberMask) {
        return new Insn(Insn.Kind.WARP, guardReg, guardNeg, null, op, memberMask, null, text(), line(), null);
    }

    Insn kind(Insn.Kind k) {
        return new Insn(k, guardReg, guardNeg, null, null, null, null, text(), line(), null);
    }

    PtxType type() throws Unsupported {
        if (types.isEmpty()) {
            throw unsupported();
        }
        return types.get(types.size() - 1);
    }

    boolean has(String m) {
        return mods.contains(m);
    }

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
                return Src.imm(ControlFlowCompiler.functionAddress(r.name())); // an opaque code address, which indirect calls look up
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
    Src memory(Operand o) throws ProgramException, Unsupported {
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

    AddressSpace space() {
        for (String m : mods) {
            switch (m) {
                case "global": return AddressSpace.GLOBAL;
                case "shared", "shared::cta", "shared::cluster": return AddressSpace.SHARED; // PtxCluster: a block's rank in the address
                case "local": return AddressSpace.LOCAL;
                case "const": return AddressSpace.CONST;
                case "param", "param::entry", "param::func": return AddressSpace.PARAM;
                default: break;
            }
        }
        return AddressSpace.GENERIC;
    }

    int vectorLength() {
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

    Operand op(int i) throws Unsupported {
        if (i >= ops.size()) {
            throw unsupported();
        }
        return ops.get(i);
    }

    private Insn dispatch() throws ProgramException, Unsupported {
        if (PackedIntegerInstruction.applies(this)) {
            return PackedIntegerInstruction.compile(this);
        }
        return switch (ins.opcode()) {
            case "mov" -> mov();
            case "add", "sub" -> has("cc") ? arithmetic.carryOp() : arithmetic.binary();
            case "mul", "div", "rem", "min", "max", "and", "or", "xor", "shl", "shr", "copysign" -> arithmetic.binary();
            case "mad", "fma" -> has("cc") && !isFloat(type()) ? arithmetic.carryOp() : arithmetic.mad();
            case "addc", "subc", "madc" -> arithmetic.carryOp();
            case "testp" -> compare.testp();
            case "set" -> compare.set();
            case "slct" -> compare.slct();
            case "isspacep" -> memoryAccess.isspacep();
            case "stacksave", "alloca", "stackrestore" -> StackInstruction.compile(this, ins.opcode());
            case "fns" -> FnsInstruction.compile(this);
            case "bmsk" -> bits.bmsk();
            case "szext" -> bits.szext();
            case "elect" -> warpLevel.elect();
            case "neg", "abs", "not", "cnot", "popc", "clz", "brev", "bfind", "sqrt", "rsqrt", "rcp", "sin", "cos", "ex2",
                    "lg2", "tanh" -> arithmetic.unary();
            case "mul24", "mad24" -> arithmetic.mul24();
            case "sad" -> arithmetic.sad();
            case "bfe" -> bits.bfe();
            case "bfi" -> bits.bfi();
            case "prmt" -> bits.prmt();
            case "dp4a", "dp2a" -> bits.dot();
            case "shf" -> bits.shf();
            case "lop3" -> bits.lop3();
            case "selp" -> compare.selp();
            case "setp" -> compare.setp();
            case "cvt" -> conversion.cvt();
            case "cvta" -> memoryAccess.cvta();
            case "ld", "ldu" -> memoryAccess.load();
            case "st" -> has("async") ? asyncStore(false) : memoryAccess.store();
            case "atom", "red" -> has("async") ? asyncStore(true) : memoryAccess.atom();
            case "bra" -> control.bra();
            case "brx", "brx.idx" -> control.brx();
            case "call" -> control.call();
            case "ret" -> kind(Insn.Kind.RET);
            case "exit" -> kind(Insn.Kind.EXIT);
            // brkpt is BPT.TRAP like trap: without a debugger attached the kernel stops with an error
            case "trap", "brkpt" -> kind(Insn.Kind.TRAP);
            case "bar", "barrier" -> control.barrier();
            // griddepcontrol orders this grid against the grid it depends on: one grid runs here, nothing to wait for
            case "membar", "fence", "nanosleep", "prefetch", "prefetchu", "pmevent", "discard", "applypriority",
                    "createpolicy", "griddepcontrol" -> nop();
            case "activemask" -> warpLevel.activemask();
            case "shfl" -> warpLevel.shfl();
            case "vote" -> warpLevel.vote();
            case "match" -> warpLevel.match();
            case "redux" -> warpLevel.redux();
            case "ldmatrix" -> warpLevel.ldmatrix();
            case "movmatrix" -> warpLevel.movmatrix();
            case "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vset" -> bits.video();
            case "vmad" -> bits.vmad();
            case "vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vset2", "vadd4", "vsub4", "vavrg4",
                    "vabsdiff4", "vmin4", "vmax4", "vset4" -> bits.videoSimd();
            case "mma" -> warpLevel.mma();
            case "wmma" -> warpLevel.wmma();
            case "wgmma" -> WgmmaInstruction.compile(this);
            case "cp" -> has("bulk") ? hopper(false) : cpAsync();
            case "mbarrier" -> hopper(true);
            case "mapa", "getctarank" -> simple(ClusterInstruction.compile(ins.opcode(), mods, ops, new OperandAccess()));
            case "tex" -> texture();
            case "tld4", "txq", "suq", "sured" -> textureQuery();
            case "suld", "sust" -> {
                Insn.ThreadOp op = TextureInstruction.surface(ins.opcode().equals("suld"), mods, ops, new OperandAccess());
                if (op == null) {
                    throw unsupported();
                }
                yield simple(op);
            }
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
    int wide(Operand o) throws Unsupported {
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

    @FunctionalInterface
    interface Compare {
        boolean test(long a, long b);
    }

    @FunctionalInterface
    interface FloatCompare {
        boolean test(double a, double b);
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

        @Override
        public boolean isPredicate(Operand o) {
            if (!(o instanceof Expr.SymbolRef r)) {
                return false;
            }
            PtxProgram.Symbol s = fc.lookup(r.name());
            return s != null && s.kind() == PtxProgram.Symbol.Kind.REGISTER && s.type() == PtxType.PRED;
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

    /** {@code tex}: {@link TextureInstruction}. */
    private Insn texture() throws ProgramException, Unsupported {
        Insn.ThreadOp op = TextureInstruction.compile(mods, ops, new OperandAccess());
        if (op == null) {
            throw unsupported();
        }
        return simple(op);
    }

    /** {@code tld4}, {@code txq}, {@code suq}, {@code sured}: {@link TextureQueryInstruction}. */
    private Insn textureQuery() throws ProgramException, Unsupported {
        Insn.ThreadOp op = switch (ins.opcode()) {
            case "tld4" -> TextureQueryInstruction.gather(mods, ops, new OperandAccess());
            case "sured" -> TextureQueryInstruction.reduction(mods, ops, new OperandAccess());
            default -> TextureQueryInstruction.query(ins.opcode(), mods, ops, new OperandAccess());
        };
        if (op == null) {
            throw unsupported();
        }
        return simple(op);
    }

    /** {@code st.async}/{@code red.async}: {@link AsyncStoreInstruction}. */
    private Insn asyncStore(boolean reduction) throws ProgramException, Unsupported {
        Insn.ThreadOp op = AsyncStoreInstruction.compile(reduction, mods, ops, new OperandAccess());
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
}
