package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.check.ResolvedModule;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetProfile;

/**
 * The IEEE slow paths ptxas emits once per kernel as internal subroutines after the kernel's code and calls from
 * every use ({@code $__internal_N_$__cuda_sm3x_div_rn_noftz_f32_slowpath} in ptxas's output): lowering calls a
 * function of this class's name ({@link #call}), the module gains the function's body ({@link #functions}), and
 * {@link ModuleInliner} keeps every call to it a true call, so each kernel gets one copy in its section. Code
 * generation narrows each call's clobber list to the registers the allocated subroutine writes.
 */
public final class SlowPathSubroutines {
    /** The slow paths, by the function name calls use. */
    public enum Kind {
        DIV_RN_F32("__internal_div_rn_noftz_f32_slowpath"),
        DIV_RN_FTZ_F32("__internal_div_rn_ftz_f32_slowpath");

        final String function;

        Kind(String function) {
            this.function = function;
        }
    }

    /** The return-address pair of a slow path: {@link CallSequences#internalReturnPair} of its two argument words. */
    static final int RETURN_ADDRESS = 6;

    private SlowPathSubroutines() {}

    /** Whether {@code name} (a callee, or a subroutine copy {@code $owner$callee}) is one of these slow paths. */
    public static boolean isSlowPath(String name) {
        int cut = name.startsWith("$") ? name.indexOf('$', 1) + 1 : 0;
        String callee = cut > 0 ? name.substring(cut) : name;
        for (Kind k : Kind.values()) {
            if (k.function.equals(callee)) {
                return true;
            }
        }
        return false;
    }

    /** Emits the call pseudo-instruction of {@link CallLowerer}: {@code res = kind(args...)}. */
    static void call(MathEmitter m, Kind kind, Reg res, Reg... args) {
        List<Src> srcs = new ArrayList<>();
        srcs.add(Src.of(new Sym(kind.function, Sym.Kind.FUNCTION)));
        for (Reg a : args) {
            srcs.add(Src.of(a));
        }
        m.cx().emitUnguarded("CALL", CallLowerer.CALL_MODS, List.of(res), srcs);
    }

    /** The bodies of the slow paths {@code functions} call, to be added to the module. */
    static List<OriFunction> functions(List<OriFunction> functions, Target target, TargetProfile profile) {
        Set<Kind> used = new LinkedHashSet<>();
        for (OriFunction f : functions) {
            for (BasicBlock b : f.body().blocks()) {
                for (Instr in : b.instrs()) {
                    if (ModuleInliner.isCall(in)) {
                        for (Kind k : Kind.values()) {
                            if (k.function.equals(ModuleInliner.callee(in))) {
                                used.add(k);
                            }
                        }
                    }
                }
            }
        }
        List<OriFunction> out = new ArrayList<>();
        for (Kind k : used) {
            out.add(body(k, target, profile));
        }
        return out;
    }

    /** The body of the slow path a call names {@code name}. */
    static OriFunction function(String name, Target target, TargetProfile profile) {
        for (Kind k : Kind.values()) {
            if (k.function.equals(name)) {
                return body(k, target, profile);
            }
        }
        throw new IllegalArgumentException("not a slow path: " + name);
    }

    /** A slow path as a device function of the calling convention: arguments from R4 up, the result in R4. */
    private static OriFunction body(Kind kind, Target target, TargetProfile profile) {
        Context cx = new Context(target, profile);
        MathEmitter m = new MathEmitter(cx);
        m.ownControl();
        Reg a = m.r(), b = m.r(), res = m.r();
        m.mov(a, Reg.phys(RegFile.R, EntryAbi.ABI_FIRST_REG, 1));
        m.mov(b, Reg.phys(RegFile.R, EntryAbi.ABI_FIRST_REG + 1, 1));
        BasicBlock done = m.newBlock();
        switch (kind) {
            case DIV_RN_F32 -> F32Sequences.divRnSlowPath(m, res, a, b, false, done);
            case DIV_RN_FTZ_F32 -> F32Sequences.divRnSlowPath(m, res, a, b, true, done);
        }
        m.start(done);
        m.mov(Reg.phys(RegFile.R, EntryAbi.ABI_FIRST_REG, 1), res);
        cx.emitUnguarded("RET", List.of("REL", "NODEC"), List.of(), List.of());
        FunctionAttrs attrs = new FunctionAttrs(List.of(), 0, List.of(), 0, 0, OptionalInt.empty(), List.of(),
                List.of(), OptionalInt.empty(), List.of());
        return new OriFunction(kind.function, false, 0, cx.laidOut(), attrs);
    }

