package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Linkage;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.frontend.ptx.check.ResolvedModule;
import org.jptxas.frontend.ptx.check.Symbol;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.GlobalVar;
import org.jptxas.ori.ir.ModuleDeclarations;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.TargetProfile;

/**
 * Lowers a checked PTX module to Ori: every defined {@code .entry}/{@code .func} becomes an {@link OriFunction},
 * module {@code .global}/{@code .const} variables become {@link GlobalVar}s ({@code .const} data at assigned offsets
 * of constant bank 3), and {@code .shared} variables are laid out per kernel.
 *
 * <p>Shared layout: the module-scope shared variables that device functions use (and the functions' own
 * {@code .shared} variables) come first, in declaration order, in every kernel that calls a function, so a device
 * function sees the same offsets whichever kernel it is inlined into; then the kernel's other module-scope shared
 * variables and its own, in declaration order. Dynamic ({@code .extern}) shared memory starts after the static part.
 */
public final class PtxLowering {
    private final String fileName;
    private final ResolvedModule resolved;
    private final TargetProfile profile;
    private final LowererRegistry lowerers;

    /** Where a variable lives: its space-relative offset (shared window, constant bank 3, frame) and size. */
    record Placement(StateSpace space, long offset, long size) {
    }

    /** @param profile the target's ABI facts (parameter bank, reserved shared memory) and features */
    public PtxLowering(String fileName, ResolvedModule resolved, TargetProfile profile, LowererRegistry lowerers) {
        this.fileName = fileName;
        this.resolved = resolved;
        this.profile = profile;
        this.lowerers = lowerers;
    }

    public static OriModule lower(String fileName, ResolvedModule resolved, TargetProfile profile)
            throws CompilationException {
        return new PtxLowering(fileName, resolved, profile, LowererRegistry.get()).lower();
    }

