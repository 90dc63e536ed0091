package org.jptxas.frontend.ptx;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.check.CheckResult;
import org.jptxas.frontend.ptx.check.PtxChecker;
import org.jptxas.frontend.ptx.check.ResolvedModule;
import org.jptxas.frontend.ptx.parse.ParseResult;
import org.jptxas.frontend.ptx.parse.PtxParser;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.frontend.ptx.lower.ModuleInliner;
import org.jptxas.frontend.ptx.lower.PtxLowering;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetCatalog;
import org.jptxas.ori.target.TargetProfile;

/**
 * Entry point of the PTX front end: parse and check a PTX module, then lower it to Ori.
 * Instances are immutable and thread-safe.
 */
public final class PtxFrontEnd {
    private final Target target;
    private final TargetProfile profile;
    private final TargetCatalog catalog;

    /**
     * A front end that parses and checks (and lowers nothing).
     *
     * @param target  the real target being compiled for, used for target gating of instructions
     * @param catalog the targets a {@code .target} directive may name (those the installed backends describe)
     */
    public PtxFrontEnd(Target target, TargetCatalog catalog) {
        this.target = target;
        this.profile = null;
        this.catalog = java.util.Objects.requireNonNull(catalog, "catalog");
    }

    /**
     * A front end that also lowers to Ori, with the target's ABI facts (where the parameters are, the reserved
     * shared memory), which come from the backend's description of the target.
     */
    public PtxFrontEnd(TargetProfile profile, TargetCatalog catalog) {
        this.target = profile.target();
        this.profile = profile;
        this.catalog = java.util.Objects.requireNonNull(catalog, "catalog");
    }

    /**
     * Parses and checks one PTX file; every error found is reported in the exception. Semantic checks run only when
     * the text parsed without syntax errors (a partial model would only produce follow-on noise).
     */
    public CheckedModule check(String fileName, String text) throws CompilationException {
        ParseResult parsed = PtxParser.parse(fileName, text);
        if (parsed.hasErrors()) {
            throw new CompilationException(parsed.diagnostics());
        }
        CheckResult checked = PtxChecker.check(fileName, parsed.module(), target, catalog);
        List<Diagnostic> all = new ArrayList<>(parsed.diagnostics());
        all.addAll(upToFirstFatal(checked.diagnostics()));
        if (checked.hasErrors()) {
            throw new CompilationException(all);
        }
        return new Checked(fileName, text, checked.resolved(), all, target, profile);
    }

    /** The diagnostics up to the first fatal one, included: ptxas stops there. */
    private static List<Diagnostic> upToFirstFatal(List<Diagnostic> diagnostics) {
        for (int i = 0; i < diagnostics.size(); i++) {
            if (diagnostics.get(i).severity() == org.jptxas.ori.diag.Severity.FATAL) {
                return diagnostics.subList(0, i + 1);
            }
        }
        return diagnostics;
    }

    /** A PTX module that parsed and passed the semantic checks. */
    public interface CheckedModule {
        /** The module model with its resolved names. */
        ResolvedModule resolved();

        /** Warnings found while checking (no errors: those throw). */
        List<Diagnostic> warnings();

        /**
         * Lowers the module to Ori for {@code target}, as a whole-program compilation: every {@code .func} call
         * inlined ({@link org.jptxas.frontend.ptx.lower.ModuleInliner}), device functions dropped.
         */
        default OriModule lower() throws CompilationException {
            return lower(java.util.OptionalInt.empty());
        }

        /**
         * As {@link #lower()}, under a register limit ({@code --maxrregcount}): it bounds how many words a call to an
         * internal subroutine passes in registers (a call passing more is inlined).
         */
        OriModule lower(java.util.OptionalInt maxRegisters) throws CompilationException;

        /** Lowers every function, kernels and device functions, with the calls left as call pseudo-instructions. */
        OriModule lowerWithoutInlining() throws CompilationException;

        /**
         * Lowers the module for relocatable output ({@code -c}): calls to internal functions of the module inlined,
         * every exported device function kept as a function of its own and called by symbol, calls to
         * {@code .extern .func}s left to the linker
         * ({@link org.jptxas.frontend.ptx.lower.ModuleInliner#inlineKeepingFunctions}).
         */
        default OriModule lowerRelocatable() throws CompilationException {
            return lowerRelocatable(java.util.OptionalInt.empty());
        }

