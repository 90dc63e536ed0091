package org.jptxas.frontend.ptx.lower;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.LabelDef;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.frontend.ptx.check.ResolvedModule;
import org.jptxas.frontend.ptx.check.Symbol;
import org.jptxas.frontend.ptx.isa.PtxIsa;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionAttrs;
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
import org.jptxas.ori.target.TargetProfile;

/**
 * Lowers one PTX function to Ori and is the {@link LoweringContext} its instruction lowerers see.
 *
 * <p>Registers: every PTX register becomes a virtual register on first use ({@code .pred} → P, up to 32 bits → R,
 * 64 bits → an R pair, vectors by elements). Labels become blocks. Kernel parameters are read from constant bank 0
 * at the target's parameter base; a device function's parameters and return values, and the {@code .param}
 * variables of call sites, are virtual registers ({@link #paramRegister}). Local variables live in the frame, at
 * {@code [R1+offset]}: {@code R1} is the stack pointer, physical and reserved, set by every kernel's prologue
 * {@code MOV R1, c[0x0][0x28]} as ptxas does.
 */
final class FunctionLowerer implements LoweringContext {
    static final Reg SP = Reg.phys(RegFile.R, 1, 1);

    private final String fileName;
    final ResolvedModule resolved;
    final Target target;
    final TargetProfile profile;
    private final LowererRegistry lowerers;
    final FunctionDecl fn;
    final Map<Declarator, PtxLowering.Placement> placed;
    private final long sharedBytes;
    private final int sharedAlignment;
    private final List<String> callees;
    final OriOpcodes ops = OriOpcodes.get();

    final FunctionBody body = new FunctionBody();
    final List<BasicBlock> layout = new ArrayList<>();
    final Set<BasicBlock> referenced = new HashSet<>();
    final Set<BasicBlock> placedBlocks = new HashSet<>();
    BasicBlock current;
    int insertAt;
    final Map<String, BasicBlock> labels = new HashMap<>();
    final Map<LabelDef, BasicBlock> scopedLabels = new java.util.IdentityHashMap<>();
    final Map<String, Integer> labelNameCounts = new HashMap<>();

    /** Registers by declarator: a {@link Reg} or, for {@code %r<N>}, a map from index to {@link Reg}, filled on first use. */
    private final Map<Declarator, Object> regs = new IdentityHashMap<>();
    /** Registers of parameters larger than 16 bytes ({@link #paramRegisters(VariableDecl, Declarator)}). */
    private final Map<Declarator, List<Reg>> wideParams = new IdentityHashMap<>();
    final Map<Declarator, VariableDecl> declOf = new IdentityHashMap<>();
    private final Deque<Map<String, Declarator>> scopes = new ArrayDeque<>();
    final Map<Declarator, Integer> kernelParams = new IdentityHashMap<>();
    final Map<Declarator, Long> frame = new IdentityHashMap<>();
    private long frameTop;
    Reg carry;
    /** Fixed registers of wgmma accumulators (planned before lowering: {@link WarpgroupAccumulators}). */
    private WarpgroupAccumulators accumulators = WarpgroupAccumulators.NONE;
    /** Divisors of the current PTX block with their reciprocals (forgotten at labels, calls and writes). */
    final SharedReciprocals reciprocals = new SharedReciprocals();

    Instruction insn;
    Guard guard = Guard.ALWAYS;
    private boolean guardConsumed;

    /** The parts of the lowering with one concern each; they share this function's state through this object. */
    final EntryAbi entryAbi = new EntryAbi(this);
    final BlockLayout blocks = new BlockLayout(this);
    final OperandLowerer operands = new OperandLowerer(this);
    final SourceLegalizer legalizer = new SourceLegalizer(this);

    FunctionLowerer(String fileName, ResolvedModule resolved, TargetProfile profile, LowererRegistry lowerers,
            FunctionDecl fn, Map<Declarator, PtxLowering.Placement> placed, long sharedBytes, int sharedAlignment,
            List<String> callees) {
        this.fileName = fileName;
        this.resolved = resolved;
        this.profile = profile;
        this.target = profile.target();
        this.lowerers = lowerers;
        this.fn = fn;
        this.placed = placed;
        this.sharedBytes = sharedBytes;
        this.sharedAlignment = sharedAlignment;
        this.callees = callees;
    }

