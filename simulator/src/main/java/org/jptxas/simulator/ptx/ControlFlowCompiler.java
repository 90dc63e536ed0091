package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import org.jptxas.simulator.ptx.PtxProgram.Symbol;

/** Branches, calls and block barriers: bra, call, bar and barrier. */
final class ControlFlowCompiler {
    private final InstructionCompiler ic;

    ControlFlowCompiler(InstructionCompiler ic) {
        this.ic = ic;
    }

    /** {@code brx.idx index, table}: to the table's entry at the index (a register or a literal). */
    Insn brx() throws ProgramException, Unsupported {
        if (ic.ops.size() != 2 || !(ic.ops.get(1) instanceof Expr.SymbolRef table)) {
            throw ic.unsupported();
        }
        Insn in = ic.kind(Insn.Kind.BRANCH);
        in.tableIndex = ic.src(ic.ops.get(0), PtxType.U32);
        ic.fc.branchThrough(in, table.name());
        return in;
    }

    Insn bra() throws Unsupported {
        if (ic.ops.size() != 1 || !(ic.ops.get(0) instanceof Expr.SymbolRef r)) {
            throw ic.unsupported(); // indirect branches
        }
        Insn in = ic.kind(Insn.Kind.BRANCH);
        ic.fc.branchTo(in, r.name());
        return in;
    }

    /** The opaque address a function's name evaluates to ({@code mov.u64 %rd, f}). */
    static long functionAddress(String name) {
        return 0x0000_0400_0000_0000L + 16L * (name.hashCode() & 0xffffL);
    }

    Insn call() throws ProgramException, Unsupported {
        // call{.uni} [(ret, ...),] func [, (arg, ...)] [, prototype];
        List<Operand> rets = List.of();
        List<Operand> args = List.of();
        String callee = null;
        int i = 0;
        if (i < ic.ops.size() && ic.ops.get(i) instanceof Operand.ParenList pl && i + 1 < ic.ops.size()
                && ic.ops.get(i + 1) instanceof Expr.SymbolRef) {
            rets = pl.elements();
            i++;
        }
        Src target = null;
        if (i < ic.ops.size() && ic.ops.get(i) instanceof Expr.SymbolRef r) {
            Symbol s = ic.fc.lookup(r.name());
            if (s != null && s.kind() == Symbol.Kind.REGISTER) {
                target = ic.src(r, PtxType.U64); // indirect call: the callee is looked up by address when it runs
            } else if (s == null || s.kind() != Symbol.Kind.FUNCTION) {
                throw ic.unsupported();
            } else {
                callee = r.name();
            }
            i++;
        } else {
            throw ic.unsupported();
        }
        if (i < ic.ops.size() && ic.ops.get(i) instanceof Operand.ParenList pl) {
            args = pl.elements();
        }
        int[] argOffsets = new int[args.size()];
        Src[] argValues = new Src[args.size()];
        for (int k = 0; k < args.size(); k++) {
            Symbol s = args.get(k) instanceof Expr.SymbolRef ar ? ic.fc.lookup(ar.name()) : null;
            if (s != null && s.kind() == Symbol.Kind.PARAM_VAR) {
                argOffsets[k] = (int) s.offset();
            } else {
                argOffsets[k] = -1;
                argValues[k] = ic.src(args.get(k), null);
            }
        }
        int[] retOffsets = new int[rets.size()];
        int[] retRegs = new int[rets.size()];
        for (int k = 0; k < rets.size(); k++) {
            Symbol s = rets.get(k) instanceof Expr.SymbolRef rr ? ic.fc.lookup(rr.name()) : null;
            if (s != null && s.kind() == Symbol.Kind.PARAM_VAR) {
                retOffsets[k] = (int) s.offset();
                retRegs[k] = -1;
            } else {
                retOffsets[k] = -1;
                retRegs[k] = ic.dst(rets.get(k));
            }
        }
        Insn in = ic.kind(Insn.Kind.CALL);
        in.call = new Insn.CallSite(callee, argOffsets, argValues, retOffsets, retRegs);
        in.call.target = target;
        return in;
    }

    Insn barrier() throws ProgramException, Unsupported {
        // bar.sync a{, b}; barrier.sync{.aligned} a{, b}; bar.arrive a, b; bar.red.op.type d, a{, b}, {!}c; bar.warp.sync m
        if (ic.has("warp")) {
            Src m = ic.src(ic.op(0), PtxType.B32);
            return ic.warp((lanes, group) -> { }, m);
        }
        boolean redOp = ic.has("red");
        boolean arrive = ic.has("arrive");
        boolean cluster = ic.has("cluster");
        if (cluster) { // barrier.cluster.arrive/wait: PtxCluster
            return ic.simple(t -> PtxCluster.barrier(t, arrive));
        }
        if (redOp) {
            String reduction = ic.has("popc") ? "popc" : ic.has("and") ? "and" : "or";
            int d = ic.dst(ic.op(0));
            Src id = ic.src(ic.op(1), PtxType.U32);
            Src count = ic.ops.size() == 4 ? ic.src(ic.op(2), PtxType.U32) : null;
            Operand po = ic.op(ic.ops.size() - 1);
            boolean neg = po instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
            Src pred = ic.src(neg ? ((Expr.Unary) po).operand() : po, PtxType.PRED);
            return new Insn(Insn.Kind.BARRIER, ic.guardReg, ic.guardNeg, null, null, null,
                    new Insn.BarrierSpec(id, count, true, reduction, d, pred, neg), ic.text(), ic.line(), null);
        }
        Src id = ic.ops.isEmpty() ? t -> 0L : ic.src(ic.op(0), PtxType.U32);
        Src count = ic.ops.size() > 1 ? ic.src(ic.op(1), PtxType.U32) : null;
        return new Insn(Insn.Kind.BARRIER, ic.guardReg, ic.guardNeg, null, null, null,
                new Insn.BarrierSpec(id, count, !arrive, null, -1, null, false), ic.text(), ic.line(), null);
    }
}
