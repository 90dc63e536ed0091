package org.jptxas.simulator.ptx;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.BranchTargetsDecl;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.LabelDef;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.simulator.abi.ParamLayout;
import org.jptxas.simulator.ptx.PtxProgram.Symbol;

/**
 * Compiles one function body: declarations become registers and variable slots (block scopes respected), labels
 * become instruction indices (a branch finds a label in its block or the blocks around it, so inline-asm blocks that
 * each define the same label keep their own; a name defined once in the function is found from anywhere, as the
 * compiler's front end resolves it), and each instruction is handed to {@link InstructionCompiler}.
 */
final class FunctionCompiler {
    final PtxProgram program;
    final FunctionDecl decl;
    final CompiledFunction fn;
    private final Deque<Map<String, Symbol>> scopes = new ArrayDeque<>();
    private final List<Integer> regSizes = new ArrayList<>();
    private int paramTop;
    private int localTop;
    /** The labels of one block, inside the labels of the block around it. */
    private record LabelScope(Map<String, Integer> labels, LabelScope outer) {
        Integer find(String name) {
            for (LabelScope s = this; s != null; s = s.outer) {
                Integer at = s.labels.get(name);
                if (at != null) {
                    return at;
                }
            }
            return null;
        }
    }

    private LabelScope labels = new LabelScope(new HashMap<>(), null);
    /** Every label of the function by name, for names defined once (null for a repeated name). */
    private final Map<String, Integer> uniqueLabels = new HashMap<>();

    /** The label {@code name} as a branch in {@code scope} sees it, or null. */
    private Integer findLabel(LabelScope scope, String name) {
        Integer at = scope.find(name);
        return at != null ? at : uniqueLabels.get(name);
    }
    private final List<Insn> code = new ArrayList<>();
    private final List<Object[]> pendingBranches = new ArrayList<>();
    /** {@code .branchtargets} tables by name, and the brx.idx instructions that branch through them. */
    private final Map<String, List<String>> branchTables = new HashMap<>();
    private final List<Object[]> pendingTables = new ArrayList<>();

    FunctionCompiler(PtxProgram program, FunctionDecl decl, CompiledFunction fn) {
        this.program = program;
        this.decl = decl;
        this.fn = fn;
    }

    void compile() throws ProgramException {
        scopes.push(new HashMap<>());
        if (fn.entry) {
            List<ParamLayout.Declared> declared = new ArrayList<>();
            List<String> names = new ArrayList<>();
            List<PtxType> types = new ArrayList<>();
            for (VariableDecl p : decl.params()) {
                for (Declarator d : p.declarators()) {
                    int size = varSize(p, d);
                    int align = (int) Math.max(p.align(), Math.max(1, PtxProgram.elementSize(p)));
                    if (p.align() == 0 && p.vectorLength() == 0) {
                        align = Math.max(1, p.type().sizeBytes());
                    }
                    declared.add(new ParamLayout.Declared(size, Integer.highestOneBit(align)));
                    names.add(d.name());
                    types.add(p.type());
                }
            }
            ParamLayout layout = ParamLayout.of(declared);
            for (int i = 0; i < names.size(); i++) {
                ParamLayout.Slot s = layout.slots().get(i);
                scopes.peek().put(names.get(i), new Symbol(Symbol.Kind.PARAM_VAR, 0, s.offset(), s.size(), types.get(i)));
            }
            fn.declaredParams = declared;
            fn.paramOffsets = layout.slots().stream().mapToInt(ParamLayout.Slot::offset).toArray();
            fn.paramSizes = layout.slots().stream().mapToInt(ParamLayout.Slot::size).toArray();
            fn.returnOffsets = new int[0];
            fn.returnSizes = new int[0];
            fn.returnRegs = new int[0];
            fn.paramRegs = new int[fn.paramOffsets.length];
            java.util.Arrays.fill(fn.paramRegs, -1);
            paramTop = layout.size();
        } else {
            int[][] r = declareFormals(decl.returns());
            fn.returnOffsets = r[0];
            fn.returnSizes = r[1];
            fn.returnRegs = r[2];
            int[][] p = declareFormals(decl.params());
            fn.paramOffsets = p[0];
            fn.paramSizes = p[1];
            fn.paramRegs = p[2];
        }
        statements(decl.body().statements());
        scopes.pop();
        for (Object[] pb : pendingBranches) {
            Insn in = (Insn) pb[0];
            Integer target = findLabel((LabelScope) pb[2], (String) pb[1]);
            if (target == null) {
                throw error(in.line, "branch to undefined label '" + pb[1] + "'");
            }
            in.target = target;
        }
        for (Object[] pt : pendingTables) {
            Insn in = (Insn) pt[0];
            List<String> names = branchTables.get((String) pt[1]);
            if (names == null) {
                throw error(in.line, "brx.idx through undefined .branchtargets '" + pt[1] + "'");
            }
            in.table = new int[names.size()];
            for (int k = 0; k < names.size(); k++) {
                Integer target = findLabel((LabelScope) pt[2], names.get(k));
                if (target == null) {
                    throw error(in.line, "branch target '" + names.get(k) + "' is no label");
                }
                in.table[k] = target;
            }
        }
        // Falling off the end returns (kernels exit).
        code.add(new Insn(Insn.Kind.RET, -1, false, null, null, null, null, "ret (end of function)", decl.pos().line(), null));
        fn.code = code.toArray(new Insn[0]);
        fn.registerCount = regSizes.size();
        fn.registerSize = regSizes.stream().mapToInt(Integer::intValue).toArray();
        fn.registerMask = new long[fn.registerCount];
        for (int i = 0; i < fn.registerCount; i++) {
            fn.registerMask[i] = fn.registerSize[i] == 0 ? 1 : Values.mask(fn.registerSize[i]);
        }
        fn.paramAreaSize = (paramTop + 7) & ~7;
        fn.localFrameSize = (localTop + 15) & ~15;
    }

