package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.opcode.OriOpcodes;

/**
 * Places a module's {@code .func} calls as ptxas 13 does in whole-program compilation: every call stays a true call
 * (ptxas keeps each call a PTX producer left), and each kernel's section gets a copy {@code $kernel$callee} of every
 * function it reaches, laid out after it by name; {@link CallSequences} puts the register copies around each call.
 * Copies that are neither recursive (on a cycle of the call graph) nor address-taken are internal subroutines
 * ({@link SectionCalls}: a return-address pair of their own, specialized to their callers' constant arguments); the
 * others keep NVIDIA's calling convention. Calls to the driver's system functions ({@code vprintf},
 * {@code __assertfail}, {@code malloc}, {@code free}) stay calls ({@code CALL.ABS}, which code generation routes
 * through constant bank 4); calls to other functions without a body are reported by name as not yet supported. In
 * relocatable output, calls to exported functions of the module and to {@code .extern .func}s stay calls by symbol
 * ({@link #inlineKeepingFunctions}).
 *
 * <p>A call the convention cannot make (a {@code .reg .pred} argument, or more words than the registers hold) is
 * inlined. A lowered device function follows the calling convention: its entry copies the parameters from
 * {@code R4} upwards ({@code MOV %p, R4}, each value aligned to its size in words) and every RET is preceded by the
 * copies of the return values into {@code R4}... Inlining rewrites exactly those copies: an entry copy takes the
 * call's argument of that word, a return copy writes the call's destination of that word; the callee's other
 * virtual registers get fresh numbers in the caller. Every {@code RET} of the callee becomes a branch (with the
 * RET's guard) to the continuation block; the callee's own frame adjustment of {@code R1} stays, so its locals sit
 * below the caller's. A guarded call branches around the whole expansion. Layout: the caller's block up to the
 * call, the callee's blocks in their order, then the rest of the caller's block, so fall-through edges need no new
 * branches.
 */
public final class ModuleInliner {
    private final String fileName;
    private final String target;
    private final Map<String, OriFunction> byName = new LinkedHashMap<>();
    private final Map<String, OriFunction> done = new HashMap<>();
    private final Set<String> inProgress = new HashSet<>();
    private final OriOpcodes opcodes = OriOpcodes.get();
    /** Functions on a cycle of the call graph: their calls stay true calls. */
    private final Set<String> recursive;
    /** Functions whose address some function takes: called through a register, they keep the convention's limits. */
    private final AddressedFunctions addressed;
    /** The last register a call to an internal subroutine may pass a word in, from the module's register limit. */
    private final int internalLastArg;
    /** The register limit when neither {@code --maxrregcount} nor {@code .maxnreg} sets one. */
    private static final int MAX_REGISTERS = 255;
    /** Relocatable output: calls to functions defined elsewhere ({@code .extern .func}) stay calls to their symbols. */
    private final boolean relocatable;
    /**
     * Relocatable output: the device functions other objects may call and the recursive ones, which stay functions
     * called by symbol.
     */
    private final java.util.function.Predicate<String> exported;

    private ModuleInliner(OriModule module, OptionalInt maxRegisters) {
        this(module, false, name -> false, maxRegisters);
    }

    private ModuleInliner(OriModule module, boolean relocatable, java.util.function.Predicate<String> exported,
            OptionalInt maxRegisters) {
        this.relocatable = relocatable;
        this.fileName = module.sourceName();
        this.target = module.target().name();
        for (OriFunction f : module.functions()) {
            byName.put(f.name(), f);
        }
        this.recursive = CallGraph.of(module).recursive();
        int limit = maxRegisters.orElse(MAX_REGISTERS);
        for (OriFunction f : module.functions()) {
            if (f.entry()) {
                limit = Math.min(limit, f.attrs().maxnreg().orElse(MAX_REGISTERS));
            }
        }
        this.addressed = AddressedFunctions.in(module.functions());
        this.internalLastArg = CallSequences.internalLastArg(limit);
        // ptxas -c also keeps the module's recursive functions as functions of their own (local symbols), called
        // by symbol from every caller instead of copied into each caller's section.
        // a slow path is never a function of its own: each kernel calls its own copy
        this.exported = (relocatable ? exported.or(recursive::contains) : exported)
                .and(name -> !SlowPathSubroutines.isSlowPath(name));
    }

