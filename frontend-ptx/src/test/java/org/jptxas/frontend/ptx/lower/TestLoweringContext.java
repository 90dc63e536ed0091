package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.SourcePos;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.check.ResolvedModule;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetProfile;
import org.jptxas.spi.TestTargets;

/**
 * A stand-in {@link LoweringContext} for the math lowerers' tests: PTX register names map to virtual registers the test
 * chooses, blocks keep their own layout list, and the result runs in {@link OriEvaluator}.
 */
final class TestLoweringContext implements LoweringContext {
    final FunctionBody body = new FunctionBody();
    final List<BasicBlock> layout = new ArrayList<>();
    final Map<String, Reg> regs = new HashMap<>();
    private BasicBlock current;
    private Instruction insn;
    private final Target target;

    TestLoweringContext(Target target) {
        this.target = target;
        current = body.addBlock(null);
        layout.add(current);
    }

    /** Declares PTX register {@code name} of {@code type} (predicates for {@code PRED}). */
    Reg declare(String name, PtxType type) {
        Reg r = type == PtxType.PRED ? body.newVirtual(RegFile.P, 1)
                : body.newVirtual(RegFile.R, type.sizeBytes() == 8 ? 2 : 1);
        regs.put(name, r);
        return r;
    }

    /** Lowers {@code insn} with {@code lowerer} at the end of the current code. */
    void lower(InstructionLowerer lowerer, Instruction insn) {
        this.insn = insn;
        try {
            lowerer.lower(insn, this);
        } catch (org.jptxas.ori.diag.CompilationException e) {
            throw new IllegalStateException(e);
        }
    }

    static Instruction parse(String text) {
        // "[@[!]p ]op.mod.mod a, b, c" with register names and numeric literals only
        String s = text.trim();
        org.jptxas.frontend.ptx.ast.Guard guard = null;
        SourcePos pos = new SourcePos(1, 1);
        if (s.startsWith("@")) {
            int sp = s.indexOf(' ');
            String g = s.substring(1, sp);
            boolean neg = g.startsWith("!");
            guard = new org.jptxas.frontend.ptx.ast.Guard(pos, neg ? g.substring(1) : g, neg);
            s = s.substring(sp + 1).trim();
        }
        int sp = s.indexOf(' ');
        String name = sp < 0 ? s : s.substring(0, sp);
        String[] words = name.split("\\.");
        List<String> mods = new ArrayList<>(List.of(words).subList(1, words.length));
        List<Operand> ops = new ArrayList<>();
        if (sp >= 0) {
            for (String o : s.substring(sp + 1).split(",")) {
                o = o.trim();
                if (o.equals("_")) {
                    ops.add(new Operand.Sink(pos));
                } else if (o.startsWith("0f")) {
                    ops.add(new Expr.FloatLit(pos, Expr.FloatForm.HEX_F32, Long.parseLong(o.substring(2), 16)));
                } else if (o.startsWith("0d")) {
                    ops.add(new Expr.FloatLit(pos, Expr.FloatForm.HEX_F64, Long.parseUnsignedLong(o.substring(2), 16)));
                } else if (Character.isDigit(o.charAt(0)) || o.startsWith("-")) {
                    long v = o.startsWith("0x") ? Long.parseUnsignedLong(o.substring(2), 16) : Long.parseLong(o);
                    ops.add(new Expr.IntLit(pos, v, Expr.Radix.DECIMAL, false));
                } else {
                    ops.add(new Expr.SymbolRef(pos, o, null));
                }
            }
        }
        return new Instruction(pos, guard, words[0], mods, ops);
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
        throw new UnsupportedOperationException();
    }

    @Override
    public Instruction instruction() {
        return insn;
    }

    @Override
    public Reg newReg(RegFile file, int comps) {
        return body.newVirtual(file, comps);
    }

    private Reg named(Operand operand) {
        if (operand instanceof Expr.SymbolRef ref && regs.containsKey(ref.name())) {
            return regs.get(ref.name());
        }
        throw new IllegalArgumentException("unknown operand " + operand);
    }

    @Override
    public Src src(Operand operand, PtxType type) {
        if (operand instanceof Expr.IntLit lit) {
            return Src.of(type.sizeBytes() == 8 ? new Imm(lit.value()) : Imm.ofInt((int) lit.value()));
        }
        if (operand instanceof Expr.FloatLit lit) {
            if (type == PtxType.F64) {
                return Src.of(new Imm(Double.doubleToRawLongBits(lit.value())));
            }
            return Src.of(Imm.ofFloat((float) lit.value()));
        }
        return Src.of(named(operand));
    }

    @Override
    public Src srcAllowingConstant(Operand operand, PtxType type) {
        return src(operand, type);
    }

    @Override
    public Reg dst(Operand operand, PtxType type) {
        if (operand instanceof Operand.Sink) {
            return type == PtxType.PRED ? newReg(RegFile.P, 1) : newReg(RegFile.R, type.sizeBytes() == 8 ? 2 : 1);
        }
        return named(operand);
    }

    @Override
    public Addr address(Operand.Address operand, StateSpace space) {
        throw new UnsupportedOperationException();
    }

    private Instr make(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs, Guard guard) {
        Instr i = new Instr(OriOpcodes.get().require(opcode), mods, dsts, srcs, guard, 1);
        current.instrs().add(i);
        return i;
    }

    private Guard ptxGuard() {
        if (insn == null || insn.guard() == null) {
            return Guard.ALWAYS;
        }
        return new Guard(regs.get(insn.guard().predicate()), insn.guard().negated());
    }

    private boolean guardTaken;

    @Override
    public Instr emit(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
        return make(opcode, mods, dsts, srcs, guardTaken ? Guard.ALWAYS : ptxGuard());
    }

    @Override
    public Instr emitUnguarded(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
        return make(opcode, mods, dsts, srcs, Guard.ALWAYS);
    }

    @Override
    public BasicBlock branchAroundGuard() {
        BasicBlock join = newBlock();
        Guard g = ptxGuard();
        if (!g.isAlways()) {
            make("BRA", List.of(), List.of(), List.of(Src.of(join.ref())), new Guard(g.predicate(), !g.negated()));
            startBlock(newBlock());
        }
        guardTaken = true;
        return join;
    }

    /** Ends the lowering of one instruction (the next one starts with its own guard). */
    void endInstruction() {
        guardTaken = false;
    }

    @Override
    public BasicBlock newBlock() {
        return body.addBlock(null);
    }

    @Override
    public void startBlock(BasicBlock block) {
        layout.add(layout.indexOf(current) + 1, block);
        current = block;
    }

    @Override
    public Reg paramRegister(Expr.SymbolRef param) {
        throw new UnsupportedOperationException();
    }

    @Override
    public BasicBlock branchTarget(Expr.SymbolRef label) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isKernel() {
        return true;
    }

    @Override
    public UnsupportedFeatureException unsupported(String what) {
        return new UnsupportedFeatureException("test.ptx", 1, what + " not yet supported");
    }
}