    public OriModule lower() throws CompilationException {
        List<GlobalVar> globals = new ArrayList<>();
        Map<Declarator, Placement> modulePlaced = new IdentityHashMap<>();
        long constTop = 0;
        Set<String> functionNames = new java.util.HashSet<>();
        resolved.module().functions().forEach(f -> functionNames.add(f.name()));
        for (VariableDecl v : resolved.module().variables()) {
            for (Declarator d : v.declarators()) {
                if (v.linkage() == Linkage.EXTERN && v.space() != StateSpace.SHARED) {
                    continue;
                }
                if (v.type() == PtxType.TEXREF && v.space() == StateSpace.GLOBAL) {
                    globals.add(new GlobalVar(d.name(), GlobalVar.Space.TEXTURE, 0, 1, 0, null, true));
                    continue;
                }
                if (v.type().isOpaque()) {
                    continue; // samplers and surfaces: no data, and no instruction reads them yet
                }
                long size = DataLayout.size(v, d);
                int align = DataLayout.alignment(v);
                switch (v.space()) {
                    case GLOBAL -> globals.add(global(d.name(), GlobalVar.Space.GLOBAL, size, align, 0,
                            init(v, d, size, functionNames), v.linkage() == Linkage.VISIBLE
                                    || v.linkage() == Linkage.WEAK || v.linkage() == Linkage.COMMON));
                    case CONST -> {
                        long off = DataLayout.alignUp(constTop, align);
                        constTop = off + size;
                        globals.add(global(d.name(), GlobalVar.Space.CONSTANT, size, align, off,
                                init(v, d, size, functionNames), v.linkage() == Linkage.VISIBLE));
                        modulePlaced.put(d, new Placement(StateSpace.CONST, off, size));
                    }
                    default -> {
                        // shared: per kernel below; local at module scope: per function frame
                    }
                }
            }
        }

        List<FunctionDecl> defined = resolved.module().functions().stream().filter(FunctionDecl::isDefinition).toList();
        Map<String, FunctionDecl> byName = new HashMap<>();
        defined.forEach(f -> byName.put(f.name(), f));
        Map<FunctionDecl, Set<String>> callees = new IdentityHashMap<>();
        Map<FunctionDecl, Set<Declarator>> sharedUse = new IdentityHashMap<>();
        Set<Declarator> moduleShared = new LinkedHashSet<>();
        Map<Declarator, VariableDecl> declOf = new IdentityHashMap<>();
        for (VariableDecl v : resolved.module().variables()) {
            if (v.space() == StateSpace.SHARED) {
                for (Declarator d : v.declarators()) {
                    moduleShared.add(d);
                    declOf.put(d, v);
                }
            }
        }
        for (FunctionDecl f : defined) {
            Set<String> calls = new LinkedHashSet<>();
            Set<Declarator> shared = new LinkedHashSet<>();
            scan(f.body(), calls, shared, moduleShared);
            callees.put(f, calls);
            sharedUse.put(f, shared);
        }
        // Module-scope shared variables used by device functions, plus the functions' own .shared variables.
        List<Declarator> funcShared = new ArrayList<>();
        Map<Declarator, VariableDecl> funcOwnShared = new IdentityHashMap<>();
        for (Declarator d : moduleShared) {
            if (defined.stream().anyMatch(f -> !f.isEntry() && sharedUse.get(f).contains(d))) {
                funcShared.add(d);
            }
        }
        for (FunctionDecl f : defined) {
            if (!f.isEntry()) {
                collectShared(f.body(), funcShared, funcOwnShared);
            }
        }
        declOf.putAll(funcOwnShared);

        List<OriFunction> functions = new ArrayList<>();
        Map<String, List<String>> externUsers = new HashMap<>(); // extern shared variable -> kernels whose window has it
        for (FunctionDecl f : defined) {
            Map<Declarator, Placement> placed = new IdentityHashMap<>(modulePlaced);
            // Where the system reserves the start of a block's shared window (the first KiB from sm_90 on), ptxas
            // places shared variables above it (and the kernel's shared size counts it; FunctionCodegen adds it).
            long base = profile.reservedShared();
            long top = base;
            boolean callsAny = !transitiveCallees(f, callees, byName).isEmpty();
            List<Declarator> extern = new ArrayList<>();
            if (!f.isEntry() || callsAny) {
                top = place(funcShared, declOf, placed, top, extern);
            }
            if (f.isEntry()) {
                List<Declarator> own = new ArrayList<>();
                for (Declarator d : moduleShared) {
                    if (!placed.containsKey(d) && usedBy(f, d, sharedUse, callees, byName)) {
                        own.add(d);
                    }
                }
                Map<Declarator, VariableDecl> local = new IdentityHashMap<>();
                collectShared(f.body(), own, local);
                declOf.putAll(local);
                top = place(own, declOf, placed, top, extern);
            }
            long dynamicBase = top;
            for (Declarator d : extern) {
                if (f.isEntry()) {
                    externUsers.computeIfAbsent(d.name(), k -> new ArrayList<>()).add(f.name());
                }
                VariableDecl v = declOf.get(d);
                placed.put(d, new Placement(StateSpace.SHARED, DataLayout.alignUp(dynamicBase, DataLayout.alignment(v)), 0));
            }
            // the shared section's alignment: the largest of the variables this function's window holds, dynamic
            // shared memory counting at least 16 (ptxas 13: 16 for an .extern .shared .align 8 array alone)
            int sharedAlignment = 0;
            for (Map.Entry<Declarator, Placement> e : placed.entrySet()) {
                if (e.getValue().space() == StateSpace.SHARED && !modulePlaced.containsKey(e.getKey())) {
                    int align = DataLayout.alignment(declOf.get(e.getKey()));
                    sharedAlignment = Math.max(sharedAlignment, extern.contains(e.getKey()) ? Math.max(16, align) : align);
                }
            }
            FunctionLowerer fl = new FunctionLowerer(fileName, resolved, profile, lowerers, f, placed, top - base,
                    sharedAlignment, List.copyOf(callees.get(f)));
            functions.add(fl.lower());
        }
        functions.addAll(SlowPathSubroutines.functions(functions, profile.target(), profile));
        return new OriModule(fileName, profile.target(), functions, globals, declarations(resolved, externUsers));
    }

