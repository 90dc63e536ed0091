package org.jptxas.backend.sm89_90;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jptxas.isel.codegen.CodegenPipeline;
import org.jptxas.isel.select.InstructionSelector;
import org.jptxas.isel.select.Selection;
import org.jptxas.ori.target.Target;

/** This backend's instruction selection: the common matcher set plus {@code isel/sm89-90.json}. */
public final class Sm89To90Isel {
    /** The matcher sets, in order (ties in priority go to the earlier set). */
    public static final String[] TABLES = {"common.json", "sm89-90.json"};

    /** One immutable selector per target, built on first use. */
    private static final Map<String, InstructionSelector> SELECTORS = new ConcurrentHashMap<>();

    private Sm89To90Isel() {}

    public static InstructionSelector selector(Target target) {
        return SELECTORS.computeIfAbsent(target.name(), t -> InstructionSelector.load(t, TABLES));
    }

    /** {@code pipeline} with this backend's legalizer and selecting emitter. */
    public static CodegenPipeline install(CodegenPipeline pipeline, Target target) {
        return Selection.install(pipeline, selector(target));
    }
}