    OriFunction lower() throws CompilationException {
        List<FunctionAttrs.Param> params = new ArrayList<>();
        List<FunctionAttrs.Param> results = new ArrayList<>();
        int paramBytes = 0;
        scopes.push(new HashMap<>());
        int ordinal = 0;
        for (VariableDecl v : fn.params()) {
            for (Declarator d : v.declarators()) {
                int size = (int) DataLayout.size(v, d);
                int align = DataLayout.alignment(v);
                int off = (int) DataLayout.alignUp(paramBytes, align);
                paramBytes = off + size;
                params.add(new FunctionAttrs.Param(ordinal++, d.name(), off, size, align, EntryAbi.typeName(v)));
                declare(v, d);
                if (fn.isEntry()) {
                    kernelParams.put(d, off);
                } else {
                    paramRegisters(v, d);
                }
            }
        }
        int rOff = 0;
        ordinal = 0;
        for (VariableDecl v : fn.returns()) {
            for (Declarator d : v.declarators()) {
                int size = (int) DataLayout.size(v, d);
                int align = DataLayout.alignment(v);
                int off = (int) DataLayout.alignUp(rOff, align);
                rOff = off + size;
                results.add(new FunctionAttrs.Param(ordinal++, d.name(), off, size, align, EntryAbi.typeName(v)));
                declare(v, d);
                paramRegister(v, d);
            }
        }

        accumulators = WarpgroupAccumulators.plan(fn.body());
        current = body.addBlock(null);
        layout.add(current);
        placedBlocks.add(current);
        insertAt = 1;
        blocks.countLabels(fn.body());
        walk(fn.body());
        scopes.pop();

        guard = Guard.ALWAYS;
        BasicBlock last = layout.get(layout.size() - 1);
        if (current == null && last.last() != null && last.last().endsControl()) {
            // already ends
        } else {
            insn = null;
            emitUnguarded(fn.isEntry() ? "EXIT" : "RET", fn.isEntry() ? List.of() : List.of("REL", "NODEC"), List.of(),
                    List.of());
        }
        long frameBytes = DataLayout.alignUp(frameTop, 8);
        List<Instr> prologue = new ArrayList<>();
        if (fn.isEntry()) {
            prologue.add(new Instr(ops.require("MOV"), List.of(), List.of(SP),
                    List.of(Src.of(CBank.of(0, profile.driver().stackPointer()))), Guard.ALWAYS, fn.pos().line()));
        }
        if (frameBytes > 0) {
            prologue.add(new Instr(ops.require("IADD3"), List.of(), List.of(SP, Reg.PT, Reg.PT),
                    List.of(Src.of(SP), Src.of(Imm.ofInt((int) -frameBytes)), Src.of(Reg.RZ)), Guard.ALWAYS,
                    fn.pos().line()));
            if (!fn.isEntry()) {
                for (BasicBlock b : layout) {
                    Instr t = b.last();
                    if (t != null && t.op().name().equals("RET")) {
                        b.instrs().add(b.instrs().size() - 1, new Instr(ops.require("IADD3"), List.of(), List.of(SP, Reg.PT, Reg.PT),
                                List.of(Src.of(SP), Src.of(Imm.ofInt((int) frameBytes)), Src.of(Reg.RZ)),
                                t.guard(), t.line()));
                    }
                }
            }
        }
        if (!fn.isEntry()) {
            entryAbi.abi(prologue, firstLine());
        }
        prologue.addAll(entryAbi.undefinedReads(prologue));
        layout.get(0).instrs().addAll(0, prologue);

        FunctionBody out = blocks.relayout();
        out.setDeclaredLocalBytes(frameTop);
        FunctionAttrs attrs = new FunctionAttrs(params, fn.isEntry() ? paramBytes : 0, results, sharedBytes, frameBytes,
                entryAbi.tuning(TuningDirective.Kind.MAXNREG), entryAbi.tuningList(TuningDirective.Kind.MAXNTID),
                entryAbi.tuningList(TuningDirective.Kind.REQNTID), entryAbi.tuning(TuningDirective.Kind.MINNCTAPERSM), callees,
                sharedAlignment).withCluster(ClusterRegisters.directives(fn.tuning()));
        return new OriFunction(fn.name(), fn.isEntry(), fn.pos().line(), out, attrs);
    }

