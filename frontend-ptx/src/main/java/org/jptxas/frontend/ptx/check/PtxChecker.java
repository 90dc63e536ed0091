package org.jptxas.frontend.ptx.check;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.AddressSizeDirective;
import org.jptxas.frontend.ptx.ast.AliasDirective;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FileDirective;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Initializer;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Linkage;
import org.jptxas.frontend.ptx.ast.ModuleItem;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.SectionDirective;
import org.jptxas.frontend.ptx.ast.SourcePos;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.frontend.ptx.ast.TargetDirective;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.frontend.ptx.ast.VersionDirective;
import org.jptxas.frontend.ptx.isa.InstructionUse;
import org.jptxas.frontend.ptx.isa.IsaProblem;
import org.jptxas.frontend.ptx.isa.OperandUse;
import org.jptxas.frontend.ptx.isa.PtxIsa;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.diag.Severity;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetCatalog;
import org.jptxas.ori.target.TargetInfo;

/**
 * Semantic checks of a parsed PTX module: the module header, names (undeclared, duplicate, forward references),
 * labels, state spaces, directive version/target gates, and each instruction against the instruction table. Reports
 * every problem found, in ptxas's wording where ptxas has one. One instance per check; not thread-safe.
 */
public final class PtxChecker {
    private final String fileName;
    private final PtxModule module;
    private final Target compileTarget;
    private final TargetCatalog catalog;
    /** null when instruction-table checks are off. */
    private final PtxIsa isa;
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    final IdentityHashMap<Expr.SymbolRef, Symbol> resolved = new IdentityHashMap<>();
    private final IdentityHashMap<Instruction, PtxIsa.Split> splits = new IdentityHashMap<>();
    private final Scope moduleScope = new Scope(null);
    private final OperandUses operandUses = new OperandUses(resolved);
    private int version;
    private Target declaredTarget;
    private TargetInfo gatingTarget;
    private boolean texmodeIndependent;
    /**
     * The instruction table's answers per distinct instruction name and per distinct use: a large module repeats a
     * few hundred instructions thousands of times, and each answer depends on nothing else.
     */
    private final java.util.Map<List<String>, Optional<PtxIsa.Split>> splitByName = new java.util.HashMap<>();
    private final java.util.Map<IsaQuestion, List<IsaProblem>> problemsByUse = new java.util.HashMap<>();

    private record IsaQuestion(InstructionUse use, int version, TargetInfo target) {}

    private PtxChecker(String fileName, PtxModule module, Target compileTarget, TargetCatalog catalog, PtxIsa isa) {
        this.catalog = catalog;
        this.fileName = fileName;
        this.module = module;
        this.compileTarget = compileTarget;
        this.isa = isa;
    }

    /**
     * Checks {@code module} for compilation to {@code compileTarget} (the {@code -arch} target; may be null when
     * only the module's own {@code .target} matters); {@code catalog} holds the targets a {@code .target} may name.
     */
    public static CheckResult check(String fileName, PtxModule module, Target compileTarget, TargetCatalog catalog) {
        return check(fileName, module, compileTarget, catalog, true);
    }

    /**
     * As {@link #check(String, PtxModule, Target, TargetCatalog)}; {@code instructionTable} false skips the per-instruction checks
     * against the instruction table (names, declarations, labels and directives are still checked).
     */
    public static CheckResult check(String fileName, PtxModule module, Target compileTarget, TargetCatalog catalog,
            boolean instructionTable) {
        PtxChecker c = new PtxChecker(fileName, module, compileTarget, catalog, instructionTable ? PtxIsa.get() : null);
        c.run();
        return new CheckResult(new ResolvedModule(module, c.resolved, c.splits), c.diagnostics);
    }

    void error(SourcePos pos, String message) {
        diagnostics.add(Diagnostic.error(fileName, pos.line(), message));
    }

    void fatal(SourcePos pos, String message) {
        diagnostics.add(new Diagnostic(Severity.FATAL, fileName, pos.line(), message));
    }

    /** Lines of 32-bit addresses in the 64-bit module (cvta.u32): ptxas warns at each, then stops ({@link #run}). */
    private final List<Integer> thirtyTwoBitAddresses = new ArrayList<>();