        /** As {@link #lowerRelocatable()}, under a register limit (as for {@link #lower(java.util.OptionalInt)}). */
        OriModule lowerRelocatable(java.util.OptionalInt maxRegisters) throws CompilationException;

        /**
         * Lowers the module as ptxas 13 compiles it with {@code -g}: every device function with a body kept as a
         * function of its own, with its code, called by symbol (without {@code -g} ptxas keeps the kernels alone);
         * a module taking function addresses is lowered as by {@link #lower} (not supported with kept functions yet).
         */
        default OriModule lowerKeepingFunctions() throws CompilationException {
            return lowerKeepingFunctions(java.util.OptionalInt.empty());
        }

        /** As {@link #lowerKeepingFunctions()}, under a register limit (as for {@link #lower(java.util.OptionalInt)}). */
        OriModule lowerKeepingFunctions(java.util.OptionalInt maxRegisters) throws CompilationException;
    }

    private record Checked(String fileName, String text, ResolvedModule resolved, List<Diagnostic> warnings, Target target,
                           TargetProfile profile) implements CheckedModule {
        @Override
        public OriModule lower(java.util.OptionalInt maxRegisters) throws CompilationException {
            OriModule m = org.jptxas.frontend.ptx.lower.TextureSlots.assign(
                    ModuleInliner.inline(lowerWithoutInlining(), maxRegisters), profile);
            org.jptxas.frontend.ptx.lower.TextureSlots.checkResolved(m, fileName);
            return m;
        }

        @Override
        public OriModule lowerRelocatable(java.util.OptionalInt maxRegisters) throws CompilationException {
            java.util.Set<String> visible = new java.util.HashSet<>();
            for (org.jptxas.frontend.ptx.ast.FunctionDecl f : resolved.module().functions()) {
                if (f.linkage() != org.jptxas.frontend.ptx.ast.Linkage.NONE) {
                    visible.add(f.name());
                }
            }
            OriModule m = org.jptxas.frontend.ptx.lower.TextureSlots.assign(
                    ModuleInliner.inlineKeepingFunctions(lowerWithoutInlining(), visible::contains, maxRegisters),
                    profile);
            org.jptxas.frontend.ptx.lower.TextureSlots.checkResolved(m, fileName);
            return m;
        }

        @Override
        public OriModule lowerKeepingFunctions(java.util.OptionalInt maxRegisters) throws CompilationException {
            OriModule all = lowerWithoutInlining();
            if (ModuleInliner.callsIndirectly(all)) {
                return lower(maxRegisters); // function pointers: their targets stay resolved in the caller's section
            }
            OriModule m = org.jptxas.frontend.ptx.lower.TextureSlots.assign(
                    ModuleInliner.inlineKeepingFunctions(all, name -> true, maxRegisters), profile);
            org.jptxas.frontend.ptx.lower.TextureSlots.checkResolved(m, fileName);
            return m;
        }

        @Override
        public OriModule lowerWithoutInlining() throws CompilationException {
            if (profile == null) {
                // a target the installed backends describe without code generation (sm_100 and later, say)
                throw new org.jptxas.ori.diag.UnsupportedFeatureException(fileName, 0,
                        "Code generation for " + target.name() + " is not yet supported");
            }
            return org.jptxas.frontend.ptx.lower.TextureSlots.assign(PtxLowering.lower(fileName, resolved, profile), profile)
                    .withLines(org.jptxas.frontend.ptx.lower.SourceLineTables.of(resolved.module(), text))
                    .withDwarf(org.jptxas.frontend.ptx.lower.DwarfSectionReader.of(resolved.module()));
        }
    }

    public PtxModule parseOnly(String fileName, String text) throws CompilationException {
        ParseResult parsed = PtxParser.parse(fileName, text);
        if (parsed.hasErrors()) {
            throw new CompilationException(parsed.diagnostics());
        }
        return parsed.module();
    }

    public Target target() {
        return target;
    }
}
