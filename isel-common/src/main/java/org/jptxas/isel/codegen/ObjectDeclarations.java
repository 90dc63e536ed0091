package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jptxas.cubin.CubinBuilder;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.ModuleDeclarations;

/**
 * Hands the module facts the object file records to {@link CubinBuilder}, as ptxas does: the PTX {@code .target}'s
 * SM, {@code texmode_independent} and the kernels declared without {@code .visible} (local symbols), and for
 * relocatable output the bindings of weak and internal device functions, the called {@code .extern .func}s in
 * declaration order and the {@code .nv.prototype} of every exported device function and called external one.
 */
final class ObjectDeclarations {
    private ObjectDeclarations() {}

    static void apply(ModuleDeclarations declarations, List<CompiledFunction> compiled, boolean relocatable,
                      CubinBuilder builder) {
        declarations.ptxTargetSm().ifPresent(builder::ptxTarget);
        if (declarations.texmodeIndependent()) {
            builder.texmodeIndependent();
        }
        Set<String> present = new HashSet<>();
        Set<String> called = new HashSet<>();
        for (CompiledFunction c : compiled) {
            present.add(c.facts().name());
            c.relocations().stream().filter(CubinBuilder::isCall).forEach(r -> called.add(r.symbol()));
        }
        Set<String> hidden = hiddenEntries(declarations);
        for (CompiledFunction c : compiled) {
            if (hidden.contains(c.facts().name())) {
                builder.hiddenEntry(c.facts().name());
            }
        }
        if (declarations.externSharedAlignment() > 0) {
            builder.externShared(declarations.externSharedAlignment());
        }
        declarations.externShared().forEach(v -> builder.externSharedVariable(v.name(), v.alignment(), v.kernels()));
        if (!relocatable) {
            return;
        }
        List<ModuleDeclarations.Function> prototyped = new ArrayList<>();
        for (ModuleDeclarations.Function f : declarations.functions()) {
            boolean exported = f.defined() && !f.entry() && f.linkage() != ModuleDeclarations.Linkage.INTERNAL
                    && present.contains(f.name());
            boolean external = !f.defined() && called.contains(f.name()) && !present.contains(f.name());
            if (exported && f.linkage() == ModuleDeclarations.Linkage.WEAK) {
                builder.functionBinding(f.name(), FunctionFacts.Binding.WEAK);
            }
            if (f.defined() && !f.entry() && f.linkage() == ModuleDeclarations.Linkage.INTERNAL
                    && present.contains(f.name())) {
                builder.functionBinding(f.name(), FunctionFacts.Binding.LOCAL); // a recursive internal function
            }
            if (external) {
                builder.externFunction(f.name());
            }
            if (exported || external) {
                prototyped.add(f);
            }
        }
        // ptxas writes the type strings in reverse declaration order.
        for (int i = prototyped.size() - 1; i >= 0; i--) {
            ModuleDeclarations.Function f = prototyped.get(i);
            builder.prototype(f.name(), builder.prototypeSignature(types(f.results()), types(f.params()),
                    !f.defined() && ModuleDeclarations.SYSTEM_CALLS.contains(f.name())));
        }
    }

    /** The kernels declared without {@code .visible} (or {@code .weak}): ptxas makes their symbols local. */
    static Set<String> hiddenEntries(ModuleDeclarations declarations) {
        Set<String> hidden = new HashSet<>();
        for (ModuleDeclarations.Function f : declarations.functions()) {
            if (f.entry() && f.defined() && f.linkage() == ModuleDeclarations.Linkage.INTERNAL) {
                hidden.add(f.name());
            }
        }
        return hidden;
    }

    private static List<String> types(List<FunctionAttrs.Param> params) {
        return params.stream().map(p -> p.ptxType() + ":" + p.size()).toList();
    }
}
