package org.jptxas.isel.codegen;

import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.target.Target;
import org.jptxas.spi.Backend;
import org.jptxas.spi.BackendDescriptions;
import org.jptxas.spi.CompileRequest;
import org.jptxas.spi.CompiledModule;
import org.jptxas.spi.TargetDescription;

/**
 * Base for backends described by a {@code backend.json} beside their class (in the resource folder of the class's
 * package, read through the class's own loader): its id, description and targets come from there, and each target
 * with code generation gets the stages {@link #pipeline} builds from its description.
 */
public abstract class FamilyBackend implements Backend {
    private final BackendDescriptions.Described described;

    protected FamilyBackend() {
        this.described = BackendDescriptions.read(getClass(),
                "/" + getClass().getPackageName().replace('.', '/') + "/");
    }

    @Override
    public final String id() {
        return described.id();
    }

    @Override
    public final String description() {
        return described.description();
    }

    @Override
    public final List<TargetDescription> descriptions() {
        return described.targets();
    }

    /**
     * The code-generation stages for a target this backend generates code for (matchers, legalisation, allocation,
     * control bits); called once per target. Backends without code generation keep the default, which is never
     * reached.
     */
    protected CodegenPipeline pipeline(TargetDescription description) {
        throw new IllegalStateException("backend " + id() + " generates no code for " + description.target().name());
    }

    @Override
    public CompiledModule compile(CompileRequest request) throws CompilationException {
        return new ModuleCodegen(requirePipeline(request.target())).compile(request);
    }

    /** The pipeline for {@code target}, or the "not yet supported" error. */
    public CodegenPipeline requirePipeline(Target target) throws CompilationException {
        TargetDescription d = description(target).orElseThrow(() -> new UnsupportedFeatureException(null, 0,
                "Backend " + id() + " does not serve target " + target.name()));
        if (!d.codeGeneration()) {
            throw new UnsupportedFeatureException(null, 0,
                    "Code generation for " + target.name() + " is not yet supported by backend " + id());
        }
        return d.derived(CodegenPipeline.class, this::pipeline);
    }
}
