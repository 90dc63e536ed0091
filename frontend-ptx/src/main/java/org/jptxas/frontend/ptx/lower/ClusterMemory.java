package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.check.ResolvedModule;
import org.jptxas.frontend.ptx.check.Symbol;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetProfile;

/**
 * {@code ld/st/atom/red .shared::cluster} (sm_90), as ptxas 13 lowers them: generic accesses ({@code LD.E},
 * {@code ST.E}, {@code ATOM.E}) at the generic address of the 32-bit shared::cluster address, its high word the
 * shared window's ({@code S2R SR_SWINHI}); the rank in the address's top byte picks the block of the cluster. A
 * 64-bit address register contributes its low word. The instruction is lowered by its family's lowerer as a
 * generic access, through a context whose {@link LoweringContext#address} gives that generic address. An address
 * that names a variable ({@code [buf+8]}) is the executing block's: a plain {@code .shared} access
 * ({@code LDS}/{@code STS}/{@code ATOMS}), as ptxas makes it.
 */
final class ClusterMemory {
    static final String SPACE = "shared::cluster";

    private ClusterMemory() {
    }

    static boolean applies(Instruction insn) {
        return insn.hasModifier(SPACE);
    }

    /** Lowers {@code insn} with {@code family} as the same access in the generic space. */
    static void lower(Instruction insn, LoweringContext cx, InstructionLowerer family) throws CompilationException {
        List<String> mods = new ArrayList<>(insn.modifiers());
        int at = mods.indexOf(SPACE);
        if (ownBlock(insn, cx)) { // a variable of the executing block: a plain shared access, as ptxas makes it
            mods.set(at, "shared");
            family.lower(new Instruction(insn.pos(), insn.guard(), insn.opcode(), mods, insn.operands()), cx);
            return;
        }
        mods.remove(at);
        Instruction generic = new Instruction(insn.pos(), insn.guard(), insn.opcode(), mods, insn.operands());
        family.lower(generic, new Generic(cx, generic));
    }

    /** Whether the address of {@code insn} is a variable's ({@code [buf+8]}): always the executing block's. */
    private static boolean ownBlock(Instruction insn, LoweringContext cx) {
        for (Operand o : insn.operands()) {
            if (o instanceof Operand.Address a) {
                return a.expression() != null && namesSharedVariable(a.expression(), cx);
            }
        }
        return false;
    }

    private static boolean namesSharedVariable(Expr e, LoweringContext cx) {
        if (e instanceof Expr.SymbolRef r) {
            return cx.resolved().symbolOf(r).orElse(null) instanceof Symbol.Variable v && v.space() == StateSpace.SHARED;
        }
        return e instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.ADD || b.op() == Expr.BinaryOp.SUB)
                && (namesSharedVariable(b.left(), cx) || b.op() == Expr.BinaryOp.ADD && namesSharedVariable(b.right(), cx));
    }

    /** {@code cx} with shared::cluster addresses made generic. */
    private record Generic(LoweringContext cx, Instruction insn) implements LoweringContext {
        @Override
        public Addr address(Operand.Address operand, StateSpace space) {
            Addr window = cx.address(operand, StateSpace.SHARED);
            Reg swinhi = cx.newReg(RegFile.R, 1);
            cx.emitUnguarded("S2R", List.of(), List.of(swinhi), List.of(Src.of(new SpecialReg("SR_SWINHI"))));
            Reg pair = cx.newReg(RegFile.R, 2);
            long offset = window.offset();
            if (window.base().isZero()) { // an absolute window address: all of it in the register
                cx.emitUnguarded("MOV", List.of(), List.of(pair.component(0)), List.of(Ptx.imm(offset)));
                offset = 0;
            } else {
                Reg base = window.base().width() == 2 ? window.base().component(0) : window.base();
                cx.emitUnguarded("MOV", List.of(), List.of(pair.component(0)), List.of(Src.of(base)));
            }
            cx.emitUnguarded("MOV", List.of(), List.of(pair.component(1)), List.of(Src.of(swinhi)));
            return Addr.of(pair, offset);
        }

        @Override
        public Target target() {
            return cx.target();
        }

        @Override
        public TargetProfile profile() {
            return cx.profile();
        }

        @Override
        public ResolvedModule resolved() {
            return cx.resolved();
        }

        @Override
        public Instruction instruction() {
            return insn;
        }

        @Override
        public Reg newReg(RegFile file, int comps) {
            return cx.newReg(file, comps);
        }

        @Override
        public Src src(Operand operand, PtxType type) {
            return cx.src(operand, type);
        }

        @Override
        public Src srcAllowingConstant(Operand operand, PtxType type) {
            return cx.srcAllowingConstant(operand, type);
        }

        @Override
        public Reg dst(Operand operand, PtxType type) {
            return cx.dst(operand, type);
        }

        @Override
        public Instr emit(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
            return cx.emit(opcode, mods, dsts, srcs);
        }

        @Override
        public Instr emitUnguarded(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
            return cx.emitUnguarded(opcode, mods, dsts, srcs);
        }

        @Override
        public BasicBlock branchAroundGuard() {
            return cx.branchAroundGuard();
        }

        @Override
        public BasicBlock newBlock() {
            return cx.newBlock();
        }

        @Override
        public void startBlock(BasicBlock block) {
            cx.startBlock(block);
        }

        @Override
        public Reg paramRegister(org.jptxas.frontend.ptx.ast.Expr.SymbolRef param) {
            return cx.paramRegister(param);
        }

        @Override
        public List<Reg> paramRegisters(org.jptxas.frontend.ptx.ast.Expr.SymbolRef param) {
            return cx.paramRegisters(param);
        }

        @Override
        public BasicBlock branchTarget(org.jptxas.frontend.ptx.ast.Expr.SymbolRef label) {
            return cx.branchTarget(label);
        }

        @Override
        public boolean isKernel() {
            return cx.isKernel();
        }

        @Override
        public boolean explicitCluster() {
            return cx.explicitCluster();
        }

        @Override
        public WarpgroupAccumulators warpgroupAccumulators() {
            return cx.warpgroupAccumulators();
        }

        @Override
        public UnsupportedFeatureException unsupported(String what) {
            return cx.unsupported(what);
        }
    }
}