    private void walk(Block block) throws CompilationException {
        for (Statement s : block.statements()) {
            if (s instanceof Instruction i) {
                lowerInstruction(i);
            } else if (s instanceof LabelDef l) {
                reciprocals.forgetAll();
                BasicBlock b = blocks.label(l);
                blocks.placeAndStart(b);
            } else if (s instanceof VariableDecl v) {
                for (Declarator d : v.declarators()) {
                    declare(v, d);
                    if (v.space() == StateSpace.LOCAL) {
                        long off = DataLayout.alignUp(frameTop, DataLayout.alignment(v));
                        frame.put(d, off);
                        frameTop = off + DataLayout.size(v, d);
                    }
                }
            } else if (s instanceof org.jptxas.frontend.ptx.ast.PragmaDirective p && p.values().contains("nounroll")) {
                // a statement-level "nounroll" applies to the loop whose header is the block it stands in (PTX asks
                // for it before the header's instructions; ptxas 13 honours it after them too)
                current.setNoUnroll(true);
            } else if (s instanceof Block b) {
                scopes.push(new HashMap<>());
                walk(b);
                scopes.pop();
            }
        }
    }

    private void declare(VariableDecl v, Declarator d) {
        declOf.put(d, v);
        scopes.peek().put(d.isParameterized() ? d.name() + "<>" : d.name(), d);
    }

    /** The block a branch to {@code label} goes to. */
    BasicBlock labelBlock(String name) {
        BasicBlock b = blocks.label(name);
        referenced.add(b);
        return b;
    }

    private void lowerInstruction(Instruction i) throws CompilationException {
        insn = i;
        guardConsumed = false;
        try {
            guard = i.guard() == null ? Guard.ALWAYS
                    : new Guard(guardRegister(i.guard().predicate()), i.guard().negated());
        } catch (RuntimeUnsupported e) {
            throw e.unsupported();
        }
        String opcode = resolved.opcodeOf(i).map(PtxIsa.Split::opcode).orElse(i.opcode());
        if (opcode.equals("call")) {
            reciprocals.forgetAll(); // its results are written by the call sequence, after lowering
        }
        InstructionLowerer l = lowerers.forOpcode(opcode).orElse(null);
        if (l == null) {
            throw unsupported(null);
        }
        try {
            l.lower(i, this);
        } catch (RuntimeUnsupported e) {
            throw e.unsupported();
        }
        insn = null;
        guard = Guard.ALWAYS;
    }

    private Reg guardRegister(String name) throws UnsupportedFeatureException {
        Declarator d = lookup(name);
        if (d == null) {
            throw unsupported("guard " + name);
        }
        return regOf(d, name);
    }

    private Declarator lookup(String name) {
        for (Map<String, Declarator> scope : scopes) {
            Declarator d = scope.get(name);
            if (d != null) {
                return d;
            }
        }
        int k = name.length();
        while (k > 0 && Character.isDigit(name.charAt(k - 1))) {
            k--;
        }
        if (k == name.length()) {
            return null;
        }
        String prefix = name.substring(0, k) + "<>";
        for (Map<String, Declarator> scope : scopes) {
            Declarator d = scope.get(prefix);
            if (d != null) {
                return d;
            }
        }
        return null;
    }

    /** The virtual register of a register variable (created on first use). */
    Reg regOf(Declarator d, String name) {
        VariableDecl v = declOf.get(d);
        if (v == null) {
            throw new IllegalStateException("undeclared register " + name);
        }
        Integer fixed = accumulators.register(name);
        if (fixed != null && v.type() != PtxType.PRED && DataLayout.elementSize(v) <= 4) {
            return Reg.phys(RegFile.R, fixed, 1);
        }
        if (d.isParameterized()) {
            // by index, not an array of the declared count: %r<0x80000000> is legal and mostly unused
            @SuppressWarnings("unchecked")
            Map<Long, Reg> byIndex = (Map<Long, Reg>) regs.computeIfAbsent(d, x -> new HashMap<Long, Reg>());
            return byIndex.computeIfAbsent(Long.parseLong(name, d.name().length(), name.length(), 10),
                    i -> named(freshFor(v, d), v, name));
        }
        return (Reg) regs.computeIfAbsent(d, x -> named(freshFor(v, d), v, name));
    }

