package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.frontend.ptx.check.ResolvedModule;
import org.jptxas.frontend.ptx.check.Symbol;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.ori.target.Target;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.ori.target.TargetProfile;
import org.jptxas.spi.TestTargets;

/**
 * A small stand-in for the front end's function lowerer, enough to run the sync lowerers on snippets whose other
 * instructions are declarations: registers by name, integer literals, {@code [reg+off]} and {@code [sharedVar]}
 * addresses, a guard, blocks placed in layout order, EXIT at the end.
 */
final class SyncTestContext implements LoweringContext {
    private final Target target;
    private final ResolvedModule resolved;
    private final FunctionBody scratch = new FunctionBody();
    private final List<BasicBlock> layout = new ArrayList<>();
    private final Map<String, Reg> regs = new HashMap<>();
    private final OriOpcodes ops = OriOpcodes.get();
    private BasicBlock current;
    private Instruction insn;
    private Guard guard = Guard.ALWAYS;
    private boolean explicitCluster;

    private SyncTestContext(Target target, ResolvedModule resolved) {
        this.target = target;
        this.resolved = resolved;
        current = scratch.addBlock(null);
        layout.add(current);
    }

    /** Lowers the first kernel of {@code ptx} with the given lowerers; other instructions are an error. */
    static OriFunction lower(String ptx, String sm, InstructionLowerer... lowerers) throws CompilationException {
        Target target = Target.of(sm);
        ResolvedModule resolved = TestFrontEnds.of(target).check("t.ptx", ptx).resolved();
        FunctionDecl fn = resolved.module().functions().stream().filter(FunctionDecl::isEntry).findFirst().orElseThrow();
        SyncTestContext cx = new SyncTestContext(target, resolved);
        cx.explicitCluster = fn.tuning().stream()
                .anyMatch(t -> t.kind() == org.jptxas.frontend.ptx.ast.TuningDirective.Kind.EXPLICITCLUSTER);
        cx.walk(fn.body(), lowerers);
        cx.guard = Guard.ALWAYS;
        cx.emitUnguarded("EXIT", List.of(), List.of(), List.of());
        cx.layout.remove(cx.current); // the empty block after EXIT
        return new OriFunction(fn.name(), true, fn.pos().line(), cx.relayout());
    }

    private void walk(Block block, InstructionLowerer[] lowerers) throws CompilationException {
        for (Statement s : block.statements()) {
            if (s instanceof Block b) {
                walk(b, lowerers);
            } else if (s instanceof Instruction in) {
                insn = in;
                guard = in.guard() == null ? Guard.ALWAYS
                        : new Guard(reg(in.guard().predicate(), PtxType.PRED), in.guard().negated());
                InstructionLowerer l = null;
                for (InstructionLowerer x : lowerers) {
                    // a base opcode of several words (cp.async.commit_group) is a prefix of the full name
                    if (x.opcodes().contains(in.opcode()) || x.opcodes().stream()
                            .anyMatch(o -> in.fullName().equals(o) || in.fullName().startsWith(o + "."))) {
                        l = x;
                    }
                }
                if (l == null) {
                    throw new IllegalArgumentException("no lowerer for " + in.fullName());
                }
                l.lower(in, this);
            }
        }
    }

    private FunctionBody relayout() {
        FunctionBody out = new FunctionBody();
        Map<Integer, Integer> ids = new HashMap<>();
        for (int i = 0; i < layout.size(); i++) {
            ids.put(layout.get(i).id(), i);
        }
        for (RegFile f : RegFile.values()) {
            for (int i = 0; i < scratch.virtualCount(f); i++) {
                out.newVirtual(f, 1);
            }
        }
        for (BasicBlock b : layout) {
            BasicBlock nb = out.addBlock(b.label());
            for (Instr in : b.instrs()) {
                List<Src> srcs = new ArrayList<>();
                for (Src s : in.srcs()) {
                    srcs.add(s.value() instanceof BlockLabel l
                            ? new Src(new BlockLabel(ids.get(l.block())), s.neg(), s.abs(), s.not()) : s);
                }
                nb.instrs().add(new Instr(in.op(), in.mods(), in.dsts(), srcs, in.guard(), in.line()));
            }
        }
        return out;
    }

