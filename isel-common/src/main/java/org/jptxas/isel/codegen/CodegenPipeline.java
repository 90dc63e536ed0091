package org.jptxas.isel.codegen;

import java.util.List;
import java.util.Objects;
import org.jptxas.spi.TargetDescription;

/**
 * The stages a backend plugs into the shared code generator for one target: Ori optimisation passes (run from -O1
 * on), the backend's legalisation passes (always), register allocation, SASS emission and control bits; and the
 * target's description, which every stage may consult.
 */
public record CodegenPipeline(TargetDescription description, List<OriPass> optimizations, List<OriPass> legalization,
                              RegisterAllocator allocator, SassEmitter emitter, ControlPass control) {
    public CodegenPipeline {
        Objects.requireNonNull(description, "description");
        description.codegen();
        optimizations = List.copyOf(optimizations);
        legalization = List.copyOf(legalization);
        Objects.requireNonNull(allocator, "allocator");
        Objects.requireNonNull(emitter, "emitter");
        Objects.requireNonNull(control, "control");
    }

    /**
     * The bring-up pipeline: no optimisation or legalisation, {@link LinearScanAllocation},
     * {@link PassThroughSassEmitter}, {@link ConservativeControl}.
     */
    public static CodegenPipeline naive(TargetDescription description) {
        return new CodegenPipeline(description, List.of(), List.of(), new LinearScanAllocation(),
                new PassThroughSassEmitter(), new ConservativeControl());
    }

    /**
     * The default pipeline: the mid-level optimizer ({@link OptimizerPass}), {@link LinearScanAllocation},
     * {@link PassThroughSassEmitter}, {@link ConservativeControl}; backends replace the emitter (instruction
     * selection), add legalisation and give their control pass.
     */
    public static CodegenPipeline standard(TargetDescription description) {
        return naive(description).withOptimizations(List.of(new OptimizerPass()));
    }

    public CodegenPipeline withOptimizations(List<OriPass> passes) {
        return new CodegenPipeline(description, passes, legalization, allocator, emitter, control);
    }

    public CodegenPipeline withLegalization(List<OriPass> passes) {
        return new CodegenPipeline(description, optimizations, passes, allocator, emitter, control);
    }

    public CodegenPipeline withAllocator(RegisterAllocator a) {
        return new CodegenPipeline(description, optimizations, legalization, a, emitter, control);
    }

    public CodegenPipeline withEmitter(SassEmitter e) {
        return new CodegenPipeline(description, optimizations, legalization, allocator, e, control);
    }

    public CodegenPipeline withControl(ControlPass c) {
        return new CodegenPipeline(description, optimizations, legalization, allocator, emitter, c);
    }
}
