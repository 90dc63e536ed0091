package org.jptxas.isel.codegen;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.jptxas.cubin.CubinBuilder;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.cubin.info.Attribute;
import org.jptxas.sass.LabelResolver;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassEncoder;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.target.TargetFeature;
import org.jptxas.sass.SlotKind;
import org.jptxas.sass.SassOp;
import org.jptxas.sass.SassOperands;
import org.jptxas.sass.SassSlot;
import org.jptxas.spi.IrObserver;

/**
 * Compiles one function: Ori passes, register allocation, emission, control bits, layout, encoding and the facts the
 * cubin records. Stateless apart from its configuration; one call per function.
 */
public final class FunctionCodegen {
    /** EIATTR_SYSCALL_OFFSETS: the offsets of an executable's calls through driver addresses. */
    static final int SYSCALL_OFFSETS = 0x46;
    /** ptxas counts two registers more than the highest one the code names. */
    static final int EXTRA_REGISTERS = 2;

    private final CodegenPipeline pipeline;
    private final IrObserver observer;

    public FunctionCodegen(CodegenPipeline pipeline, IrObserver observer) {
        this.pipeline = pipeline;
        this.observer = observer;
    }

    /**
     * A function with the subroutines ptxas places in its section ({@link CallFrames}), each with its context: the
     * unit {@link ModuleCodegen} compiles, in three steps ({@link #optimized}, {@link #withAddresses},
     * {@link #finished}) so that a module's units can take the first and the last in parallel. The middle step
     * numbers the constant-bank-4 address slots the module's functions share, so it runs unit by unit in module order,
     * as a serial compilation numbers them.
     */
    record Unit(OriFunction owner, CodegenContext cx, List<OriFunction> subroutines, List<CodegenContext> contexts) {}

    /** One function of a unit between the steps: the function, its context and, under -g, its PTX registers' names. */
    record Staged(OriFunction f, CodegenContext cx, RegisterHomes.Snapshot named) {}

    /** The first step of a unit: each function optimized. */
    List<Staged> optimized(Unit u) throws CompilationException {
        List<Staged> staged = new ArrayList<>();
        staged.add(optimized(u.owner(), u.cx()));
        for (int k = 0; k < u.subroutines().size(); k++) {
            staged.add(optimized(u.subroutines().get(k), u.contexts().get(k)));
        }
        return staged;
    }

    /** The second step: the module's address slots for each function's global-variable operands, in unit order. */
    void withAddresses(List<Staged> unit) throws CompilationException {
        for (Staged s : unit) {
            withAddresses(s);
        }
    }

    /** The last step: the rest of each function's code generation, the unit laid out and assembled. */
    CompiledFunction finished(Unit u, List<Staged> unit) throws CompilationException {
        Map<String, Integer> tableBases = JumpTables.bases(unit.stream().map(Staged::f).toList(),
                u.cx().options().relocatable());
        if (u.subroutines().isEmpty()) {
            Generated g = finished(unit.get(0), Map.of(), tableBases, java.util.Set.of());
            return withRegisterMap(layoutAndAssemble(u.owner(), u.cx(), g.body(), g.allocation(), List.of()), g);
        }
        // internal subroutines first, each after the internal subroutines it calls: each call to one then clobbers
        // only what its allocation writes (its own calls' narrowed lists included)
        // read before any of them is generated: a call to one whose lanes may return apart gets a barrier of its own
        java.util.Set<String> apart = new java.util.HashSet<>();
        for (int k = 1; k < unit.size(); k++) {
            if (!CallFrames.isSlowPath(unit.get(k).f().name()) && Reconvergence.mayReturnApart(unit.get(k).f())) {
                apart.add(unit.get(k).f().name());
            }
        }
        Generated[] subs = new Generated[unit.size() - 1];
        Map<String, List<Reg>> written = new HashMap<>();
        Map<String, Integer> pairs = new HashMap<>();
        java.util.Set<String> internal = new java.util.HashSet<>();
        for (int k = 1; k < unit.size(); k++) {
            if (CallFrames.isInternal(unit.get(k).f())) {
                internal.add(unit.get(k).f().name());
                pairs.put(unit.get(k).f().name(), CallFrames.returnPair(unit.get(k).f()));
            }
        }
        for (boolean progress = true; progress; ) {
            progress = false;
            for (int k = 1; k < unit.size(); k++) {
                OriFunction f = unit.get(k).f();
                if (subs[k - 1] == null && internal.contains(f.name())
                        && written.keySet().containsAll(internalCallees(f, internal))) {
                    narrowCalls(f, written);
                    // what its own calls clobber, read before code generation drops the calls' clobber lists
                    java.util.Set<Reg> clobbered = callClobbers(f);
                    subs[k - 1] = finished(unit.get(k), pairs, tableBases, apart);
                    written.put(f.name(), writtenRegisters(f, clobbered));
                    progress = true;
                }
            }
        }
        for (Staged s : unit) {
            narrowCalls(s.f(), written);
        }
        for (int k = 1; k < unit.size(); k++) {
            if (subs[k - 1] == null) {
                subs[k - 1] = finished(unit.get(k), pairs, tableBases, apart);
            }
        }
        return withSubroutines(u.owner(), u.cx(), finished(unit.get(0), pairs, tableBases, apart), u.subroutines(),
                List.of(subs));
    }

