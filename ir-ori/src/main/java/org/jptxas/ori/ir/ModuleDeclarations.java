package org.jptxas.ori.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What a PTX module declares that its object file records beyond the code: the SM of its {@code .target} (ptxas
 * writes it as the virtual SM of {@code .note.nv.cuinfo}), {@code texmode_independent}, and every function it
 * declares, in source order, with its linkage and parameter types (kernel symbol bindings; the prototypes and
 * undefined symbols of relocatable output), and its {@code .extern .shared} variables' alignment.
 *
 * @param ptxTargetSm        the SM number of the {@code .target} directive's first architecture (empty without one)
 * @param texmodeIndependent {@code .target ..., texmode_independent}
 * @param functions          the declared functions in declaration order (defined or not; each name once)
 * @param externSharedAlignment the largest alignment of the module's {@code .extern .shared} variables (0 without
 *                              any): a module without kernels still records them (ptxas's {@code .nv_debug.shared})
 * @param externShared          the module's {@code .extern .shared} variables in declaration order (what -g names)
 * @param targetDebug           {@code .target ..., debug}: ptxas 13 compiles such a module as with {@code -g}
 */
public record ModuleDeclarations(OptionalInt ptxTargetSm, boolean texmodeIndependent, List<Function> functions,
                                 int externSharedAlignment, List<ExternShared> externShared, boolean targetDebug) {
    /** One {@code .extern .shared} variable: its name, alignment, and the kernels whose shared window holds it. */
    public record ExternShared(String name, int alignment, List<String> kernels) {
        public ExternShared {
            Objects.requireNonNull(name, "name");
            kernels = List.copyOf(kernels);
        }
    }

    /** The CUDA runtime's device-side system calls (printf, assert, device malloc/free), provided by the driver. */
    public static final java.util.Set<String> SYSTEM_CALLS = java.util.Set.of("vprintf", "__assertfail", "malloc", "free");

    /** No declarations: what a module built without a PTX front end carries. */
    public static final ModuleDeclarations NONE = new ModuleDeclarations(OptionalInt.empty(), false, List.of());

    /** Whether the module is compiled without the calling ABI: ptxas disables it for a function with several results. */
    public boolean abiDisabled() {
        return functions.stream().anyMatch(f -> f.defined() && f.results().size() > 1);
    }

    /** A function's linking directive ({@link #INTERNAL} when none is written). */
    public enum Linkage { INTERNAL, VISIBLE, WEAK, EXTERN }

    /**
     * One declared function.
     *
     * @param defined whether the module gives it a body
     * @param results its return parameters (PTX type name and byte size in {@link FunctionAttrs.Param})
     * @param params  its parameters, in order
     */
    public record Function(String name, boolean entry, Linkage linkage, boolean defined,
                           List<FunctionAttrs.Param> results, List<FunctionAttrs.Param> params) {
        public Function {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(linkage, "linkage");
            results = List.copyOf(results);
            params = List.copyOf(params);
        }
    }

    public ModuleDeclarations {
        Objects.requireNonNull(ptxTargetSm, "ptxTargetSm");
        functions = List.copyOf(functions);
        externShared = List.copyOf(externShared);
    }

    /** Declarations of a module whose {@code .target} does not list {@code debug}. */
    public ModuleDeclarations(OptionalInt ptxTargetSm, boolean texmodeIndependent, List<Function> functions,
                              int externSharedAlignment, List<ExternShared> externShared) {
        this(ptxTargetSm, texmodeIndependent, functions, externSharedAlignment, externShared, false);
    }

    /** Declarations of a module without {@code .extern .shared} variables. */
    public ModuleDeclarations(OptionalInt ptxTargetSm, boolean texmodeIndependent, List<Function> functions) {
        this(ptxTargetSm, texmodeIndependent, functions, 0, List.of());
    }

    /**
     * The declarations of several modules compiled together: the first's target, every module's functions; debug
     * code when any module's {@code .target} lists {@code debug}.
     */
    public static ModuleDeclarations merge(List<ModuleDeclarations> all) {
        if (all.isEmpty()) {
            return NONE;
        }
        List<Function> functions = new ArrayList<>();
        all.forEach(d -> functions.addAll(d.functions()));
        int externShared = all.stream().mapToInt(ModuleDeclarations::externSharedAlignment).max().orElse(0);
        List<ExternShared> variables = new ArrayList<>();
        all.forEach(d -> d.externShared().stream().filter(v -> !variables.contains(v)).forEach(variables::add));
        return new ModuleDeclarations(all.get(0).ptxTargetSm(), all.get(0).texmodeIndependent(), functions,
                externShared, variables, all.stream().anyMatch(ModuleDeclarations::targetDebug));
    }
}