    private int[][] declareFormals(List<VariableDecl> decls) {
        List<Integer> offs = new ArrayList<>(), sizes = new ArrayList<>(), regs = new ArrayList<>();
        for (VariableDecl p : decls) {
            for (Declarator d : p.declarators()) {
                int size = varSize(p, d);
                if (p.space() == org.jptxas.frontend.ptx.ast.StateSpace.REG) {
                    Symbol reg = newReg(PtxProgram.elementSize(p), p.type());
                    scopes.peek().put(d.name(), reg);
                    offs.add(-1);
                    sizes.add(Math.max(size, 1));
                    regs.add(reg.index());
                    continue;
                }
                int align = (int) Math.max(p.align(), Math.max(1, p.type().sizeBytes()));
                int off = (paramTop + align - 1) & -align;
                paramTop = off + size;
                scopes.peek().put(d.name(), new Symbol(Symbol.Kind.PARAM_VAR, 0, off, size, p.type()));
                offs.add(off);
                sizes.add(size);
                regs.add(-1);
            }
        }
        return new int[][] {offs.stream().mapToInt(Integer::intValue).toArray(), sizes.stream().mapToInt(Integer::intValue).toArray(),
                regs.stream().mapToInt(Integer::intValue).toArray()};
    }

    static int varSize(VariableDecl v, Declarator d) {
        long n = 1;
        for (long dim : d.dimensions()) {
            n *= Math.max(dim, 0);
        }
        return (int) (PtxProgram.elementSize(v) * n);
    }

    private void statements(List<Statement> list) throws ProgramException {
        for (Statement s : list) {
            if (s instanceof Block b) {
                scopes.push(new HashMap<>());
                labels = new LabelScope(new HashMap<>(), labels);
                statements(b.statements());
                labels = labels.outer();
                scopes.pop();
            } else if (s instanceof VariableDecl v) {
                declare(v);
            } else if (s instanceof BranchTargetsDecl b) {
                branchTables.put(b.label(), b.targets());
            } else if (s instanceof LabelDef l) {
                labels.labels().put(l.name(), code.size());
                uniqueLabels.put(l.name(), uniqueLabels.containsKey(l.name()) ? null : code.size());
            } else if (s instanceof Instruction i) {
                Insn in = new InstructionCompiler(this, i).compile();
                code.add(in);
            }
            // pragmas, .loc, prototypes and call target lists carry no semantics here
        }
    }

    private void declare(VariableDecl v) throws ProgramException {
        for (Declarator d : v.declarators()) {
            switch (v.space()) {
                case REG -> {
                    int size = PtxProgram.elementSize(v);
                    if (d.isParameterized()) {
                        for (long i = 0; i < d.parameterizedCount(); i++) {
                            scopes.peek().put(d.name() + i, newReg(size, v.type()));
                        }
                    } else {
                        scopes.peek().put(d.name(), newReg(size, v.type()));
                    }
                }
                case LOCAL -> {
                    int size = varSize(v, d);
                    int align = (int) Math.max(v.align(), Math.max(1, v.type().sizeBytes()));
                    int off = (localTop + align - 1) & -align;
                    localTop = off + size;
                    scopes.peek().put(d.name(), new Symbol(Symbol.Kind.LOCAL_VAR, 0, off, size, v.type()));
                }
                case PARAM -> {
                    int size = varSize(v, d);
                    int align = (int) Math.max(v.align(), Math.max(1, v.type().sizeBytes()));
                    int off = (paramTop + align - 1) & -align;
                    paramTop = off + size;
                    scopes.peek().put(d.name(), new Symbol(Symbol.Kind.PARAM_VAR, 0, off, size, v.type()));
                }
                case SHARED, GLOBAL, CONST -> scopes.peek().put(d.name(), program.allocateStatic(v, d));
                default -> throw error(v.pos().line(), v.space().directive() + " variables are not supported by the interpreter");
            }
        }
    }

    private Symbol newReg(int size, PtxType type) {
        if (size == 16) { // .b128: two 64-bit slots, low half first (Wide128)
            regSizes.add(8);
            regSizes.add(8);
            return new Symbol(Symbol.Kind.REGISTER, regSizes.size() - 2, 0, size, type);
        }
        regSizes.add(type == PtxType.PRED ? 0 : size);
        return new Symbol(Symbol.Kind.REGISTER, regSizes.size() - 1, 0, size, type);
    }

    Symbol lookup(String name) {
        for (Map<String, Symbol> s : scopes) {
            Symbol sym = s.get(name);
            if (sym != null) {
                return sym;
            }
        }
        return program.moduleSymbols.get(name);
    }

    /** {@code brx.idx}: {@code in} branches through the {@code .branchtargets} table named {@code table}. */
    void branchThrough(Insn in, String table) {
        pendingTables.add(new Object[] {in, table, labels});
    }

    void branchTo(Insn in, String label) {
        pendingBranches.add(new Object[] {in, label, labels});
    }

    ProgramException error(int line, String message) {
        return new ProgramException(program.fileName + ", line " + line + ": " + message);
    }

    int registerSize(int reg) {
        return regSizes.get(reg);
    }

    /** Operand helpers shared with the instruction compiler. */
    static boolean isSink(Operand o) {
        return o instanceof Operand.Sink;
    }

    static Expr asExpr(Operand o) {
        return o instanceof Expr e ? e : null;
    }
}