    void thirtyTwoBitAddress(SourcePos pos) {
        thirtyTwoBitAddresses.add(pos.line());
    }

    private void run() {
        if (!header()) {
            return;
        }
        for (ModuleItem item : module.items()) {
            if (item instanceof VariableDecl v) {
                moduleVariable(v);
            } else if (item instanceof FunctionDecl f) {
                function(f);
            } else if (item instanceof AliasDirective a) {
                alias(a);
            } else if (item instanceof FileDirective f && !fileIndices.add(f.index())) {
                error(module.reportedPos(f), "Duplicate file index #" + f.index());
            } else if (item instanceof SectionDirective s) {
                sectionValues(s);
            }
        }
        unresolvedFunctions();
        if (!thirtyTwoBitAddresses.isEmpty() && diagnostics.stream().noneMatch(Diagnostic::isError)) {
            // reported only by a module that is otherwise sound (errors abort ptxas first)
            thirtyTwoBitAddresses.forEach(line -> diagnostics.add(Diagnostic.warning(null, 0, "Program uses 32-bit"
                    + " address on line '" + line + "' which is conflicting with .address_size 64")));
            diagnostics.add(Diagnostic.fatal(" 32-Bit compilation is no longer supported")); // ptxas spaces it so
        }
    }

    private final Set<Long> fileIndices = new HashSet<>();

    /**
     * Numbers in debug sections must fit their .b8 or .b16 type as ptxas reads them: the low 32 bits, signed or
     * unsigned ({@code .b8 -128 .. 255}; {@code 4294967552} is 256, out of range).
     */
    private void sectionValues(SectionDirective s) {
        for (SectionDirective.SectionEntry e : s.entries()) {
            if (!(e instanceof SectionDirective.Data d) || !(d.type().equals(".b8") || d.type().equals(".b16")
                    || d.type().equals("b8") || d.type().equals("b16"))) {
                continue;
            }
            int bits = d.type().endsWith("16") ? 16 : 8;
            for (Expr v : d.values()) {
                Long n = v instanceof Expr.IntLit l ? Long.valueOf(l.value())
                        : v instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NEG && u.operand() instanceof Expr.IntLit l
                                ? Long.valueOf(-l.value()) : null;
                if (n == null) {
                    continue;
                }
                int w = (int) n.longValue();
                if (w < -(1 << (bits - 1)) || w > (1 << bits) - 1) {
                    error(d.pos(), "Value out of range for type .b" + bits + " " + w);
                }
            }
        }
    }

    /** A function declared without .extern must be defined in the module (ptxas: fatal, with -c too). */
    private void unresolvedFunctions() {
        Set<String> defined = new HashSet<>();
        for (FunctionDecl f : module.functions()) {
            if (f.isDefinition()) {
                defined.add(f.name());
            }
        }
        for (FunctionDecl f : module.functions()) {
            if (!f.isDefinition() && f.linkage() != Linkage.EXTERN && defined.add(f.name())) {
                diagnostics.add(Diagnostic.fatal("Unresolved extern function '" + f.name() + "'"));
            }
        }
    }

    // ---- header: .version, .target, .address_size

    /** Checks the header; false when the rest cannot be checked meaningfully. */
    private boolean header() {
        List<ModuleItem> items = module.items();
        if (items.isEmpty()) {
            return false;
        }
        if (!(items.get(0) instanceof VersionDirective v)) {
            // ptxas notices the missing directive one item later.
            fatal(items.get(items.size() > 1 ? 1 : 0).pos(), "Missing .version directive at start of file '" + fileName + "'");
            return false;
        }
        version = v.times10();
        if (items.size() < 2 || !(items.get(1) instanceof TargetDirective)) {
            fatal(items.size() < 2 ? v.pos() : items.get(1).pos(),
                    "Missing .target directive at start of file '" + fileName + "'");
            return false;
        }
        // ptxas takes several .target lines in a row as one list (the last architecture counts); one after
        // .address_size or after the first function is a syntax error.
        int next = 1;
        while (next < items.size() && items.get(next) instanceof TargetDirective t) {
            targetDirective(t);
            next++;
        }
        compareTargets();
        for (int i = next; i < items.size(); i++) {
            ModuleItem item = items.get(i);
            if (item instanceof VersionDirective || item instanceof TargetDirective) {
                fatal(item.pos(), "Parsing error near '" + (item instanceof VersionDirective ? ".version" : ".target")
                        + "': syntax error");
            } else if (item instanceof AddressSizeDirective a) {
                if (i == next) {
                    addressSize(a);
                } else {
                    // Only directly after .target, and once.
                    fatal(a.pos(), "Parsing error near '.address_size': syntax error");
                }
            }
        }
        return true;
    }