    private Reg reg(String name, PtxType type) {
        return regs.computeIfAbsent(name, n -> scratch.newVirtual(type == PtxType.PRED ? RegFile.P : RegFile.R,
                type.sizeBytes() == 8 ? 2 : 1));
    }

    @Override
    public Target target() {
        return target;
    }

    @Override
    public TargetProfile profile() {
        return TestTargets.profile(target.name());
    }

    @Override
    public ResolvedModule resolved() {
        return resolved;
    }

    @Override
    public Instruction instruction() {
        return insn;
    }

    @Override
    public Reg newReg(RegFile file, int comps) {
        return scratch.newVirtual(file, comps);
    }

    @Override
    public Src src(Operand operand, PtxType type) {
        if (operand instanceof Expr.SymbolRef ref) {
            Symbol sym = resolved.symbolOf(ref).orElseThrow();
            if (sym instanceof Symbol.Variable v && v.space() == StateSpace.REG) {
                return Src.of(reg(ref.name(), v.type() == PtxType.PRED ? PtxType.PRED : type));
            }
            throw new IllegalArgumentException("operand " + ref.name());
        }
        Long c = SyncOperands.constant(this, operand, type);
        if (c != null) {
            return Src.of(new Imm(c));
        }
        throw new IllegalArgumentException("operand " + operand);
    }

    @Override
    public Src srcAllowingConstant(Operand operand, PtxType type) {
        return src(operand, type);
    }

    @Override
    public Reg dst(Operand operand, PtxType type) {
        if (operand instanceof Operand.Sink) {
            return newReg(type == PtxType.PRED ? RegFile.P : RegFile.R, type.sizeBytes() == 8 ? 2 : 1);
        }
        return (Reg) src(operand, type).value();
    }

    @Override
    public Addr address(Operand.Address operand, StateSpace space) {
        Expr e = operand.expression();
        long off = 0;
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.ADD) {
            off = ((Expr.IntLit) b.right()).value();
            e = b.left();
        }
        Expr.SymbolRef ref = (Expr.SymbolRef) e;
        Symbol.Variable v = (Symbol.Variable) resolved.symbolOf(ref).orElseThrow();
        if (v.space() == StateSpace.SHARED) {
            return Addr.of(Reg.RZ, off);
        }
        return Addr.of(reg(ref.name(), v.type()), off);
    }

    @Override
    public Instr emit(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
        return add(opcode, mods, dsts, srcs, guard);
    }

    @Override
    public Instr emitUnguarded(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
        return add(opcode, mods, dsts, srcs, Guard.ALWAYS);
    }

    private Instr add(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs, Guard g) {
        Instr in = new Instr(ops.require(opcode), mods, dsts, srcs, g, insn == null ? 0 : insn.pos().line());
        current.instrs().add(in);
        if (in.isTerminator()) {
            BasicBlock next = newBlock();
            startBlock(next);
        }
        return in;
    }

    @Override
    public BasicBlock branchAroundGuard() {
        BasicBlock after = newBlock();
        if (!guard.isAlways()) {
            Guard g = guard;
            guard = Guard.ALWAYS;
            add("BRA", List.of(), List.of(), List.of(Src.of(after.ref())), new Guard(g.predicate(), !g.negated()));
        }
        return after;
    }

    @Override
    public BasicBlock newBlock() {
        return scratch.addBlock(null);
    }

    @Override
    public void startBlock(BasicBlock block) {
        layout.add(layout.indexOf(current) + 1, block); // empty blocks stay: they fall through
        current = block;
    }

    @Override
    public Reg paramRegister(Expr.SymbolRef param) {
        throw new UnsupportedOperationException("parameters are not modelled by the test context");
    }

    @Override
    public BasicBlock branchTarget(Expr.SymbolRef label) {
        throw new UnsupportedOperationException("labels are not modelled by the test context");
    }

    @Override
    public boolean isKernel() {
        return true;
    }

    @Override
    public boolean explicitCluster() {
        return explicitCluster;
    }

    @Override
    public UnsupportedFeatureException unsupported(String what) {
        return new UnsupportedFeatureException("t.ptx", insn.pos().line(), what + " not yet supported");
    }

}