    /** A lowering context for a body made of math sequences only (no PTX operands): blocks in the order started. */
    private static final class Context implements LoweringContext {
        private final Target target;
        private final TargetProfile profile;
        private final FunctionBody body = new FunctionBody();
        private final List<BasicBlock> layout = new ArrayList<>();
        private final OriOpcodes ops = OriOpcodes.get();
        private BasicBlock current;

        Context(Target target, TargetProfile profile) {
            this.target = target;
            this.profile = profile;
            current = body.addBlock(null);
            layout.add(current);
        }

        /** The body with its blocks numbered in layout order. */
        FunctionBody laidOut() {
            FunctionBody out = new FunctionBody();
            for (RegFile f : RegFile.values()) {
                for (int i = body.virtualCount(f); i > 0; i--) {
                    out.newVirtual(f, 1);
                }
            }
            Map<Integer, Integer> newId = new HashMap<>();
            List<BasicBlock> copies = new ArrayList<>();
            for (BasicBlock b : layout) {
                BasicBlock c = out.addBlock(null);
                newId.put(b.id(), c.id());
                copies.add(c);
            }
            for (int i = 0; i < layout.size(); i++) {
                for (Instr in : layout.get(i).instrs()) {
                    for (int s = 0; s < in.srcs().size(); s++) {
                        Src src = in.srcs().get(s);
                        if (src.value() instanceof BlockLabel l) {
                            in.srcs().set(s, new Src(new BlockLabel(newId.get(l.block())), src.neg(), src.abs(),
                                    src.not()));
                        }
                    }
                    copies.get(i).instrs().add(in);
                }
            }
            return out;
        }

        @Override
        public Target target() {
            return target;
        }

        @Override
        public TargetProfile profile() {
            return profile;
        }

        @Override
        public ResolvedModule resolved() {
            throw new UnsupportedOperationException("no PTX module behind a slow path");
        }

        @Override
        public Instruction instruction() {
            return null;
        }

        @Override
        public Reg newReg(RegFile file, int comps) {
            return body.newVirtual(file, comps);
        }

        @Override
        public Src src(Operand operand, PtxType type) {
            throw new UnsupportedOperationException("no PTX operands in a slow path");
        }

        @Override
        public Src srcAllowingConstant(Operand operand, PtxType type) {
            throw new UnsupportedOperationException("no PTX operands in a slow path");
        }

        @Override
        public Reg dst(Operand operand, PtxType type) {
            throw new UnsupportedOperationException("no PTX operands in a slow path");
        }

        @Override
        public Addr address(Operand.Address operand, StateSpace space) {
            throw new UnsupportedOperationException("no PTX operands in a slow path");
        }

        @Override
        public Instr emit(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
            return emitUnguarded(opcode, mods, dsts, srcs);
        }

        @Override
        public Instr emitUnguarded(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
            Instr in = new Instr(ops.require(opcode), mods, dsts, srcs, Guard.ALWAYS, 0);
            current.instrs().add(in);
            return in;
        }

        @Override
        public BasicBlock branchAroundGuard() {
            return newBlock();
        }

        @Override
        public BasicBlock newBlock() {
            return body.addBlock(null);
        }

        @Override
        public void startBlock(BasicBlock block) {
            if (block == current) {
                return;
            }
            layout.add(block);
            current = block;
        }

        @Override
        public UnsupportedFeatureException unsupported(String what) {
            return new UnsupportedFeatureException("", 0, "slow path: " + what);
        }
    }
}