    private void targetDirective(TargetDirective t) {
        texmodeIndependent |= t.has("texmode_independent");
        for (String entry : t.entries()) {
            Optional<Target> parsed = Target.parse(entry);
            if (parsed.isEmpty()) {
                if (!isTargetOption(entry)) {
                    fatal(t.pos(), "Unsupported .target '" + entry + "'");
                }
                continue;
            }
            Target target = parsed.get();
            Optional<TargetInfo> info = catalog.info(target.name());
            if (info.isEmpty() && !(target.suffix().isEmpty() && FeatureGates.isLegacyTarget(target.sm()))) {
                fatal(t.pos(), "Unsupported .target '" + entry + "'");
                continue;
            }
            // the last architecture listed is the one compiled for (ptxas: '.target sm_80, sm_90' is sm_90)
            declaredTarget = target;
            gatingTarget = info.orElse(null);
            int needed = FeatureGates.minimumVersionFor(target.sm(), target.suffix());
            // ptxas only objects once there is code to compile for the target.
            if (version < needed && !module.functions().isEmpty()) {
                error(t.pos(), "PTX .version " + FeatureGates.versionText(version) + " does not support .target "
                        + entry);
            }
        }
        if (t.has("map_f64_to_f32") && declaredTarget != null && declaredTarget.sm() >= 13) {
            error(t.pos(), "Directive map_f64_to_f32 is not supported with SM 1.3 or higher");
        }
    }

    /** The declared target against the one compiled for, once every .target line is read. */
    private void compareTargets() {
        if (declaredTarget != null && compileTarget != null) {
            if (declaredTarget.sm() > compileTarget.sm()) {
                diagnostics.add(Diagnostic.fatal("SM version specified by .target is higher than default SM version assumed"));
            } else if (declaredTarget.archSpecific() && !declaredTarget.equals(compileTarget)) {
                diagnostics.add(Diagnostic.fatal("PTX with .target '" + declaredTarget.name()
                        + "' cannot be compiled for architecture '" + compileTarget.name() + "'"));
            }
        }
        if (gatingTarget == null && compileTarget != null) {
            gatingTarget = catalog.info(compileTarget.name()).orElse(null);
        }
    }

    private static boolean isTargetOption(String entry) {
        return switch (entry) {
            case "texmode_unified", "texmode_independent", "debug", "map_f64_to_f32" -> true;
            default -> false;
        };
    }

    private void addressSize(AddressSizeDirective a) {
        if (version < FeatureGates.ADDRESS_SIZE_VERSION) {
            error(a.pos(), "Feature '.address_size directive' requires PTX ISA .version 2.3 or later");
        }
        if (a.bits() != 32 && a.bits() != 64) {
            error(a.pos(), "Illegal value for .address_size directive (must be 32 or 64)");
        } else if (a.bits() == 32) {
            error(a.pos(), "32-Bit compilation is no longer supported");
        }
    }

    private void versionGate(SourcePos pos, String feature, int needed) {
        if (version < needed) {
            error(pos, "Feature '" + feature + "' requires PTX ISA .version " + FeatureGates.versionText(needed)
                    + " or later");
        }
    }

    private void targetGate(SourcePos pos, String feature, int sm) {
        if (declaredTarget != null && declaredTarget.sm() < sm) {
            error(pos, "Feature '" + feature + "' requires .target sm_" + sm + " or higher");
        }
    }

    // ---- module scope