    /**
     * The module's target, texture mode, declared functions (in source order, each name once) and the alignment of its
     * {@code .extern .shared} variables (each with the kernels whose shared window holds it, from {@code externUsers}).
     */
    static ModuleDeclarations declarations(ResolvedModule resolved, Map<String, List<String>> externUsers) {
        Map<String, ModuleDeclarations.Function> byName = new LinkedHashMap<>();
        for (FunctionDecl f : resolved.module().functions()) {
            ModuleDeclarations.Function known = byName.get(f.name());
            boolean defined = f.isDefinition() || known != null && known.defined();
            ModuleDeclarations.Linkage linkage = switch (f.linkage()) {
                case VISIBLE -> ModuleDeclarations.Linkage.VISIBLE;
                case WEAK -> ModuleDeclarations.Linkage.WEAK;
                case EXTERN -> ModuleDeclarations.Linkage.EXTERN;
                default -> ModuleDeclarations.Linkage.INTERNAL;
            };
            if (known != null && linkage == ModuleDeclarations.Linkage.EXTERN) {
                linkage = known.linkage();
            }
            byName.put(f.name(), new ModuleDeclarations.Function(f.name(), f.isEntry(), linkage, defined,
                    declaredParams(f.returns()), declaredParams(f.params())));
        }
        var target = resolved.module().target();
        java.util.OptionalInt sm = java.util.OptionalInt.empty();
        if (target.isPresent() && !target.get().architectures().isEmpty()) {
            String digits = target.get().architectures().get(0).replaceAll("^[a-z]+_|[^0-9]+$", "");
            if (digits.matches("[0-9]+")) {
                sm = java.util.OptionalInt.of(Integer.parseInt(digits));
            }
        }
        int externShared = 0;
        List<ModuleDeclarations.ExternShared> externVariables = new ArrayList<>();
        for (VariableDecl v : resolved.module().variables()) {
            if (v.space() == StateSpace.SHARED && v.linkage() == Linkage.EXTERN) {
                externShared = Math.max(externShared, DataLayout.alignment(v));
                for (Declarator d : v.declarators()) {
                    externVariables.add(new ModuleDeclarations.ExternShared(d.name(), DataLayout.alignment(v),
                            externUsers.getOrDefault(d.name(), List.of())));
                }
            }
        }
        return new ModuleDeclarations(sm, target.map(t -> t.has("texmode_independent")).orElse(false),
                List.copyOf(byName.values()), externShared, externVariables,
                target.map(t -> t.has("debug")).orElse(false));
    }

    private static List<FunctionAttrs.Param> declaredParams(List<VariableDecl> vars) {
        List<FunctionAttrs.Param> out = new ArrayList<>();
        for (VariableDecl v : vars) {
            for (Declarator d : v.declarators()) {
                out.add(new FunctionAttrs.Param(out.size(), d.name(), 0, (int) DataLayout.size(v, d),
                        DataLayout.alignment(v), EntryAbi.typeName(v)));
            }
        }
        return out;
    }

    private static long place(List<Declarator> ds, Map<Declarator, VariableDecl> declOf, Map<Declarator, Placement> placed,
            long top, List<Declarator> extern) {
        for (Declarator d : ds) {
            VariableDecl v = declOf.get(d);
            if (v.linkage() == Linkage.EXTERN || (d.isArray() && d.dimensions().get(0) < 0 && d.initializer() == null)) {
                extern.add(d);
                continue;
            }
            long off = DataLayout.alignUp(top, DataLayout.alignment(v));
            long size = DataLayout.size(v, d);
            placed.put(d, new Placement(StateSpace.SHARED, off, size));
            top = off + size;
        }
        return top;
    }

