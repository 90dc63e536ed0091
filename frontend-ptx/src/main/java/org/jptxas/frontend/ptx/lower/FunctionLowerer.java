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
import java.util.OptionalInt;
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
import org.jptxas.frontend.ptx.check.SpecialRegister;
import org.jptxas.frontend.ptx.check.Symbol;
import org.jptxas.frontend.ptx.isa.PtxIsa;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.ori.target.DriverConstants;
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
    private final ResolvedModule resolved;
    private final Target target;
    private final TargetProfile profile;
    private final LowererRegistry lowerers;
    private final FunctionDecl fn;
    private final Map<Declarator, PtxLowering.Placement> placed;
    private final long sharedBytes;
    private final int sharedAlignment;
    private final List<String> callees;
    private final OriOpcodes ops = OriOpcodes.get();

    private final FunctionBody body = new FunctionBody();
    private final List<BasicBlock> layout = new ArrayList<>();
    private final Set<BasicBlock> referenced = new HashSet<>();
    private final Set<BasicBlock> placedBlocks = new HashSet<>();
    private BasicBlock current;
    private int insertAt;
    private final Map<String, BasicBlock> labels = new HashMap<>();
    private final Map<LabelDef, BasicBlock> scopedLabels = new java.util.IdentityHashMap<>();
    private final Map<String, Integer> labelNameCounts = new HashMap<>();

    /** Registers by declarator: a {@link Reg} or, for {@code %r<N>}, a map from index to {@link Reg}, filled on first use. */
    private final Map<Declarator, Object> regs = new IdentityHashMap<>();
    /** Registers of parameters larger than 16 bytes ({@link #paramRegisters(VariableDecl, Declarator)}). */
    private final Map<Declarator, List<Reg>> wideParams = new IdentityHashMap<>();
    private final Map<Declarator, VariableDecl> declOf = new IdentityHashMap<>();
    private final Deque<Map<String, Declarator>> scopes = new ArrayDeque<>();
    private final Map<Declarator, Integer> kernelParams = new IdentityHashMap<>();
    private final Map<Declarator, Long> frame = new IdentityHashMap<>();
    private long frameTop;
    private Reg carry;
    /** Fixed registers of wgmma accumulators (planned before lowering: {@link WarpgroupAccumulators}). */
    private WarpgroupAccumulators accumulators = WarpgroupAccumulators.NONE;

    private Instruction insn;
    private Guard guard = Guard.ALWAYS;
    private boolean guardConsumed;

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
                params.add(new FunctionAttrs.Param(ordinal++, d.name(), off, size, align, typeName(v)));
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
                results.add(new FunctionAttrs.Param(ordinal++, d.name(), off, size, align, typeName(v)));
                declare(v, d);
                paramRegister(v, d);
            }
        }

        accumulators = WarpgroupAccumulators.plan(fn.body());
        current = body.addBlock(null);
        layout.add(current);
        placedBlocks.add(current);
        insertAt = 1;
        countLabels(fn.body());
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
                    List.of(Src.of(CBank.of(0, DriverConstants.STACK_POINTER))), Guard.ALWAYS, fn.pos().line()));
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
            abi(prologue);
        }
        prologue.addAll(undefinedReads(prologue));
        layout.get(0).instrs().addAll(0, prologue);

        FunctionBody out = relayout();
        FunctionAttrs attrs = new FunctionAttrs(params, fn.isEntry() ? paramBytes : 0, results, sharedBytes, frameBytes,
                tuning(TuningDirective.Kind.MAXNREG), tuningList(TuningDirective.Kind.MAXNTID),
                tuningList(TuningDirective.Kind.REQNTID), tuning(TuningDirective.Kind.MINNCTAPERSM), callees,
                sharedAlignment).withCluster(ClusterRegisters.directives(fn.tuning()));
        return new OriFunction(fn.name(), fn.isEntry(), fn.pos().line(), out, attrs);
    }

    /**
     * PTX may read a register no instruction writes (compilers leave such reads on paths that do not matter); the
     * value is arbitrary, so jptxas gives it zero at the entry, which keeps every virtual register defined.
     */
    private List<Instr> undefinedReads(List<Instr> prologue) {
        Map<String, Reg> used = new java.util.LinkedHashMap<>();
        Set<String> defined = new HashSet<>();
        for (Instr in : prologue) { // the calling convention's entry copies define the parameters
            for (Reg r : in.dsts()) {
                if (r.virtual()) {
                    defined.add(r.file() + ":" + r.index());
                }
            }
        }
        for (BasicBlock b : layout) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.usedRegs()) {
                    if (r.virtual()) {
                        used.putIfAbsent(r.file() + ":" + r.index(), r.whole());
                    }
                }
                for (Reg r : in.dsts()) {
                    if (r.virtual()) {
                        defined.add(r.file() + ":" + r.index());
                    }
                }
            }
        }
        List<Instr> out = new ArrayList<>();
        for (Map.Entry<String, Reg> e : used.entrySet()) {
            if (defined.contains(e.getKey())) {
                continue;
            }
            Reg r = e.getValue();
            if (r.file().isPredicate()) {
                out.add(new Instr(ops.require("PLOP3"), List.of("LUT"), List.of(r, Reg.PT),
                        List.of(Src.of(Reg.PT), Src.of(Reg.PT), Src.of(Reg.PT), Src.of(Imm.ofInt(0)), Src.of(Imm.ofInt(0))),
                        Guard.ALWAYS, fn.pos().line()));
            } else {
                for (int k = 0; k < r.comps(); k++) {
                    out.add(new Instr(ops.require("MOV"), List.of(), List.of(r.component(k)), List.of(Src.of(Reg.RZ)),
                            Guard.ALWAYS, fn.pos().line()));
                }
            }
        }
        return out;
    }

    /** First register of the parameter and return-value block of a device function's calling convention. */
    static final int ABI_FIRST_REG = 4;

    /**
     * A device function's calling convention: parameters arrive in consecutive registers from R4 (each parameter
     * aligned to its size), return values leave the same way; the entry copies them into the parameters' virtual
     * registers and every RET is preceded by copies out. An inliner replaces both copies with the call's values.
     */
    private void abi(List<Instr> prologue) {
        int word = 0;
        for (VariableDecl v : fn.params()) {
            for (Declarator d : v.declarators()) {
                for (Reg p : paramRegisters(v, d)) {
                    word = (int) DataLayout.alignUp(word, p.comps());
                    for (int k = 0; k < p.comps() && ABI_FIRST_REG + word + k < 255; k++) {
                        prologue.add(new Instr(ops.require("MOV"), List.of(), List.of(p.component(k)),
                                List.of(Src.of(Reg.phys(RegFile.R, ABI_FIRST_REG + word + k, 1))), Guard.ALWAYS,
                                fn.pos().line()));
                    }
                    word += p.comps();
                }
            }
        }
        List<Instr> out = new ArrayList<>();
        word = 0;
        for (VariableDecl v : fn.returns()) {
            for (Declarator d : v.declarators()) {
                Reg p = paramRegister(v, d);
                word = (int) DataLayout.alignUp(word, p.comps());
                for (int k = 0; k < p.comps() && ABI_FIRST_REG + word + k < 255; k++) {
                    out.add(new Instr(ops.require("MOV"), List.of(), List.of(Reg.phys(RegFile.R, ABI_FIRST_REG + word + k, 1)),
                            List.of(Src.of(p.component(k))), Guard.ALWAYS, fn.pos().line()));
                }
                word += p.comps();
            }
        }
        if (out.isEmpty()) {
            return;
        }
        for (BasicBlock b : layout) {
            Instr t = b.last();
            if (t != null && t.op().name().equals("RET")) {
                int at = b.instrs().size() - 1;
                for (Instr m : out) {
                    Instr copy = new Instr(m.op(), m.mods(), m.dsts(), m.srcs(), t.guard(), t.line());
                    b.instrs().add(at++, copy);
                }
            }
        }
    }

    static String typeName(VariableDecl v) {
        return (v.vectorLength() > 0 ? "v" + v.vectorLength() + "." : "") + v.type().ptxName();
    }

    private OptionalInt tuning(TuningDirective.Kind kind) {
        for (TuningDirective t : fn.tuning()) {
            if (t.kind() == kind && !t.values().isEmpty()) {
                return OptionalInt.of(t.values().get(0).intValue());
            }
        }
        return OptionalInt.empty();
    }

    private List<Integer> tuningList(TuningDirective.Kind kind) {
        for (TuningDirective t : fn.tuning()) {
            if (t.kind() == kind) {
                return t.values().stream().map(Long::intValue).toList();
            }
        }
        return List.of();
    }

    /** Copies the blocks into a body numbered in layout order, dropping unreferenced empty anonymous blocks. */
    private FunctionBody relayout() {
        FunctionBody out = new FunctionBody();
        for (RegFile f : RegFile.values()) {
            for (int i = body.virtualCount(f); i > 0; i--) {
                out.newVirtual(f, 1);
            }
        }
        List<BasicBlock> kept = new ArrayList<>();
        for (int i = 0; i < layout.size(); i++) {
            BasicBlock b = layout.get(i);
            boolean last = i == layout.size() - 1;
            if (i > 0 && b.instrs().isEmpty() && b.label() == null && !referenced.contains(b) && !last) {
                continue;
            }
            kept.add(b);
        }
        Map<Integer, Integer> newId = new HashMap<>();
        List<BasicBlock> copies = new ArrayList<>();
        for (BasicBlock b : kept) {
            BasicBlock c = out.addBlock(b.label());
            newId.put(b.id(), c.id());
            copies.add(c);
        }
        for (int i = 0; i < kept.size(); i++) {
            for (Instr in : kept.get(i).instrs()) {
                for (int s = 0; s < in.srcs().size(); s++) {
                    Src src = in.srcs().get(s);
                    if (src.value() instanceof BlockLabel l) {
                        Integer id = newId.get(l.block());
                        in.srcs().set(s, new Src(new BlockLabel(id == null ? l.block() : id), src.neg(), src.abs(),
                                src.not()));
                    }
                }
                copies.get(i).instrs().add(in);
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- walking the body

    private void walk(Block block) throws CompilationException {
        for (Statement s : block.statements()) {
            if (s instanceof Instruction i) {
                lowerInstruction(i);
            } else if (s instanceof LabelDef l) {
                BasicBlock b = label(l);
                placeAndStart(b);
            } else if (s instanceof VariableDecl v) {
                for (Declarator d : v.declarators()) {
                    declare(v, d);
                    if (v.space() == StateSpace.LOCAL) {
                        long off = DataLayout.alignUp(frameTop, DataLayout.alignment(v));
                        frame.put(d, off);
                        frameTop = off + DataLayout.size(v, d);
                    }
                }
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

    private BasicBlock label(String name) {
        return labels.computeIfAbsent(name, body::addBlock);
    }

    /**
     * A label's block by its definition: labels are scoped by { } blocks (inline-asm wrappers repeat a name such as
     * {@code waitLoop} in sibling blocks), so a resolved reference names its own definition.
     */
    private BasicBlock label(LabelDef def) {
        return scopedLabels.computeIfAbsent(def, d -> isRedefined(def) ? body.addBlock(def.name()) : label(def.name()));
    }

    private void countLabels(Block block) {
        for (Statement s : block.statements()) {
            if (s instanceof LabelDef l) {
                labelNameCounts.merge(l.name(), 1, Integer::sum);
            } else if (s instanceof Block b) {
                countLabels(b);
            }
        }
    }

    /** Whether another label of the function has {@code def}'s name (then the name alone does not identify it). */
    private boolean isRedefined(LabelDef def) {
        return labelNameCounts.getOrDefault(def.name(), 0) > 1;
    }

    /** The block a branch to {@code label} goes to. */
    BasicBlock labelBlock(String name) {
        BasicBlock b = label(name);
        referenced.add(b);
        return b;
    }

    private void placeAndStart(BasicBlock b) {
        if (!placedBlocks.add(b)) {
            throw new IllegalStateException(b + " placed twice");
        }
        layout.add(insertAt, b);
        insertAt++;
        current = b;
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
    private Reg regOf(Declarator d, String name) {
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
            return byIndex.computeIfAbsent(Long.parseLong(name.substring(d.name().length())), i -> freshFor(v, d));
        }
        return (Reg) regs.computeIfAbsent(d, x -> freshFor(v, d));
    }

    private Reg freshFor(VariableDecl v, Declarator d) {
        if (v.type() == PtxType.PRED) {
            return body.newVirtual(RegFile.P, 1);
        }
        long bytes = v.space() == StateSpace.REG ? DataLayout.elementSize(v) : DataLayout.size(v, d);
        int comps = (int) Math.max(1, Math.min(4, (bytes + 3) / 4));
        return body.newVirtual(RegFile.R, comps);
    }

    private Reg paramRegister(VariableDecl v, Declarator d) {
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
    private List<Reg> paramRegisters(VariableDecl v, Declarator d) {
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

    // ---------------------------------------------------------------- LoweringContext

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
    public WarpgroupAccumulators warpgroupAccumulators() {
        return accumulators;
    }

    @Override
    public Src src(Operand operand, PtxType type) {
        return Src.of(value(operand, type, false));
    }

    @Override
    public Src srcAllowingConstant(Operand operand, PtxType type) {
        return Src.of(value(operand, type, true));
    }

    private org.jptxas.ori.ir.Operand value(Operand operand, PtxType type, boolean constantOk) {
        if (operand instanceof Expr.SymbolRef r) {
            Symbol sym = resolved.symbolOf(r).orElse(null);
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
            throw unsupportedRuntime("operand " + r.name());
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
                throw unsupportedRuntime("operand expression");
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
        throw unsupportedRuntime("operand form");
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
            Reg out = newReg(RegFile.R, 2);
            Reg carry = newReg(RegFile.P, 1);
            emitUnguarded("IADD3", List.of(), List.of(out.component(0), carry, Reg.PT),
                    List.of(Src.of(base.component(0)), Src.of(Imm.ofInt((int) offset)), Src.of(Reg.RZ)));
            emitUnguarded("IADD3", List.of("X"), List.of(out.component(1), Reg.PT, Reg.PT),
                    List.of(Src.of(base.component(1)), Src.of(Imm.ofInt((int) (offset >> 32))), Src.of(Reg.RZ),
                            Src.of(carry), Src.of(Reg.PT).inverted()));
            return out;
        }
        Reg out = newReg(RegFile.R, 1);
        emitUnguarded("IADD3", List.of(), List.of(out, Reg.PT, Reg.PT),
                List.of(Src.of(base), Src.of(Imm.ofInt((int) offset)), Src.of(Reg.RZ)));
        return out;
    }

    /** The value of a variable operand: a register, or the address of a variable in memory. */
    private org.jptxas.ori.ir.Operand variableValue(Symbol.Variable v, PtxType type, boolean constantOk) {
        Declarator d = v.declarator();
        boolean wide = type != null && type.sizeBytes() == 8;
        switch (v.space()) {
            case REG -> {
                Reg r = regOf(d, v.name());
                if (type != null && r.comps() == 2 && type.sizeBytes() > 0 && type.sizeBytes() <= 4) {
                    return r.component(0);
                }
                return r;
            }
            case PARAM -> {
                Integer k = kernelParams.get(d);
                if (k != null) {
                    // a kernel parameter's address: its offset in constant bank 0 (ld.param through it is an LDC)
                    int at = profile.paramBase() + k;
                    return wide ? pair(Src.of(Imm.ofInt(at)), Src.of(Reg.RZ)) : Imm.ofInt(at);
                }
                return paramRegister(declOf.getOrDefault(d, v.decl()), d);
            }
            case SHARED -> {
                PtxLowering.Placement p = placed.get(d);
                long off = p == null ? 0 : p.offset();
                return wide ? pair(Src.of(Imm.ofInt((int) off)), Src.of(Reg.RZ)) : Imm.ofInt((int) off);
            }
            case LOCAL -> {
                Long off = frame.get(d);
                Reg a = newReg(RegFile.R, 1);
                emitUnguarded("IADD3", List.of(), List.of(a, Reg.PT, Reg.PT),
                        List.of(Src.of(SP), Src.of(Imm.ofInt(off == null ? 0 : off.intValue())), Src.of(Reg.RZ)));
                return wide ? pair(Src.of(a), Src.of(Reg.RZ)) : a;
            }
            case CONST -> {
                PtxLowering.Placement p = placed.get(d);
                long off = p == null ? 0 : p.offset();
                return wide ? pair(Src.of(Imm.ofInt((int) off)), Src.of(Reg.RZ)) : Imm.ofInt((int) off);
            }
            case GLOBAL -> {
                Reg a = globalAddress(v.name());
                return wide ? a : a.component(0);
            }
            default -> throw unsupportedRuntime("the address of " + v.space().directive() + " variable " + v.name());
        }
    }

    /** The 64-bit address of a global variable, through relocations. */
    Reg globalAddress(String name) {
        return pair(Src.of(new Sym(name, Sym.Kind.GLOBAL, Sym.Part.LO32, 0)),
                Src.of(new Sym(name, Sym.Kind.GLOBAL, Sym.Part.HI32, 0)));
    }

    /** A fresh 64-bit register built from two 32-bit values. */
    Reg pair(Src lo, Src hi) {
        Reg r = newReg(RegFile.R, 2);
        emitUnguarded("MOV", List.of(), List.of(r.component(0)), List.of(lo));
        emitUnguarded("MOV", List.of(), List.of(r.component(1)), List.of(hi));
        return r;
    }

    private org.jptxas.ori.ir.Operand special(Symbol.Special sp, String component, boolean constantOk) {
        SpecialRegister sr = sp.register();
        if (sr == null) {
            throw unsupportedRuntime("special register " + sp.name());
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
                return constant(DriverConstants.ntid(dim), constantOk);
            case NCTAID:
                return constant(DriverConstants.nctaid(dim), constantOk);
            case LANEID:
                return s2r("SR_LANEID");
            case SMID:
                return s2r("SR_VIRTUALSMID");
            case NSMID:
                return constant(DriverConstants.NSMID, constantOk);
            case WARPID: {
                Reg v = s2r("SR_VIRTID");
                Reg s = newReg(RegFile.R, 1);
                emitUnguarded("SHF", List.of("R", "U32", "HI"), List.of(s),
                        List.of(Src.of(Reg.RZ), Src.of(Imm.ofInt(8)), Src.of(v)));
                Reg w = newReg(RegFile.R, 1);
                emitUnguarded("SGXT", List.of("U32"), List.of(w), List.of(Src.of(s), Src.of(Imm.ofInt(7))));
                return w;
            }
            case NWARPID: {
                if (target.sm() < 90) {
                    return Imm.ofInt(64);
                }
                Reg v = s2r("SR_VIRTCFG");
                Reg s = newReg(RegFile.R, 1);
                emitUnguarded("SHF", List.of("R", "U32", "HI"), List.of(s),
                        List.of(Src.of(Reg.RZ), Src.of(Imm.ofInt(8)), Src.of(v)));
                Reg w = newReg(RegFile.R, 1);
                emitUnguarded("SGXT", List.of("U32"), List.of(w), List.of(Src.of(s), Src.of(Imm.ofInt(8))));
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
                return constant(DriverConstants.DYNAMIC_SMEM_SIZE, constantOk);
            case GRIDID:
                return pair(Src.of(CBank.of(0, DriverConstants.GRID_ID)), Src.of(CBank.of(0, DriverConstants.GRID_ID + 4)));
            case WARP_SZ:
                return Imm.ofInt(32);
            default:
                if (ClusterRegisters.serves(sr)) {
                    return ClusterRegisters.read(this, sr, dim, constantOk);
                }
                throw unsupportedRuntime("special register " + sp.name());
        }
    }

    private org.jptxas.ori.ir.Operand constant(int offset, boolean constantOk) {
        CBank c = CBank.of(0, offset);
        if (constantOk) {
            return c;
        }
        Reg r = newReg(RegFile.R, 1);
        emitUnguarded("MOV", List.of(), List.of(r), List.of(Src.of(c)));
        return r;
    }

    private Reg s2r(String name) {
        Reg r = newReg(RegFile.R, 1);
        emitUnguarded("S2R", List.of(), List.of(r), List.of(Src.of(new SpecialReg(name))));
        return r;
    }

    private Reg cs2r32(String name) {
        Reg r = newReg(RegFile.R, 1);
        emitUnguarded("CS2R_32", List.of(), List.of(r), List.of(Src.of(new SpecialReg(name))));
        return r;
    }

    private Reg cs2r64(String name) {
        Reg r = newReg(RegFile.R, 2);
        emitUnguarded("CS2R_64", List.of(), List.of(r), List.of(Src.of(new SpecialReg(name))));
        return r;
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

    @Override
    public Addr address(Operand.Address operand, StateSpace space) {
        Expr e = operand.expression();
        if (e == null) {
            throw unsupportedRuntime("address form");
        }
        Expr.SymbolRef base = addressBase(e);
        long off;
        try {
            off = addressOffset(e);
        } catch (InitializerBytes.NotConstant ex) {
            throw unsupportedRuntime("address expression");
        }
        boolean wide = space == null || space == StateSpace.GLOBAL;
        if (base == null) {
            return Addr.of(Reg.RZ, off);
        }
        Symbol sym = resolved.symbolOf(base).orElse(null);
        if (!(sym instanceof Symbol.Variable v)) {
            throw unsupportedRuntime("address " + base.name());
        }
        Declarator d = v.declarator();
        switch (v.space()) {
            case REG -> {
                Reg r = regOf(d, v.name());
                if (wide && r.comps() != 2) {
                    throw unsupportedRuntime("32-bit generic/global addresses");
                }
                if (!wide && r.comps() == 2) {
                    r = r.component(0);
                }
                return Addr.of(r, off);
            }
            case SHARED, CONST -> {
                PtxLowering.Placement p = placed.get(d);
                if (p == null) {
                    throw unsupportedRuntime(v.space().directive() + " variable " + v.name() + " without a layout");
                }
                if (wide) {
                    // generic address of a variable: window base plus offset
                    return Addr.of(genericOf(v.space(), p.offset() + off), 0);
                }
                return Addr.of(Reg.RZ, p.offset() + off);
            }
            case LOCAL -> {
                Long f = frame.get(d);
                if (wide) {
                    return Addr.of(genericOf(StateSpace.LOCAL, (f == null ? 0 : f) + off), 0);
                }
                return Addr.of(SP, (f == null ? 0 : f) + off);
            }
            case PARAM -> {
                Integer k = kernelParams.get(d);
                if (k != null) {
                    return Addr.of(Reg.RZ, profile.paramBase() + k + off);
                }
                throw unsupportedRuntime("address of .param variable " + v.name());
            }
            case GLOBAL -> {
                return Addr.of(globalAddress(v.name()), off);
            }
            default -> throw unsupportedRuntime("address in " + v.space().directive());
        }
    }

    /** The generic address of a shared or local window offset: window base (c[0x0][0x18] / 0x20) plus offset. */
    private Reg genericOf(StateSpace space, long offset) {
        Reg window;
        if (space == StateSpace.LOCAL) {
            window = newReg(RegFile.R, 1);
            emitUnguarded("IADD3", List.of(), List.of(window, Reg.PT, Reg.PT),
                    List.of(Src.of(SP), Src.of(Imm.ofInt((int) offset)), Src.of(Reg.RZ)));
        } else if (space == StateSpace.SHARED || (space == StateSpace.CONST && profile.constWindow() != null)) {
            window = null;
        } else {
            throw unsupportedRuntime("generic address of " + space.directive() + " variables");
        }
        int base = space == StateSpace.LOCAL ? 0x20
                : space == StateSpace.CONST ? profile.constWindow().slot() : 0x18;
        Reg out = newReg(RegFile.R, 2);
        Reg carry = newReg(RegFile.P, 1);
        emitUnguarded("IADD3", List.of(), List.of(out.component(0), carry, Reg.PT),
                List.of(Src.of(window == null ? Imm.ofInt((int) offset) : window), Src.of(CBank.of(0, base)),
                        Src.of(Reg.RZ)));
        emitUnguarded("IADD3", List.of("X"), List.of(out.component(1), Reg.PT, Reg.PT),
                List.of(Src.of(Reg.RZ), Src.of(CBank.of(0, base + 4)), Src.of(Reg.RZ), Src.of(carry),
                        Src.of(Reg.PT).inverted()));
        return out;
    }

    @Override
    public Instr emit(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
        return append(opcode, mods, dsts, srcs, guardConsumed ? Guard.ALWAYS : guard);
    }

    @Override
    public Instr emitUnguarded(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs) {
        return append(opcode, mods, dsts, srcs, Guard.ALWAYS);
    }

    /** Opcodes whose first source must be a register (SASS has no immediate or constant in that slot). */
    private static final Set<String> REGISTER_FIRST = Set.of("IADD3", "IMAD", "IMAD_WIDE", "ISETP", "LOP3", "SHF", "FADD",
            "FMUL", "FFMA", "FMNMX", "FSETP", "SEL", "FSEL", "IMNMX", "DADD", "DMUL", "DFMA", "DSETP", "PRMT", "LEA",
            "HADD2", "HMUL2", "HFMA2", "HMNMX2", "IABS", "SGXT", "FLO", "POPC", "BREV", "BMSK");

    /** Opcodes whose integer sources read RZ for a zero immediate. */
    private static final Set<String> ZERO_AS_RZ = Set.of("IADD3", "IMAD", "IMAD_WIDE", "ISETP", "SEL", "IMNMX", "MOV",
            "SHF", "FSEL");

    /** Opcodes with one immediate/constant slot (the second source) among their second and third sources. */
    private static final Set<String> ONE_CONSTANT_SLOT = Set.of("IADD3", "IMAD", "IMAD_WIDE", "FFMA", "DFMA", "LOP3",
            "HFMA2", "PRMT", "SHF");

    /** Opcodes whose first three sources are f64, register pairs where they are not immediates. */
    private static final Set<String> F64_SOURCES = Set.of("DADD", "DMUL", "DFMA", "DSETP");

    private static boolean isConstant(Src s) {
        return !(s.value() instanceof Reg);
    }

    /**
     * Keeps every emitted instruction encodable: a constant in a register-only slot goes to a register first
     * (commutative adds swap it into the constant slot instead).
     */
    private List<Src> legalize(String opcode, List<Src> srcs) {
        if (srcs.isEmpty()) {
            return srcs;
        }
        List<Src> out = new ArrayList<>(srcs);
        // a zero operand is RZ, as ptxas writes it (the register forms exist where immediate ones may not);
        // LUTs, shift counts of LEA and other control immediates past the third source stay immediates
        for (int i = 0; i < Math.min(3, out.size()); i++) {
            Src x = out.get(i);
            if (x.value() instanceof Imm m && m.bits() == 0 && !x.hasModifiers() && ZERO_AS_RZ.contains(opcode)) {
                out.set(i, Src.of(Reg.RZ));
            }
        }
        if (!REGISTER_FIRST.contains(opcode)) {
            return out;
        }
        if (isConstant(out.get(0))) {
            if (opcode.equals("IADD3") && out.size() >= 3 && !isConstant(out.get(1))) {
                Src x = out.get(0);
                out.set(0, out.get(1));
                out.set(1, x);
            } else {
                out.set(0, materialize(out.get(0), F64_SOURCES.contains(opcode)));
            }
        }
        if (ONE_CONSTANT_SLOT.contains(opcode) && out.size() >= 3 && isConstant(out.get(2))
                && !(opcode.equals("SHF") || opcode.equals("PRMT") || opcode.equals("LOP3"))) {
            if (opcode.equals("IADD3") && !isConstant(out.get(1))) {
                Src x = out.get(1);
                out.set(1, out.get(2));
                out.set(2, x);
            } else if (isConstant(out.get(1))) {
                out.set(2, materialize(out.get(2), F64_SOURCES.contains(opcode)));
            }
        }
        if (opcode.equals("SHF") && out.size() >= 3 && isConstant(out.get(2))) {
            out.set(2, materialize(out.get(2), F64_SOURCES.contains(opcode)));
        }
        if ((opcode.equals("LOP3") || opcode.equals("PRMT")) && out.size() >= 3 && isConstant(out.get(1))
                && isConstant(out.get(2))) {
            out.set(2, materialize(out.get(2), F64_SOURCES.contains(opcode)));
        }
        return out;
    }

    /**
     * A constant into a register: a pair when its high word is not zero or when the slot is a 64-bit one
     * ({@code f64Slot}: the f64 +0.0 has a zero high word, and as a single register a DADD read it with whatever
     * the next register held as its high half).
     */
    private Src materialize(Src s, boolean f64Slot) {
        if (f64Slot && s.value() instanceof CBank c && c.index() == null) {
            Reg r = body.newVirtual(RegFile.R, 2);
            appendRaw("MOV", List.of(), List.of(r.component(0)), List.of(Src.of(c)), Guard.ALWAYS);
            appendRaw("MOV", List.of(), List.of(r.component(1)), List.of(Src.of(CBank.of(c.bank(), c.offset() + 4))),
                    Guard.ALWAYS);
            return new Src(r, s.neg(), s.abs(), s.not());
        }
        boolean wide = s.value() instanceof Imm m && ((m.bits() >>> 32) != 0 || f64Slot);
        Reg r = body.newVirtual(RegFile.R, wide ? 2 : 1);
        if (wide) {
            Imm m = (Imm) s.value();
            appendRaw("MOV", List.of(), List.of(r.component(0)), List.of(Src.of(new Imm(m.bits() & 0xffffffffL))), Guard.ALWAYS);
            appendRaw("MOV", List.of(), List.of(r.component(1)), List.of(Src.of(new Imm(m.bits() >>> 32))), Guard.ALWAYS);
        } else {
            appendRaw("MOV", List.of(), List.of(r), List.of(Src.of(s.value())), Guard.ALWAYS);
        }
        return new Src(r, s.neg(), s.abs(), s.not());
    }

    private Instr append(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs, Guard g) {
        if (opcode.equals("IMAD") && mods.contains("WIDE")) {
            // one spelling in Ori: IMAD.WIDE is the opcode IMAD_WIDE (ori-opcodes.json), not IMAD with a WIDE modifier
            opcode = "IMAD_WIDE";
            mods = mods.stream().filter(m -> !m.equals("WIDE")).toList();
        }
        return appendRaw(opcode, mods, dsts, legalize(opcode, srcs), g);
    }

    private Instr appendRaw(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs, Guard g) {
        Instr in = new Instr(ops.require(opcode), mods, dsts, srcs, g, insn == null ? 0 : insn.pos().line());
        if (current == null) {
            BasicBlock b = body.addBlock(null);
            placeAndStart(b);
        }
        current.instrs().add(in);
        for (Src s : srcs) {
            if (s.value() instanceof BlockLabel l) {
                referenced.add(blockById(l.block()));
            }
        }
        if (in.isTerminator()) {
            current = null;
        }
        return in;
    }

    private BasicBlock blockById(int id) {
        return body.block(id);
    }

    @Override
    public BasicBlock branchAroundGuard() {
        BasicBlock after = newBlock();
        if (!guard.isAlways() && !guardConsumed) {
            append("BRA", List.of(), List.of(), List.of(Src.of(after.ref())), new Guard(guard.predicate(), !guard.negated()));
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
        placeAndStart(block);
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
            BasicBlock b = label(l.def());
            referenced.add(b);
            return b;
        }
        return labelBlock(label.name());
    }

    @Override
    public boolean isKernel() {
        return fn.isEntry();
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
    private RuntimeUnsupported unsupportedRuntime(String what) {
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
}