    private void moduleVariable(VariableDecl v) {
        // ptxas checks the declaration itself first, and stops at a fatal finding there
        if (!declarationRules(v)) {
            return;
        }
        switch (v.space()) {
            case REG, LOCAL -> {
                if (declaredTarget != null && declaredTarget.sm() < 30) {
                    // Targets before sm_30 compile without the ABI instead of refusing.
                    diagnostics.add(new Diagnostic(Severity.WARNING, null, 0, "Use of module scoped .local or .reg variable '"
                            + v.declarators().get(0).name() + "' found, disabling ABI"));
                } else {
                    error(v.pos(), "Module-scoped variables in " + v.space().directive()
                            + " state space are not allowed with ABI");
                }
            }
            case PARAM -> error(v.pos(), "Parameter variables may not be declared at module scope");
            case SREG -> fatal(v.pos(), "Parsing error near '.sreg': syntax error");
            default -> {
            }
        }
        declareVariables(v, moduleScope);
        for (Declarator d : v.declarators()) {
            if (d.initializer() != null) {
                initializer(d.initializer(), moduleScope);
            }
        }
    }

    private final InitializerTypes.Sink initializerSink = new InitializerTypes.Sink() {
        @Override
        public void error(SourcePos pos, String message) {
            PtxChecker.this.error(pos, message);
        }

        @Override
        public void fatal(SourcePos pos, String message) {
            PtxChecker.this.fatal(pos, message);
        }
    };

    /** Initializers and arrays where the state space allows them, and their types (ptxas stops at a fatal one). */
    boolean declarationRules(VariableDecl v) {
        boolean predicate = v.type() == PtxType.PRED;
        for (Declarator d : v.declarators()) {
            boolean scalar = !d.isArray() && v.vectorLength() == 0;
            if (predicate && !scalar) {
                error(d.pos(), "Predicate type can only be used to define scalar register variables");
            }
            if (d.initializer() != null && (v.space() == StateSpace.REG || v.space() == StateSpace.LOCAL
                    || v.space() == StateSpace.SHARED || v.space() == StateSpace.PARAM)) {
                error(d.pos(), "No initial value is allowed for '" + d.name() + "' in this state space");
            }
            boolean typed = d.initializer() != null && !v.type().isOpaque();
            if (typed) {
                InitializerTypes.expressionErrors(v, d, initializerSink);
            }
            if (v.space() == StateSpace.REG && d.isArray()) {
                error(d.pos(), "Variable '" + d.name() + "' cannot be allocated into a register");
            }
            if (VariableDeclarations.unsizedWithoutInitializer(v, d)) {
                error(d.pos(), "Non-external variable '" + d.name() + "' has incomplete type");
            }
            if (d.isArray() && d.initializer() instanceof Initializer.Aggregate a
                    && VariableDeclarations.tooManyElements(a, d.dimensions(), 0)) {
                // ptxas names the end of the initializer; its last element is the nearest position the AST keeps
                List<Initializer> es = a.elements();
                fatal(es.isEmpty() ? d.pos() : es.get(es.size() - 1).pos(),
                        "Greater number of elements in array initializer");
                return false;
            }
            if (typed && !InitializerTypes.matches(v, d, initializerSink)) {
                return false;
            }
            if (predicate && scalar) {
                predicateInRegister(v, d);
            }
        }
        return true;
    }

    /** ptxas keeps predicates in registers only: a .pred variable or parameter in any other space is refused. */
    private void predicateInRegister(VariableDecl v, Declarator d) {
        if (v.type() == PtxType.PRED && v.space() != StateSpace.REG) {
            error(d.pos(), "Predicate variable '" + d.name() + "' must be in register state space");
        }
    }