    /** Records a scalar {@code .reg} variable's name for the {@code -g} register maps. */
    private Reg named(Reg r, VariableDecl v, String name) {
        if (v.space() == StateSpace.REG && v.vectorLength() == 0) {
            body.nameRegister(name, "." + v.type().ptxName(), v.type().sizeBytes(), r);
        }
        return r;
    }

    private Reg freshFor(VariableDecl v, Declarator d) {
        if (v.type() == PtxType.PRED) {
            return body.newVirtual(RegFile.P, 1);
        }
        long bytes = v.space() == StateSpace.REG ? DataLayout.elementSize(v) : DataLayout.size(v, d);
        int comps = (int) Math.max(1, Math.min(4, (bytes + 3) / 4));
        return body.newVirtual(RegFile.R, comps);
    }

    Reg paramRegister(VariableDecl v, Declarator d) {
        if (isWideParam(v, d)) {
            throw unsupportedRuntime("a parameter larger than 16 bytes (" + d.name() + ") used as one value");
        }
        return (Reg) regs.computeIfAbsent(d, x -> freshFor(v, d));
    }

    /** Whether a {@code .param} variable is larger than one register tuple (a by-value struct or array). */
    private static boolean isWideParam(VariableDecl v, Declarator d) {
        return v.type() != PtxType.PRED && DataLayout.size(v, d) > 16;
    }

    /**
     * A parameter's registers: its one tuple, or for a parameter larger than 16 bytes consecutive tuples of four words
     * (the last one shorter), word {@code w} being component {@code w % 4} of tuple {@code w / 4}.
     */
    List<Reg> paramRegisters(VariableDecl v, Declarator d) {
        if (!isWideParam(v, d)) {
            return List.of(paramRegister(v, d));
        }
        return wideParams.computeIfAbsent(d, x -> {
            int words = (int) ((DataLayout.size(v, d) + 3) / 4);
            List<Reg> chunks = new ArrayList<>();
            for (int w = 0; w < words; w += 4) {
                chunks.add(body.newVirtual(RegFile.R, Math.min(4, words - w)));
            }
            return List.copyOf(chunks);
        });
    }

    @Override
    public TargetProfile profile() {
        return profile;
    }

    @Override
    public Target target() {
        return target;
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
        return body.newVirtual(file, comps);
    }

    @Override
    public java.util.OptionalInt maxnreg() {
        return entryAbi.tuning(TuningDirective.Kind.MAXNREG);
    }

    @Override
    public SharedReciprocals reciprocals() {
        return reciprocals;
    }

    @Override
    public WarpgroupAccumulators warpgroupAccumulators() {
        return accumulators;
    }

    @Override
    public Src src(Operand operand, PtxType type) {
        return Src.of(operands.value(operand, type, false));
    }

    @Override
    public Src srcAllowingConstant(Operand operand, PtxType type) {
        return Src.of(operands.value(operand, type, true));
    }

    @Override
    public Reg dst(Operand operand, PtxType type) {
        if (operand instanceof Operand.Sink) {
            if (type == PtxType.PRED) {
                return newReg(RegFile.P, 1);
            }
            return newReg(RegFile.R, Math.max(1, (type.sizeBytes() + 3) / 4));
        }
        if (operand instanceof Expr.SymbolRef r) {
            Symbol sym = resolved.symbolOf(r).orElse(null);
            if (sym instanceof Symbol.Variable v && (v.space() == StateSpace.REG || v.space() == StateSpace.PARAM)
                    && !kernelParams.containsKey(v.declarator())) {
                if (v.space() == StateSpace.PARAM) {
                    return paramRegister(declOf.getOrDefault(v.declarator(), v.decl()), v.declarator());
                }
                return regOf(v.declarator(), v.name());
            }
        }
        throw unsupportedRuntime("destination operand");
    }

    @Override
    public Addr address(Operand.Address operand, StateSpace space) {
        return operands.addressOf(operand, space);
    }

    @Override
    public Instr emit(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
        return legalizer.append(opcode, mods, dsts, srcs, guardConsumed ? Guard.ALWAYS : guard);
    }

