package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** {@code .target sm_90a, texmode_independent, debug}: the target names and options as written. */
public record TargetDirective(SourcePos pos, List<String> entries) implements ModuleItem {
    public TargetDirective {
        entries = List.copyOf(entries);
    }

    /** The {@code sm_XX} or {@code compute_XX} entries. */
    public List<String> architectures() {
        return entries.stream().filter(e -> e.startsWith("sm_") || e.startsWith("compute_")).toList();
    }

    public boolean has(String option) {
        return entries.contains(option);
    }
}