    void declareVariables(VariableDecl v, Scope scope) {
        if (v.type() == PtxType.SAMPLERREF && !texmodeIndependent) {
            error(v.pos(), "Instruction or declaration violates .target texmode_unified setting");
        }
        for (Declarator d : v.declarators()) {
            if (d.name().equals("_")) {
                continue;
            }
            Symbol.Variable symbol = new Symbol.Variable(d.name(), v, d);
            Symbol previous = d.isParameterized() ? scope.declareParameterized(v, d) : scope.declare(symbol);
            if (previous == null) {
                continue;
            }
            if (d.isParameterized() || !(previous instanceof Symbol.Variable p) || p.declarator().isParameterized()) {
                error(d.pos(), "Duplicate definition of variable '" + d.name() + "'");
                continue;
            }
            String problem = VariableDeclarations.redeclaration(p, v, d);
            if (problem != null) {
                error(d.pos(), problem);
            } else if (p.decl().linkage() == Linkage.EXTERN && v.linkage() != Linkage.EXTERN) {
                scope.redeclare(symbol); // the definition resolves the .extern declaration before it
            }
        }
    }

    void initializer(Initializer init, Scope scope) {
        if (init instanceof Initializer.Value v) {
            resolveExpr(v.value(), scope, null);
        } else if (init instanceof Initializer.Aggregate a) {
            for (Initializer e : a.elements()) {
                initializer(e, scope);
            }
        }
    }

    private void alias(AliasDirective a) {
        versionGate(a.pos(), ".alias", FeatureGates.ALIAS_VERSION);
        for (String name : List.of(a.alias(), a.aliasee())) {
            if (!(moduleScope.lookup(name) instanceof Symbol.Function)) {
                error(a.pos(), "Unknown symbol '" + name + "'");
            }
        }
    }

    private void function(FunctionDecl f) {
        Symbol previous = moduleScope.lookupLocal(f.name());
        if (previous == null) {
            moduleScope.declare(new Symbol.Function(f));
        } else if (previous instanceof Symbol.Function pf) {
            String mismatch = Prototypes.mismatch(pf.decl(), f);
            if (pf.decl().isDefinition() && f.isDefinition()) {
                error(f.pos(), "Duplicate definition of function '" + f.name() + "'");
            } else if (mismatch != null) {
                error(Prototypes.position(f), "Inconsistent prototypes of '" + f.name() + "', " + mismatch);
            } else if (f.isDefinition()) {
                replaceFunction(f);
            }
        } else {
            error(f.pos(), "Duplicate definition of function '" + f.name() + "'");
        }
        for (TuningDirective t : f.tuning()) {
            tuningGates(t);
        }
        if (f.body() == null) {
            return;
        }
        if (f.returns().size() > 1) {
            diagnostics.add(new Diagnostic(Severity.WARNING, null, 0, "Function '" + f.name()
                    + "' with multiple return values found, disabling ABI"));
        }
        minnctapersmNeedsThreadBound(f);
        Scope params = new Scope(moduleScope);
        for (VariableDecl p : f.returns()) {
            parameterSpace(f, p);
            declareVariables(p, params);
        }
        for (VariableDecl p : f.params()) {
            parameterSpace(f, p);
            declareVariables(p, params);
        }
        Set<String> declaredInBody = new HashSet<>();
        collectDeclaredNames(f.body(), declaredInBody);
        new BodyChecker(this, declaredInBody).block(f.body(), params);
    }

    /** ptxas warns, at the body's closing brace, that .minnctapersm alone has no effect. */
    private void minnctapersmNeedsThreadBound(FunctionDecl f) {
        boolean min = false;
        boolean threads = false;
        for (TuningDirective t : f.tuning()) {
            min |= t.kind() == TuningDirective.Kind.MINNCTAPERSM;
            threads |= t.kind() == TuningDirective.Kind.MAXNTID || t.kind() == TuningDirective.Kind.REQNTID;
        }
        if (min && !threads) {
            diagnostics.add(new Diagnostic(Severity.WARNING, fileName, f.body().end().line(),
                    ".minnctapersm is ignored when neither .maxntid nor .reqntid is specified."));
        }
    }

    private void parameterSpace(FunctionDecl f, VariableDecl p) {
        String name = p.declarators().get(0).name();
        if (f.isEntry() && p.space() != StateSpace.PARAM) {
            error(p.pos(), "Entry parameter '" + name + "' must have .param state space");
        } else if (!f.isEntry() && p.space() != StateSpace.PARAM && p.space() != StateSpace.REG) {
            error(p.pos(), "Function parameter '" + name + "' has illegal state space");
        }
        for (Declarator d : p.declarators()) {
            predicateInRegister(p, d);
        }
    }