    /**
     * The module as a whole-program compilation emits it: its kernels, each followed by its copies of the functions
     * it reaches; the device functions themselves are not emitted (even {@code .visible} ones), as ptxas leaves them
     * out of an executable. {@code maxRegisters} ({@code --maxrregcount}) and the kernels' {@code .maxnreg} bound how
     * many words a call to an internal subroutine passes in registers (beyond that it is inlined).
     */
    public static OriModule inline(OriModule module) throws CompilationException {
        return inline(module, OptionalInt.empty());
    }

    /** As {@link #inline(OriModule)}, under a register limit. */
    public static OriModule inline(OriModule module, OptionalInt maxRegisters) throws CompilationException {
        ModuleInliner inliner = new ModuleInliner(module, maxRegisters);
        List<OriFunction> out = new ArrayList<>();
        for (OriFunction f : module.functions()) {
            if (f.entry()) {
                inliner.withSubroutines(inliner.inlined(f), out);
            }
        }
        return module.withFunctions(out);
    }

    /**
     * Every function of the module (kernels and device functions) with its calls placed, for relocatable output
     * ({@code -c}): calls to functions without a body here ({@code .extern .func}) and, as ptxas -c makes them, to
     * the device functions {@code exported} names stay calls to the symbol, {@code CALL.ABS.NOINC} with the return
     * address relocated against the calling function, for the linker to resolve; every device function
     * {@code exported} names is kept as a function of its own (another object may call it), and so is every
     * recursive one (a local symbol); the module's other internal functions live on as copies in their callers'
     * sections.
     */
    public static OriModule inlineKeepingFunctions(OriModule module, java.util.function.Predicate<String> exported)
            throws CompilationException {
        return inlineKeepingFunctions(module, exported, OptionalInt.empty());
    }

    /** As {@link #inlineKeepingFunctions(OriModule, java.util.function.Predicate)}, under a register limit. */
    public static OriModule inlineKeepingFunctions(OriModule module, java.util.function.Predicate<String> exported,
            OptionalInt maxRegisters) throws CompilationException {
        ModuleInliner inliner = new ModuleInliner(module, true, exported, maxRegisters);
        List<OriFunction> out = new ArrayList<>();
        for (OriFunction f : module.functions()) {
            if (!f.body().blocks().isEmpty() && (f.entry() || inliner.exported.test(f.name()))) {
                inliner.withSubroutines(inliner.inlined(f), out);
            }
        }
        return module.withFunctions(out);
    }

    /**
     * Adds {@code f} to {@code out} followed by its subroutines: a copy {@code $f$g} of every recursive function
     * {@code g} it reaches through true calls (ptxas places them in {@code f}'s section under those local names),
     * with every call renamed to the copies and the calling convention's copies in place ({@link CallSequences}).
     */
    private void withSubroutines(OriFunction f, List<OriFunction> out) throws CompilationException {
        List<String> reached = new ArrayList<>();
        SectionCalls calls = new SectionCalls();
        java.util.ArrayDeque<OriFunction> work = new java.util.ArrayDeque<>(List.of(f));
        java.util.ArrayDeque<String> names = new java.util.ArrayDeque<>(List.of(f.name()));
        while (!work.isEmpty()) {
            OriFunction caller = work.poll();
            calls.scan(names.poll(), caller);
            for (BasicBlock b : caller.body().blocks()) {
                for (Instr in : b.instrs()) {
                    if (!namesFunction(in)) {
                        continue;
                    }
                    List<String> targets = new ArrayList<>(addressesTaken(in));
                    if (isCall(in)) {
                        targets.add(callee(in));
                    }
                    for (String t : targets) {
                        // an exported function is called by its symbol (a function of its own), never copied
                        if (!reached.contains(t) && done.containsKey(t) && !(isCall(in) && external(t))) {
                            reached.add(t);
                            work.add(done.get(t));
                            names.add(t);
                        }
                    }
                }
            }
        }
        java.util.function.UnaryOperator<String> local = g -> external(g) ? g : CallSequences.subroutineName(f.name(), g);
        List<String> ordered = new ArrayList<>(reached);
        java.util.Collections.sort(ordered); // ptxas lays subroutines out by name
        // recursion and calls through an address need the convention; the others are internal, each copy specialized
        // to the constants its callers pass (which they then need not pass)
        java.util.function.Predicate<String> internal = name -> !recursive.contains(name) && !calls.addressed(name);
        calls.propagateConstants(name -> !name.equals(f.name()) && internal.test(name));
        List<OriFunction> copies = new ArrayList<>();
        Map<String, Set<Integer>> omitted = new HashMap<>();
        for (String name : ordered) {
            OriFunction g = done.get(name);
            OriFunction copy = new OriFunction(local.apply(name), false, g.line(), g.body(), g.attrs());
            if (internal.test(name)) {
                Set<Integer> specialized = new HashSet<>();
                copy = SectionCalls.specialized(copy, calls.constants(name), specialized);
                omitted.put(name, specialized);
            }
            copies.add(copy);
        }
        out.add(CallSequences.apply(f, local, this::external, f.name(), fileName, target, CallSequences.RETURN_ADDRESS,
                omitted));
        for (int k = 0; k < ordered.size(); k++) {
            String name = ordered.get(k);
            int pair = internal.test(name) ? calls.returnPair(name, internal) : CallSequences.RETURN_ADDRESS;
            out.add(CallSequences.apply(copies.get(k), local, this::external, f.name(), fileName, target, pair,
                    omitted));
        }
    }

