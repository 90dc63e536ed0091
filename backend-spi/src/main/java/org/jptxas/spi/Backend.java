package org.jptxas.spi;

import java.util.List;
import java.util.Optional;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.target.Target;

/**
 * A code generator for one SM generation. Implementations are found with {@link java.util.ServiceLoader}; register
 * one with {@code @AutoService(Backend.class)} (or a {@code META-INF/services/org.jptxas.spi.Backend} entry) and
 * drop its jar into a plugin folder. A backend describes its targets from JSON in its own jar
 * ({@link BackendDescriptions}); shared code asks those descriptions, never the SM number.
 *
 * <p>A backend is stateless between calls: {@link #compile} may run concurrently on many threads.
 */
public interface Backend {
    /** Stable short id, e.g. {@code sm80}; the module is {@code backend-<id>}. */
    String id();

    /** One line for {@code --list-targets}. */
    String description();

    /** Every target this backend describes, those it generates code for and those it only lists. */
    List<TargetDescription> descriptions();

    /** Every target this backend serves. */
    default List<Target> targets() {
        return descriptions().stream().map(TargetDescription::target).toList();
    }

    /** The description of {@code target}, if this backend serves it. */
    default Optional<TargetDescription> description(Target target) {
        return descriptions().stream().filter(d -> d.target().equals(target)).findFirst();
    }

    /**
     * Compiles a module to a cubin.
     *
     * @throws CompilationException with positioned diagnostics for input the backend rejects or does not support yet
     */
    CompiledModule compile(CompileRequest request) throws CompilationException;
}