    private void replaceFunction(FunctionDecl definition) {
        // The module scope keeps the definition once there is one: calls resolve to what is compiled.
        Scope fresh = moduleScope;
        fresh.declare(new Symbol.Function(definition));
    }

    void tuningGates(TuningDirective t) {
        if (t.kind() == TuningDirective.Kind.MAXNCTAPERSM && version >= 21) {
            error(t.pos(), "Deprecated feature: '.maxnctapersm directive' not supported as of PTX version 2.1");
        }
        Integer needed = FeatureGates.TUNING_VERSION.get(t.kind());
        if (needed != null) {
            versionGate(t.pos(), t.kind().directive(), needed);
        }
        Integer sm = FeatureGates.TUNING_SM.get(t.kind());
        if (sm != null) {
            targetGate(t.pos(), t.kind().directive(), sm);
        }
    }

    private static void collectDeclaredNames(Block b, Set<String> into) {
        for (Statement s : b.statements()) {
            if (s instanceof VariableDecl v) {
                for (Declarator d : v.declarators()) {
                    into.add(d.name());
                }
            } else if (s instanceof Block inner) {
                collectDeclaredNames(inner, into);
            }
        }
    }

    /** Size in bytes of one declared variable; 0 when an unsized array makes it unknown. */
    static long byteSize(VariableDecl decl, Declarator d) {
        long size = (long) decl.type().sizeBytes() * Math.max(1, decl.vectorLength());
        for (long dim : d.dimensions()) {
            if (dim < 0) {
                return 0;
            }
            size *= dim;
        }
        return size;
    }

    /** The explicit {@code .align}, or the natural alignment of the (vector) element type. */
    static long alignment(VariableDecl decl) {
        return decl.align() != 0 ? decl.align() : (long) decl.type().sizeBytes() * Math.max(1, decl.vectorLength());
    }

    // ---- resolution of names in expressions

    /** Resolves the names in {@code e}; {@code body} decides the wording for names declared later, if non-null. */
    void resolveExpr(Expr e, Scope scope, BodyChecker body) {
        if (e instanceof Expr.SymbolRef s) {
            Symbol sym = lookup(s.name(), scope);
            if (sym != null) {
                resolved.put(s, sym);
                if (sym instanceof Symbol.Special sp && sp.register() != null) {
                    versionGate(s.pos(), sp.register().ptxName(), sp.register().minVersion());
                    targetGate(s.pos(), sp.register().ptxName(), sp.register().minSm());
                }
                if (s.component() != null && sym instanceof Symbol.Variable v && v.space() == StateSpace.REG) {
                    registerComponent(s, v);
                }
            } else if (body != null && body.declaredLater(s.name())) {
                fatal(s.pos(), "Label expected for forward reference of '" + s.name() + "'");
            } else {
                error(s.pos(), "Unknown symbol '" + s.name() + "'");
            }
        } else if (e instanceof Expr.Unary u) {
            resolveExpr(u.operand(), scope, body);
        } else if (e instanceof Expr.Binary b) {
            resolveExpr(b.left(), scope, body);
            resolveExpr(b.right(), scope, body);
        } else if (e instanceof Expr.Conditional c) {
            resolveExpr(c.condition(), scope, body);
            resolveExpr(c.ifTrue(), scope, body);
            resolveExpr(c.ifFalse(), scope, body);
        } else if (e instanceof Expr.Apply a) {
            if (!a.function().equals("generic") && !a.function().equals("mask")) {
                error(a.pos(), "Unknown symbol '" + a.function() + "'");
            }
            for (Expr arg : a.arguments()) {
                resolveExpr(arg, scope, body);
            }
        }
    }