    /** The functions of {@code internal} that {@code f} calls. */
    private static java.util.Set<String> internalCallees(OriFunction f, java.util.Set<String> internal) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                if (CallFrames.isCall(in) && in.srcs().get(0).value() instanceof Sym callee
                        && internal.contains(callee.name())) {
                    out.add(callee.name());
                }
            }
        }
        return out;
    }

    /**
     * The registers an allocated function writes (each word of a wide register; not the stack pointer), with the
     * return-address pair its caller writes: what a call to it changes.
     */
    private static List<Reg> writtenRegisters(OriFunction f, java.util.Set<Reg> clobbered) {
        java.util.Set<Reg> out = new java.util.LinkedHashSet<>();
        int pair = CallFrames.returnPair(f);
        out.add(Reg.phys(RegFile.R, pair, 1));
        out.add(Reg.phys(RegFile.R, pair + 1, 1));
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg d : in.dsts()) {
                    if (d.virtual() || d.isZero() || d.file() == RegFile.R && d.index() == 1) {
                        continue;
                    }
                    for (int k = 0; k < d.comps(); k++) {
                        out.add(d.comps() == 1 ? d : d.component(k));
                    }
                }
            }
        }
        out.addAll(clobbered);
        return List.copyOf(out);
    }

    /** The registers the calls of {@code f} list as clobbered (each word of a wide register). */
    private static java.util.Set<Reg> callClobbers(OriFunction f) {
        java.util.Set<Reg> out = new java.util.LinkedHashSet<>();
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                if (CallFrames.isCall(in)) {
                    for (Reg d : in.dsts()) {
                        for (int k = 0; k < d.comps(); k++) {
                            out.add(d.comps() == 1 ? d : d.component(k));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Gives each call to a function of {@code written} exactly those registers as its clobber list. */
    private static void narrowCalls(OriFunction f, Map<String, List<Reg>> written) {
        if (written.isEmpty()) {
            return;
        }
        for (BasicBlock b : f.body().blocks()) {
            List<Instr> is = b.instrs();
            for (int i = 0; i < is.size(); i++) {
                Instr in = is.get(i);
                if (CallFrames.isCall(in) && in.srcs().get(0).value() instanceof Sym callee
                        && written.containsKey(callee.name())) {
                    is.set(i, new Instr(in.op(), in.mods(), new ArrayList<>(written.get(callee.name())),
                            new ArrayList<>(in.srcs()), in.guard(), in.line()));
                }
            }
        }
    }

    /**
     * A function's code before layout: its instructions with control bits, what allocation produced, and under
     * {@code -g} where its PTX registers live (else null).
     */
    record Generated(List<CodeLine> body, RegisterAllocator.Result allocation, List<RegisterHomes.Home> homes) {}

    /** {@code c} with the register map of {@code g}'s PTX registers, under {@code -g}. */
    private static CompiledFunction withRegisterMap(CompiledFunction c, Generated g) {
        return g.homes() == null ? c : c.withRegisterMap(RegisterHomes.entries(c.facts().name(), g.homes(), c.code()));
    }

    /** {@code owner}'s code followed by its subroutines' under their symbols, laid out and assembled together. */
    private CompiledFunction withSubroutines(OriFunction owner, CodegenContext cx, Generated main,
            List<OriFunction> subroutines, List<Generated> generated) throws CompilationException {
        List<CodeLine> body = new ArrayList<>(main.body());
        long frame = main.allocation().frameBytes();
        int registers = main.allocation().registers();
        long stores = main.allocation().spillStoreBytes();
        long loads = main.allocation().spillLoadBytes();
        List<FunctionFacts.InnerFunction> inner = new ArrayList<>();
        for (int k = 0; k < subroutines.size(); k++) {
            OriFunction sub = subroutines.get(k);
            Generated g = generated.get(k);
            List<CodeLine> lines = SubroutineLabels.localize(g.body(), sub.name(), k);
            long offset = (long) body.size() * FunctionLayout.INSTRUCTION_BYTES;
            FunctionFacts.InnerFunction fn = new FunctionFacts.InnerFunction(sub.name(), offset,
                    (long) lines.size() * FunctionLayout.INSTRUCTION_BYTES, (int) g.allocation().frameBytes());
            if (CallFrames.isInternal(sub)) { // it returns through its own pair (.debug_frame names it)
                fn = new FunctionFacts.InnerFunction(fn.name(), fn.offset(), fn.size(), fn.frameSize(), fn.binding(),
                        List.of(CallFrames.returnPair(sub)), fn.callFrameProgram());
            }
            inner.add(fn);
            body.addAll(lines);
            registers = Math.max(registers, g.allocation().registers());
            stores += g.allocation().spillStoreBytes();
            loads += g.allocation().spillLoadBytes();
        }
        RegisterAllocator.Result ra = new RegisterAllocator.Result(registers, frame, stores, loads);
        return withRegisterMap(layoutAndAssemble(owner, cx, body, ra, inner), main);
    }

    private Staged optimized(OriFunction f, CodegenContext cx) throws CompilationException {
        observer.afterPass("lower", f);
        RegisterHomes.Snapshot named = cx.options().debug() ? RegisterHomes.before(f) : null;
        if (cx.options().optLevel() > 0) {
            for (OriPass p : pipeline.optimizations()) {
                p.run(f, cx);
                observer.afterPass(p.name(), f);
            }
        }
        return new Staged(f, cx, named);
    }

    private void withAddresses(Staged s) throws CompilationException {
        OriPass addresses = AddressTable.pass();
        addresses.run(s.f(), s.cx());
        observer.afterPass(addresses.name(), s.f());
    }

    /**
     * {@code internalPairs}: the return-address pair of each internal subroutine of the unit, by name;
     * {@code tableBases}: where each function's jump tables start in the section's bank ({@link JumpTables#bases}).
     */
    private Generated finished(Staged s, Map<String, Integer> internalPairs, Map<String, Integer> tableBases,
            java.util.Set<String> returningApart) throws CompilationException {
        OriFunction f = s.f();
        CodegenContext cx = s.cx();
        RegisterHomes.Snapshot named = s.named();
        OriPass jumpTables = JumpTables.pass(tableBases.get(f.name()));
        jumpTables.run(f, cx);
        observer.afterPass(jumpTables.name(), f);
        for (OriPass p : pipeline.legalization()) {
            p.run(f, cx);
            observer.afterPass(p.name(), f);
        }
        Reconvergence simt = Reconvergence.analyze(f, cx);
        pipeline.control().beforeAllocation(f, cx);
        observer.afterPass("schedule", f);
        RegisterAllocator.Result allocated = pipeline.allocator().allocate(f, cx);
        observer.afterPass("regalloc", f);
        List<RegisterHomes.Home> homes = named == null ? null : named.after();
        // an internal subroutine (a slow path) runs without convergence barriers, as ptxas's: its branches rejoin at
        // its RET, and its caller's barriers stay where they are
        if (!CallFrames.isSlowPath(f.name())) {
            simt.insert(f, cx, returningApart);
            // a callee keeps its caller's convergence barriers in callee-saved registers, which its frame then saves
            ConvergenceBarrierSaves.insert(f, cx);
        }
        DynamicStack.check(f, allocated.frameBytes(), cx.sourceName());
        RegisterAllocator.Result ra = CallFrames.afterAllocation(f, allocated,
                cx.has(TargetFeature.LEPC_NAMES_RETURN_POINT), internalPairs);
        if (cx.has(TargetFeature.GLOBAL_DESCRIPTOR_IN_UR) && !GlobalDescriptor.install(f, cx.profile().memoryDescriptor())) {
            throw new CompilationException(Diagnostic.error(cx.sourceName(), f.line(), "Function '" + f.name()
                    + "' uses every uniform register: none is left for the global memory descriptor"));
        }
        observer.afterPass("reconvergence", f);
        List<CodeLine> body = pipeline.emitter().emit(f, cx);
        body = pipeline.control().apply(body, cx);
        return new Generated(body, ra, homes);
    }

    private CompiledFunction layoutAndAssemble(OriFunction f, CodegenContext cx, List<CodeLine> body,
            RegisterAllocator.Result ra, List<FunctionFacts.InnerFunction> inner) throws CompilationException {
        SassAssembler asm = new SassAssembler(cx.description().isa());
        List<CodeLine> code = FunctionLayout.withEnd(CallFrames.finishCalls(body, f.name(), asm.isa()),
                cx.profile().trailingNops(), asm.isa());
        for (int i = body.size(); i < code.size(); i++) {
            code.set(i, code.get(i).withControl(FunctionLayout.PADDING_CONTROL));
        }
        if (!inner.isEmpty()) { // as ptxas: the last subroutine's symbol runs to the section end (padding included)
            inner = new ArrayList<>(inner);
            FunctionFacts.InnerFunction last = inner.get(inner.size() - 1);
            inner.set(inner.size() - 1, new FunctionFacts.InnerFunction(last.name(), last.offset(),
                    (long) code.size() * FunctionLayout.INSTRUCTION_BYTES - last.offset(), last.frameSize(),
                    last.binding(), last.returnRegisters(), last.callFrameProgram()));
        }
        return assemble(f, cx, code, ra, inner);
    }

    private CompiledFunction assemble(OriFunction f, CodegenContext cx, List<CodeLine> code, RegisterAllocator.Result ra,
            List<FunctionFacts.InnerFunction> inner) throws CompilationException {
        Map<String, Long> labels = new HashMap<>();
        labels.put(f.name(), 0L);
        for (int i = 0; i < code.size(); i++) {
            if (code.get(i).label() != null) {
                labels.put(code.get(i).label(), (long) i * FunctionLayout.INSTRUCTION_BYTES);
            }
        }
        if (!inner.isEmpty()) {
            code = CallFrames.resolveFunctionAddresses(code, labels);
        }
        SassEncoder encoder = new SassEncoder(cx.description().isa());
        // memory instructions name the pair the descriptor was loaded into, in bits nvdisasm does not print
        int descriptor = cx.has(TargetFeature.GLOBAL_DESCRIPTOR_IN_UR) ? GlobalDescriptor.PAIR : -1;
        ByteBuffer bytes = ByteBuffer.allocate(code.size() * FunctionLayout.INSTRUCTION_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        List<CubinBuilder.CodeRelocation> relocations = new ArrayList<>();
        List<Integer> exits = new ArrayList<>();
        List<Integer> systemCalls = new ArrayList<>();
        JumpTables.Layout tables = new JumpTables.Layout();
        int barriers = 0;
        boolean changesAllocation = false;
        int highestGpr = 1;
        for (int i = 0; i < code.size(); i++) {
            long address = (long) i * FunctionLayout.INSTRUCTION_BYTES;
            if (code.get(i).jumpTable() != null) {
                code.set(i, tables.branch(code.get(i), address, labels));
            }
            CodeLine line = code.get(i);
            if (line.symbol() != null && (!labels.containsKey(line.symbol().name()) || CallFrames.isSectionRelative(line))) {
                Sym s = line.symbol();
                String type = line.mnemonic().equals("CALL") && !cx.profile().callRelocation().isEmpty()
                        ? cx.profile().callRelocation() : relocationType(s);
                relocations.add(new CubinBuilder.CodeRelocation(f.name(), address, type, s.name(), s.addend()));
            }
            long[] words;
            LabelResolver resolver = name -> {
                Long a = labels.get(name);
                if (a != null) {
                    return a;
                }
                if (line.symbol() != null && line.symbol().name().equals(name)) {
                    return 0;
                }
                throw new IllegalArgumentException("unknown label " + name);
            };
            SassOp op = line.op();
            try {
                words = encoder.encode(op.withDescriptor(descriptor), line.control(), address, resolver);
            } catch (SassAssembler.AssemblyException | IllegalArgumentException e) {
                throw new CompilationException(Diagnostic.error(cx.sourceName(), line.ptxLine(),
                        "Internal error: cannot encode '" + line.text() + "' for " + cx.target().name() + ": "
                                + e.getMessage()));
            }
            bytes.putLong(words[0]).putLong(words[1]);
            if (line.mnemonic().equals("EXIT")) {
                exits.add((int) address);
            }
            if (line.opcode().startsWith("CALL.ABS") && line.symbol() == null) {
                systemCalls.add((int) address); // a call through a loaded address (SYSCALL_OFFSETS)
            }
            barriers = Math.max(barriers, barriersUsed(op));
            changesAllocation |= line.mnemonic().startsWith("USETMAXREG");
            highestGpr = Math.max(highestGpr, op.highestRegister(SlotKind.GPR));
        }
        highestGpr = Math.max(highestGpr, highestGpr(f));
        // with USETMAXREG, code after an allocation may use more registers than a warp starts with: the count is the
        // allocator's (the function's limit), as ptxas reports it
        int registers = changesAllocation && ra.registers() > 0 ? ra.registers()
                : ra.registers() > 0 ? Math.max(ra.registers(), highestGpr + 1 + EXTRA_REGISTERS)
                : highestGpr + 1 + EXTRA_REGISTERS;
        FunctionAttrs attrs = f.attrs();
        int frame = (int) ra.frameBytes();
        long shared = attrs.sharedBytes();
        if (shared > 0) {
            shared += cx.profile().reservedShared();
        }
        List<FunctionFacts.Param> params = new ArrayList<>();
        for (FunctionAttrs.Param p : attrs.params()) {
            params.add(new FunctionFacts.Param(p.ordinal(), p.offset(), p.size()));
        }
        int maxRegCount = attrs.maxnreg().orElse(cx.options().maxRegCount().orElse(255));
        FunctionFacts facts = new FunctionFacts(f.name(), f.entry(), bytes.array(), registers, frame,
                frame, frame, shared, f.entry() ? params : List.of(), f.entry() ? attrs.paramBytes() : 0, barriers,
                f.entry() ? exits.stream().mapToInt(Integer::intValue).toArray() : new int[0],
                f.entry() ? crsStackSize(code, inner)
                        : deviceCrsStackSize(code, cx.has(TargetFeature.CRS_STACK_ZERO_WITH_BSSY)),
                maxRegCount, tables.withRecord(extraAttributes(f.entry(), attrs.cluster(), systemCalls)), attrs.callees(),
                inner);
        return new CompiledFunction(code, facts, relocations, ra.spillStoreBytes(), ra.spillLoadBytes(), tables.bank());
    }

    /** EIATTR codes of a kernel's cluster directives (sm_90): CTA_PER_CLUSTER, EXPLICIT_CLUSTER, MAX_CLUSTER_RANK. */
    static final int CTA_PER_CLUSTER = 0x3d, EXPLICIT_CLUSTER = 0x3e, MAX_CLUSTER_RANK = 0x3f;

    /** The system-call offsets, and a kernel's cluster records (ordered with the others by the SM's .nv.info rules). */
    static List<Attribute> extraAttributes(boolean entry, FunctionAttrs.Cluster cluster, List<Integer> systemCalls) {
        List<Attribute> out = new ArrayList<>();
        if (!systemCalls.isEmpty()) {
            out.add(new Attribute.Words(SYSCALL_OFFSETS, systemCalls.stream().mapToInt(Integer::intValue).toArray()));
        }
        if (entry) {
            cluster.maxRank().ifPresent(n -> out.add(new Attribute.Words(MAX_CLUSTER_RANK, new int[] {n})));
            if (cluster.explicit()) {
                out.add(new Attribute.Flag(EXPLICIT_CLUSTER));
            }
            if (!cluster.ctasPerCluster().isEmpty()) {
                out.add(new Attribute.Words(CTA_PER_CLUSTER,
                        cluster.ctasPerCluster().stream().mapToInt(Integer::intValue).toArray()));
            }
        }
        return out;
    }

    /**
     * ptxas's CRS_STACK_SIZE of a kernel: 0 for a kernel with inner functions, or with calls and a conditional
     * branch or exit (a call on a path not every thread takes); none otherwise.
     */
    static OptionalInt crsStackSize(List<CodeLine> code, List<?> inner) {
        boolean calls = code.stream().anyMatch(l -> l.mnemonic().equals("CALL"));
        boolean conditional = code.stream().anyMatch(l -> l.guarded()
                && (l.mnemonic().equals("BRA") || l.mnemonic().equals("EXIT")));
        return !inner.isEmpty() || calls && conditional ? OptionalInt.of(0) : OptionalInt.empty();
    }

    /**
     * ptxas's CRS_STACK_SIZE of a device function (a function of its own under -c): 0 when it has a convergence
     * barrier (BSSY) and the target records it ({@link TargetFeature#CRS_STACK_ZERO_WITH_BSSY}: not sm_80 and sm_86);
     * none otherwise (measured on the corpus, sm_75 to sm_120: 547 of the 555 device functions with a BSSY, and every
     * one without).
     */
    static OptionalInt deviceCrsStackSize(List<CodeLine> code, boolean zeroWithBssy) {
        boolean bssy = code.stream().anyMatch(l -> l.mnemonic().equals("BSSY"));
        return bssy && zeroWithBssy ? OptionalInt.of(0) : OptionalInt.empty();
    }

    static String relocationType(Sym s) {
        return switch (s.part()) {
            case LO32 -> "R_CUDA_ABS32_LO_32";
            case HI32 -> "R_CUDA_ABS32_HI_32";
            case WHOLE -> "R_CUDA_ABS47_34";
        };
    }

    /** The highest general-purpose register the allocated Ori names, tuples included. */
    /**
     * The named barriers a {@code BAR.SYNC/RED/ARV/SYNCALL} makes the function use: up to its immediate id, or all
     * 16 when the id is in a register; 0 for other instructions.
     */
    private static int barriersUsed(SassOp op) {
        String m = op.mnemonic();
        if (!(m.startsWith("BAR.SYNC") || m.startsWith("BAR.RED") || m.startsWith("BAR.ARV")
                || m.startsWith("BAR.SYNCALL")) || op.form().operands().operands().isEmpty()) {
            return 0;
        }
        SassOperands.Operand first = op.form().operands().operands().get(0);
        if (first.slots().isEmpty()) {
            return 0;
        }
        int slot = first.slots().get(0);
        if (op.form().slot(slot) instanceof SassSlot.Field f) {
            if (f.kind() == SlotKind.GPR) {
                return op.value(slot) == SlotKind.GPR.zeroValue() ? 0 : 16;
            }
            return f.kind() == SlotKind.HEX ? (int) op.value(slot) + 1 : 0;
        }
        // an id the form's bits fix, read as the assembler reads it
        int gpr = op.slotRegister(slot, SlotKind.GPR);
        if (gpr >= 0) {
            return gpr == SlotKind.GPR.zeroValue() ? 0 : 16;
        }
        return op.immediateSlot(0) == slot && op.immediate(slot) >= 0 ? (int) op.immediate(slot) + 1 : 0;
    }

    static int highestGpr(OriFunction f) {
        int high = 1;
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.dsts()) {
                    high = Math.max(high, top(r));
                }
                for (Src s : in.srcs()) {
                    if (s.value() instanceof Reg r) {
                        high = Math.max(high, top(r));
                    } else if (s.value() instanceof Addr a) {
                        high = Math.max(high, top(a.base()));
                    } else if (s.value() instanceof CBank c && c.index() != null) {
                        high = Math.max(high, top(c.index()));
                    }
                }
            }
        }
        return high;
    }

    private static int top(Reg r) {
        return r.file() == RegFile.R && !r.isZero() && !r.virtual() ? r.index() + r.comps() - 1 : 0;
    }
}