    private static final Set<String> SYSTEM_CALLS = org.jptxas.ori.ir.ModuleDeclarations.SYSTEM_CALLS;

    /**
     * Whether {@code name} is a function without a body here that stays a call: any such function in relocatable
     * output (the linker resolves it), only the driver's system calls in a whole-program compilation (the loader
     * resolves their addresses, which code reads from constant bank 4).
     */
    private boolean external(String name) {
        OriFunction g = byName.get(name);
        if (g != null && !g.body().blocks().isEmpty()) {
            return relocatable && exported.test(name) && !g.entry(); // ptxas -c calls those by symbol too
        }
        return relocatable || SYSTEM_CALLS.contains(name);
    }

    /** Whether {@code in} is the call pseudo-instruction of {@link CallLowerer}. */
    public static boolean isCall(Instr in) {
        return in.op().name().equals("CALL") && !in.srcs().isEmpty()
                && in.srcs().get(0).value() instanceof Sym s && s.kind() == Sym.Kind.FUNCTION;
    }

    /** Whether {@code in} is a call pseudo-instruction through a function address (a register). */
    public static boolean isIndirectCall(Instr in) {
        return in.op().name().equals("CALL") && !in.srcs().isEmpty() && in.srcs().get(0).value() instanceof Reg;
    }