    /**
     * {@code %v.y} on a register: a component of a vector register, or, on a scalar one, what ptxas reads as a video
     * selector it does not know (so a register declared as {@code %tid} hides the special register in {@code %tid.x}).
     */
    private void registerComponent(Expr.SymbolRef s, Symbol.Variable v) {
        if (v.vectorLength() == 0 && VideoSelectors.isSelector(s.component())) {
            return; // a video selector: BodyChecker checks it against its instruction
        }
        int index = Math.max("xyzw".indexOf(s.component()), "rgba".indexOf(s.component()));
        if (v.vectorLength() == 0 || s.component().length() != 1 || index < 0) {
            error(s.pos(), "Unknown video selector: '." + s.component() + "'");
        } else if (index >= v.vectorLength()) {
            // ptxas 13 crashes here; name the component instead
            error(s.pos(), "Vector component '." + s.component() + "' out of range for '" + s.name() + "'");
        }
    }

    static Symbol lookup(String name, Scope scope) {
        Symbol s = scope.lookup(name);
        if (s != null) {
            return s;
        }
        Optional<SpecialRegister> special = SpecialRegister.lookup(name);
        if (special.isPresent()) {
            return new Symbol.Special(name, special.get(), special.get().type());
        }
        return SpecialRegister.numberedFamilyType(name).map(t -> (Symbol) new Symbol.Special(name, null, t))
                .orElse(null);
    }

    // ---- function bodies

    // ---- state space of memory operands

    private static final Set<String> MEMORY_OPS = Set.of("ld", "ldu", "st", "atom", "red");

    /** {@code ld.global [sharedVar]}: a named variable accessed through another state space. */
    void addressSpace(Instruction i) {
        if (!MEMORY_OPS.contains(i.opcode())) {
            return;
        }
        StateSpace written = null;
        for (String m : i.modifiers()) {
            int colons = m.indexOf("::");
            Optional<StateSpace> s = StateSpace.fromDirective("." + (colons < 0 ? m : m.substring(0, colons)));
            if (s.isPresent()) {
                if (written != null) {
                    return;
                }
                written = s.get();
            }
        }
        if (written == null) {
            return;
        }
        for (Operand o : i.operands()) {
            if (o instanceof Operand.Address a && a.expression() != null) {
                Expr base = a.expression();
                while (base instanceof Expr.Binary b && (b.op() == Expr.BinaryOp.ADD || b.op() == Expr.BinaryOp.SUB)) {
                    base = b.left();
                }
                if (base instanceof Expr.SymbolRef ref && resolved.get(ref) instanceof Symbol.Variable v
                        && v.space() != StateSpace.REG && v.space() != written) {
                    error(i.pos(), "State space mismatch between instruction and address in instruction '"
                            + i.opcode() + "'");
                }
            }
        }
    }

    // ---- the instruction table

    void isaCheck(Instruction i) {
        if (isa == null) {
            return;
        }
        Optional<PtxIsa.Split> split = splitByName.computeIfAbsent(i.nameWords(), isa::split);
        if (split.isEmpty()) {
            error(i.pos(), PtxIsa.unknownInstruction(i.opcode()));
            return;
        }
        splits.put(i, split.get());
        if (gatingTarget == null) {
            return;
        }
        List<OperandUse> uses = new ArrayList<>();
        for (Operand o : i.operands()) {
            if (o instanceof Operand.Pair p) {
                uses.add(operandUses.of(p.first()));
                uses.add(operandUses.of(p.second()));
            } else {
                uses.add(operandUses.of(o));
            }
        }
        InstructionUse use = new InstructionUse(split.get().opcode(), split.get().modifiers(), uses);
        if (FeatureGates.vectorBeforeOtherModifier(use.modifiers())) {
            diagnostics.add(Diagnostic.warning(fileName, i.pos().line(), "Vector Type not specified properly"));
        }
        List<IsaProblem> problems = problemsByUse.computeIfAbsent(new IsaQuestion(use, version, gatingTarget),
                q -> isa.check(q.use(), q.version(), q.target()));
        for (IsaProblem p : problems) {
            error(i.pos(), p.message());
        }
        if (problems.isEmpty()) {
            // the warning names the architecture compiled for, not the module's .target
            int sm = compileTarget != null ? compileTarget.sm() : gatingTarget.sm();
            FeatureGates.warpWithoutSyncWarnings(use.opcode(), use.modifiers(), version, sm)
                    .forEach(w -> diagnostics.add(Diagnostic.warning(fileName, i.pos().line(), w)));
        }
    }
}