    private boolean usedBy(FunctionDecl f, Declarator d, Map<FunctionDecl, Set<Declarator>> sharedUse,
            Map<FunctionDecl, Set<String>> callees, Map<String, FunctionDecl> byName) {
        if (sharedUse.get(f).contains(d)) {
            return true;
        }
        for (String c : transitiveCallees(f, callees, byName)) {
            FunctionDecl g = byName.get(c);
            if (g != null && sharedUse.get(g).contains(d)) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> transitiveCallees(FunctionDecl f, Map<FunctionDecl, Set<String>> callees,
            Map<String, FunctionDecl> byName) {
        Set<String> seen = new LinkedHashSet<>();
        List<String> work = new ArrayList<>(callees.get(f));
        while (!work.isEmpty()) {
            String c = work.remove(work.size() - 1);
            if (seen.add(c)) {
                FunctionDecl g = byName.get(c);
                if (g != null) {
                    work.addAll(callees.get(g));
                }
            }
        }
        return seen;
    }

    private void scan(Block block, Set<String> calls, Set<Declarator> shared, Set<Declarator> moduleShared) {
        for (Statement s : block.statements()) {
            if (s instanceof Block b) {
                scan(b, calls, shared, moduleShared);
            } else if (s instanceof Instruction insn) {
                boolean call = insn.opcode().equals("call");
                if (call || !moduleShared.isEmpty()) { // else no operand can name what the scan collects
                    scanOperands(insn.operands(), call, calls, shared, moduleShared);
                }
            }
        }
    }

    private void scanOperands(List<? extends Operand> os, boolean call, Set<String> calls, Set<Declarator> shared,
            Set<Declarator> moduleShared) {
        for (int i = 0; i < os.size(); i++) {
            scanOperand(os.get(i), call, calls, shared, moduleShared);
        }
    }

    private void scanOperand(Operand o, boolean call, Set<String> calls, Set<Declarator> shared,
            Set<Declarator> moduleShared) {
        if (o instanceof Expr.SymbolRef r) {
            // no capturing lambdas or iterators here: C1-compiled code (the compile server's) allocates for each,
            // at every operand of the module
            Symbol sym = resolved.symbolOf(r).orElse(null);
            if (sym instanceof Symbol.Function fn && call) {
                calls.add(fn.name());
            } else if (sym instanceof Symbol.Variable v && moduleShared.contains(v.declarator())) {
                shared.add(v.declarator());
            }
        } else if (o instanceof Expr.Binary b) {
            scanOperand(b.left(), call, calls, shared, moduleShared);
            scanOperand(b.right(), call, calls, shared, moduleShared);
        } else if (o instanceof Expr.Unary u) {
            scanOperand(u.operand(), call, calls, shared, moduleShared);
        } else if (o instanceof Expr.Apply a) {
            scanOperands(a.arguments(), call, calls, shared, moduleShared);
        } else if (o instanceof Operand.Address a) {
            scanOperands(a.parts(), call, calls, shared, moduleShared);
        } else if (o instanceof Operand.Vector v) {
            scanOperands(v.elements(), call, calls, shared, moduleShared);
        } else if (o instanceof Operand.ParenList p) {
            scanOperands(p.elements(), call, calls, shared, moduleShared);
        } else if (o instanceof Operand.Pair p) {
            scanOperand(p.first(), call, calls, shared, moduleShared);
            scanOperand(p.second(), call, calls, shared, moduleShared);
        }
    }

    /** The {@code .shared} variables declared inside a function body, in order. */
    private static void collectShared(Block block, List<Declarator> out, Map<Declarator, VariableDecl> declOf) {
        for (Statement s : block.statements()) {
            if (s instanceof Block b) {
                collectShared(b, out, declOf);
            } else if (s instanceof VariableDecl v && v.space() == StateSpace.SHARED) {
                for (Declarator d : v.declarators()) {
                    out.add(d);
                    declOf.put(d, v);
                }
            }
        }
    }

    /** A module variable; {@code init} null when it has no initializer. */
    private static GlobalVar global(String name, GlobalVar.Space space, long size, int align, long offset,
            InitializerBytes.Contents init, boolean visible) {
        return init == null ? new GlobalVar(name, space, size, align, offset, null, visible)
                : new GlobalVar(name, space, size, align, offset, init.bytes(), visible, init.addresses());
    }

    /** {@code d}'s initial contents, null without an initializer ({@code functionNames}: the module's functions). */
    private InitializerBytes.Contents init(VariableDecl v, Declarator d, long size, Set<String> functionNames)
            throws UnsupportedFeatureException {
        if (d.initializer() == null) {
            return null;
        }
        try {
            return InitializerBytes.of(v, d, size, functionNames::contains);
        } catch (InitializerBytes.NotConstant e) {
            throw new UnsupportedFeatureException(fileName, d.pos().line(),
                    "Variable '" + d.name() + "': " + e.getMessage() + " are not yet supported");
        }
    }

}