    @Override
    public Instr emitUnguarded(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
        return legalizer.append(opcode, mods, dsts, srcs, Guard.ALWAYS);
    }

    BasicBlock blockById(int id) {
        return body.block(id);
    }

    @Override
    public BasicBlock branchAroundGuard() {
        BasicBlock after = newBlock();
        if (!guard.isAlways() && !guardConsumed) {
            legalizer.append("BRA", List.of(), List.of(), List.of(Src.of(after.ref())), new Guard(guard.predicate(), !guard.negated()));
        }
        guardConsumed = true;
        return after;
    }

    @Override
    public BasicBlock newBlock() {
        return body.addBlock(null);
    }

    @Override
    public void startBlock(BasicBlock block) {
        if (block == current) {
            return; // already the insertion point
        }
        blocks.placeAndStart(block);
    }

    @Override
    public UnsupportedFeatureException unsupported(String what) {
        String name = insn == null ? fn.name() : insn.fullName();
        String msg = "Instruction '" + name + "' not yet supported for " + target.name()
                + (what == null || what.isEmpty() ? "" : " (" + what + ")");
        return new UnsupportedFeatureException(fileName, insn == null ? fn.pos().line() : insn.pos().line(), msg);
    }

    @Override
    public List<Reg> paramRegisters(Expr.SymbolRef param) {
        Symbol sym = resolved.symbolOf(param).orElse(null);
        if (sym instanceof Symbol.Variable v && v.space() == StateSpace.PARAM && !kernelParams.containsKey(v.declarator())) {
            return paramRegisters(declOf.getOrDefault(v.declarator(), v.decl()), v.declarator());
        }
        throw unsupportedRuntime("parameter " + param.name());
    }

    @Override
    public Reg paramRegister(Expr.SymbolRef param) {
        Symbol sym = resolved.symbolOf(param).orElse(null);
        if (sym instanceof Symbol.Variable v && v.space() == StateSpace.PARAM && !kernelParams.containsKey(v.declarator())) {
            return paramRegister(declOf.getOrDefault(v.declarator(), v.decl()), v.declarator());
        }
        throw unsupportedRuntime("parameter " + param.name());
    }

    @Override
    public BasicBlock branchTarget(Expr.SymbolRef label) {
        if (resolved.symbolOf(label).orElse(null) instanceof Symbol.Label l) {
            BasicBlock b = blocks.label(l.def());
            referenced.add(b);
            return b;
        }
        return labelBlock(label.name());
    }

    @Override
    public boolean isKernel() {
        return fn.isEntry();
    }

    @Override
    public boolean explicitCluster() {
        return fn.isEntry() && fn.tuning().stream().anyMatch(t -> t.kind() == TuningDirective.Kind.EXPLICITCLUSTER);
    }

    /** The predicate that carries PTX's CC.CF between {@code add.cc}/{@code addc} and friends. */
    Reg carryFlag() {
        if (carry == null) {
            carry = body.newVirtual(RegFile.P, 1);
        }
        return carry;
    }

    /** Kernel parameter offsets in constant bank 0, for {@code ld.param} of a kernel parameter. */
    Integer kernelParamOffset(Declarator d) {
        return kernelParams.get(d);
    }

    /** Unsupported, thrown from methods that cannot declare the checked exception. */
    RuntimeUnsupported unsupportedRuntime(String what) {
        return new RuntimeUnsupported(unsupported(what));
    }

    /** Carries an {@link UnsupportedFeatureException} through operand conversion; unwrapped by the lowering. */
    static final class RuntimeUnsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RuntimeUnsupported(UnsupportedFeatureException cause) {
            super(cause.getMessage(), cause, false, false);
        }

        UnsupportedFeatureException unsupported() {
            return (UnsupportedFeatureException) getCause();
        }
    }

    Map<RegFile, Integer> counts() {
        Map<RegFile, Integer> m = new EnumMap<>(RegFile.class);
        for (RegFile f : RegFile.values()) {
            m.put(f, body.virtualCount(f));
        }
        return m;
    }

    /** The line of the body's first instruction (in layout order), or the function's own line for an empty body. */
    private int firstLine() {
        for (BasicBlock b : layout) {
            for (Instr in : b.instrs()) {
                return in.line();
            }
        }
        return fn.pos().line();
    }
}
