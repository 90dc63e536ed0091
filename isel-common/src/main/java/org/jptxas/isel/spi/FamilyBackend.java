package org.jptxas.isel.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.target.TargetCatalog;
import org.jptxas.ori.target.TargetInfo;
import org.jptxas.ori.target.Target;

/**
 * Base for the bundled backends: the targets a backend serves are those whose {@code family} in
 * {@code targets.json} equals the backend id, so the table is the single source of the target → backend map.
 */
public abstract class FamilyBackend implements Backend {
    private final String id;
    private final String description;
    private final List<Target> targets;

    protected FamilyBackend(String id, String description) {
        this.id = Objects.requireNonNull(id, "id");
        this.description = Objects.requireNonNull(description, "description");
        this.targets = TargetCatalog.get().all().stream()
                .filter(t -> t.family().equals(id))
                .map(TargetInfo::target)
                .sorted()
                .toList();
        if (targets.isEmpty()) {
            throw new IllegalStateException("targets.json lists no target of family " + id);
        }
    }

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final List<Target> targets() {
        return targets;
    }

    /**
     * The code-generation stages for {@code target} (matchers, legalisation, allocation, control bits); empty when
     * this backend cannot generate code yet.
     */
    public Optional<CodegenPipeline> pipeline(Target target) {
        return Optional.empty();
    }

    @Override
    public CompiledModule compile(CompileRequest request) throws CompilationException {
        return new ModuleCodegen(requirePipeline(request.target())).compile(request);
    }

    /** The pipeline for {@code target}, or the "not yet supported" error. */
    public CodegenPipeline requirePipeline(Target target) throws CompilationException {
        return pipeline(target).orElseThrow(() -> new UnsupportedFeatureException(null, 0,
                "Code generation for " + target.name() + " is not yet supported by backend " + id));
    }
}