    /**
     * Whether a function of {@code module} takes a function's address or calls through a register: such modules are
     * not compiled with their device functions kept under {@code -g} (the indirect targets are resolved in the
     * caller's section only).
     */
    public static boolean callsIndirectly(OriModule module) {
        for (OriFunction f : module.functions()) {
            for (BasicBlock b : f.body().blocks()) {
                for (Instr in : b.instrs()) {
                    if (isIndirectCall(in) || !addressesTaken(in).isEmpty()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Whether a source of {@code in} names a function (a call's target, an address taken): the walks over every
     * instruction look closer only at those, without making a list per instruction.
     */
    static boolean namesFunction(Instr in) {
        List<Src> srcs = in.srcs();
        for (int i = 0; i < srcs.size(); i++) {
            if (srcs.get(i).value() instanceof Sym sym && sym.kind() == Sym.Kind.FUNCTION) {
                return true;
            }
        }
        return false;
    }

    /** The functions whose address {@code in} takes ({@code MOV r, 32@lo(f)}). */
    static List<String> addressesTaken(Instr in) {
        List<String> out = new ArrayList<>();
        for (Src s : in.srcs()) {
            if (s.value() instanceof Sym sym && sym.kind() == Sym.Kind.FUNCTION && sym.part() != Sym.Part.WHOLE) {
                out.add(sym.name());
            }
        }
        return out;
    }

    static String callee(Instr call) {
        return ((Sym) call.srcs().get(0).value()).name();
    }

    private OriFunction inlined(OriFunction f) throws CompilationException {
        OriFunction known = done.get(f.name());
        if (known != null) {
            return known;
        }
        inProgress.add(f.name());
        try {
            long calleeFrame = 0;
            Map<Instr, OriFunction> targets = new HashMap<>();
            for (BasicBlock b : f.body().blocks()) {
                for (Instr in : b.instrs()) {
                    if (!isCall(in)) {
                        continue;
                    }
                    String name = callee(in);
                    OriFunction g = byName.get(name);
                    if (external(name)) {
                        continue; // a call to an external symbol, resolved by the linker or the driver
                    }
                    if (g == null || g.body().blocks().isEmpty()) {
                        throw new UnsupportedFeatureException(fileName, in.line(), "Instruction 'call' not yet supported for "
                                + target + " (call to external function '" + name + "')");
                    }
                    if (recursive.contains(name)) {
                        continue; // stays a true call
                    }
                    if (inProgress.contains(name)) {
                        throw new UnsupportedFeatureException(fileName, in.line(), "Instruction 'call' not yet supported for "
                                + target + " (recursive call to '" + name + "')");
                    }
                    OriFunction gi = inlined(g);
                    // ptxas 13 keeps every call a PTX producer left (nvcc and LLVM inline what they choose to; a .func
                    // still called is one they kept, for code size, register pressure or debugging), with a copy of
                    // the callee in each calling kernel's section; calls passing a predicate or more words than the
                    // convention's twelve registers are inlined, unless the callee is an internal subroutine, which
                    // passes as many as the register limit leaves room for (CallSequences.internalLastArg)
                    if (CallSequences.passesInRegisters(in, addressed.contains(name) ? CallSequences.LAST_ARG
                            : internalLastArg)) {
                        continue; // stays a true call
                    }
                    targets.put(in, gi);
                    calleeFrame = Math.max(calleeFrame, gi.attrs().localBytes());
                }
            }
            OriFunction result = !targets.isEmpty() ? expand(f, targets, calleeFrame) : f;
            done.put(f.name(), result);
            for (BasicBlock b : result.body().blocks()) { // functions it calls or takes the address of, once each
                for (Instr in : b.instrs()) {
                    if (!namesFunction(in)) {
                        continue;
                    }
                    List<String> reached = new ArrayList<>(addressesTaken(in));
                    if (isCall(in)) {
                        reached.add(callee(in));
                    }
                    for (String t : reached) {
                        OriFunction g = byName.get(t);
                        if (!done.containsKey(t) && g != null && !g.body().blocks().isEmpty()) {
                            inlined(g);
                        }
                    }
                }
            }
            return result;
        } finally {
            inProgress.remove(f.name());
        }
    }

    /** One inlined call site: the blocks of the callee copy and the caller's continuation. */
    private record Site(List<BasicBlock> calleeBlocks, BasicBlock cont) {}

    private OriFunction expand(OriFunction f, Map<Instr, OriFunction> targets, long calleeFrame) {
        FunctionBody src = f.body();
        FunctionBody out = new FunctionBody();
        out.copyNamesFrom(src);
        for (RegFile file : RegFile.values()) {
            for (int i = 0; i < src.virtualCount(file); i++) {
                out.newVirtual(file, 1); // keeps the caller's register numbers
            }
        }
        // plan: create every output block in layout order
        Map<Integer, BasicBlock> blockMap = new HashMap<>();
        Map<Instr, Site> sites = new HashMap<>();
        for (BasicBlock b : src.blocks()) {
            BasicBlock copy = out.addBlock(b.label());
            copy.setNoUnroll(b.noUnroll());
            blockMap.put(b.id(), copy);
            for (Instr in : b.instrs()) {
                OriFunction g = targets.get(in);
                if (g == null) {
                    continue;
                }
                List<BasicBlock> calleeBlocks = new ArrayList<>();
                for (BasicBlock gb : g.body().blocks()) {
                    BasicBlock calleeCopy = out.addBlock(null);
                    calleeCopy.setNoUnroll(gb.noUnroll());
                    calleeBlocks.add(calleeCopy);
                }
                sites.put(in, new Site(calleeBlocks, out.addBlock(null)));
            }
        }
        // fill
        for (BasicBlock b : src.blocks()) {
            BasicBlock cur = blockMap.get(b.id());
            for (Instr in : b.instrs()) {
                Site site = sites.get(in);
                if (site == null) {
                    cur.instrs().add(copy(in, r -> r, blockMap::get));
                    continue;
                }
                OriFunction g = targets.get(in);
                if (!in.guard().isAlways()) { // a guarded call branches around its expansion
                    Guard skip = new Guard(in.guard().predicate(), !in.guard().negated());
                    cur.instrs().add(new Instr(opcodes.require("BRA"), List.of(), List.of(),
                            List.of(Src.of(site.cont().ref())), skip, in.line()));
                }
                inlineBody(in, g, out, site);
                cur = site.cont();
            }
        }
        FunctionAttrs a = f.attrs();
        // what it still calls: its own calls that stay calls, and those of the functions inlined into it
        java.util.LinkedHashSet<String> callees = new java.util.LinkedHashSet<>();
        a.callees().stream().filter(c -> targets.values().stream().noneMatch(g -> g.name().equals(c)))
                .forEach(callees::add);
        for (BasicBlock b : src.blocks()) { // in code order: the output must not depend on hashing
            for (Instr in : b.instrs()) {
                if (targets.containsKey(in)) {
                    callees.addAll(targets.get(in).attrs().callees());
                }
            }
        }
        if (calleeFrame == 0) {
            out.setDeclaredLocalBytes(src.declaredLocalBytes()); // the frame is still the caller's alone
        }
        FunctionAttrs attrs = new FunctionAttrs(a.params(), a.paramBytes(), a.results(), a.sharedBytes(),
                a.localBytes() + calleeFrame, a.maxnreg(), a.maxntid(), a.reqntid(), a.minnctapersm(),
                List.copyOf(callees), a.sharedAlignment(), a.textureSlots(), a.cluster());
        return new OriFunction(f.name(), f.entry(), f.line(), out, attrs);
    }

    private void inlineBody(Instr call, OriFunction g, FunctionBody out, Site site) {
        Map<Integer, BasicBlock> gBlocks = new HashMap<>();
        List<BasicBlock> gSrc = g.body().blocks();
        for (int i = 0; i < gSrc.size(); i++) {
            gBlocks.put(gSrc.get(i).id(), site.calleeBlocks().get(i));
        }
        // the caller's register for each of the callee's virtual registers, by file and index (made on first use)
        Reg[][] fresh = new Reg[RegFile.values().length][];
        java.util.function.UnaryOperator<Reg> rename = r -> {
            if (!r.virtual()) {
                return r;
            }
            int file = r.file().ordinal();
            Reg[] byIndex = fresh[file];
            if (byIndex == null || r.index() >= byIndex.length) {
                byIndex = java.util.Arrays.copyOf(byIndex == null ? new Reg[0] : byIndex,
                        Math.max(r.index() + 1, g.body().virtualCount(r.file())));
                fresh[file] = byIndex;
            }
            Reg whole = byIndex[r.index()];
            if (whole == null) {
                whole = out.newVirtual(r.file(), r.comps());
                byIndex[r.index()] = whole;
            }
            return r.isPart() ? whole.component(r.part()) : whole;
        };
        // the call's arguments and results by calling-convention word (R4 + word), as the callee's copies use them
        Map<Integer, Src> argWords = CallSequences.words(call.srcs().subList(1, call.srcs().size()));
        List<Src> resultSrcs = new ArrayList<>();
        for (Reg d : call.dsts()) {
            resultSrcs.add(Src.of(d));
        }
        Map<Integer, Src> resultWords = CallSequences.words(resultSrcs);
        for (BasicBlock gb : gSrc) {
            BasicBlock target = gBlocks.get(gb.id());
            for (Instr in : gb.instrs()) {
                String op = in.op().name();
                if (op.equals("RET")) {
                    target.instrs().add(new Instr(opcodes.require("BRA"), List.of(), List.of(),
                            List.of(Src.of(site.cont().ref())), in.guard(), in.line()));
                    continue;
                }
                Integer fromWord = abiSource(in);
                if (fromWord != null) { // entry copy of a parameter: take the argument
                    Src arg = argWords.get(fromWord);
                    if (arg != null) {
                        target.instrs().add(new Instr(in.op(), in.mods(), List.of(rename.apply(in.dsts().get(0))),
                                List.of(arg), renameGuard(in.guard(), rename), call.line()));
                    }
                    continue;
                }
                Integer toWord = abiDestination(in);
                if (toWord != null) { // copy of a return value: into the call's destination
                    Src res = resultWords.get(toWord);
                    if (res != null) {
                        Src value = in.srcs().get(0);
                        target.instrs().add(new Instr(in.op(), in.mods(), List.of((Reg) res.value()),
                                List.of(new Src(operand(value.value(), rename, gBlocks::get), value.neg(), value.abs(),
                                        value.not())), renameGuard(in.guard(), rename), call.line()));
                    }
                    continue;
                }
                target.instrs().add(copy(in, rename, gBlocks::get));
            }
        }
        // the last callee block's unconditional branch to the continuation is a fall-through
        BasicBlock lastCallee = site.calleeBlocks().get(site.calleeBlocks().size() - 1);
        Instr tail = lastCallee.last();
        if (tail != null && tail.op().name().equals("BRA") && tail.guard().isAlways()
                && tail.branchTarget() != null && tail.branchTarget().block() == site.cont().id()) {
            lastCallee.instrs().remove(lastCallee.instrs().size() - 1);
        }
    }

    /** The first register of the calling convention's parameter/result block ({@code R4}). */
    private static final int ABI_FIRST = 4;

    /** For {@code MOV %v, R(4+w)} (a parameter's entry copy), w; else null. */
    private static Integer abiSource(Instr in) {
        if (!in.op().name().equals("MOV") || in.dsts().size() != 1 || !in.dsts().get(0).virtual()
                || in.srcs().size() != 1 || !(in.srcs().get(0).value() instanceof Reg r)) {
            return null;
        }
        return abiWord(r);
    }

    /** For {@code MOV R(4+w), value} (a return value's copy before RET), w; else null. */
    private static Integer abiDestination(Instr in) {
        if (!in.op().name().equals("MOV") || in.dsts().size() != 1 || in.srcs().size() != 1) {
            return null;
        }
        return abiWord(in.dsts().get(0));
    }

    private static Integer abiWord(Reg r) {
        if (r.virtual() || r.file() != RegFile.R || r.isZero() || r.index() < ABI_FIRST) {
            return null;
        }
        return r.index() - ABI_FIRST;
    }

    private static Guard renameGuard(Guard g, java.util.function.UnaryOperator<Reg> rename) {
        return g.isAlways() ? g : new Guard(rename.apply(g.predicate()), g.negated());
    }

    private static Instr copy(Instr in, java.util.function.UnaryOperator<Reg> rename,
            java.util.function.IntFunction<BasicBlock> blocks) {
        List<Reg> dsts = new ArrayList<>(in.dsts().size());
        for (Reg d : in.dsts()) {
            dsts.add(rename.apply(d));
        }
        List<Src> srcs = new ArrayList<>(in.srcs().size());
        for (Src s : in.srcs()) {
            Operand o = operand(s.value(), rename, blocks);
            srcs.add(o == s.value() ? s : new Src(o, s.neg(), s.abs(), s.not())); // a Src is immutable
        }
        Guard g = in.guard().isAlways() ? in.guard() : new Guard(rename.apply(in.guard().predicate()), in.guard().negated());
        return new Instr(in.op(), in.mods(), dsts, srcs, g, in.line());
    }

    private static Operand operand(Operand o, java.util.function.UnaryOperator<Reg> rename,
            java.util.function.IntFunction<BasicBlock> blocks) {
        if (o instanceof Reg r) {
            return rename.apply(r);
        }
        if (o instanceof BlockLabel l) {
            return blocks.apply(l.block()).ref();
        }
        if (o instanceof Addr a) {
            return new Addr(rename.apply(a.base()), a.uniformBase() == null ? null : rename.apply(a.uniformBase()),
                    a.offset());
        }
        if (o instanceof CBank c && c.index() != null) {
            return new CBank(c.bank(), c.offset(), rename.apply(c.index()));
        }
        return o;
    }
}
