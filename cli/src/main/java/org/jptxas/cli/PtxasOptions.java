package org.jptxas.cli;

import java.util.List;

/**
 * The ptxas options jptxas accepts without implementing them, and those it refuses by name. Options jptxas
 * implements are declared on {@link JptxasCommand} itself.
 */
final class PtxasOptions {
    private PtxasOptions() {}

    /** One ptxas option: long and short name, and whether it takes a value. */
    record Spec(String longName, String shortName, boolean takesValue) {}

    /** Options that do not change what the output computes, so accepting them is harmless. */
    static final List<Spec> IGNORED = List.of(
            new Spec("--allow-expensive-optimizations", "-allow-expensive-optimizations", true),
            new Spec("--Ofast-compile", "-Ofc", true),
            new Spec("--split-compile", "-split-compile", true),
            new Spec("--register-usage-level", "-regUsageLevel", true),
            new Spec("--dont-merge-basicblocks", "-no-bb-merge", false),
            new Spec("--return-at-end", "-ret-end", false),
            new Spec("--disable-optimizer-constants", "-disable-optimizer-consts", false),
            new Spec("--legacy-bar-warp-wide-behavior", "-legacy-bar-warp-wide-behavior", false),
            new Spec("--suppress-debug-info", "-suppress-debug-info", false),
            new Spec("--suppress-double-demote-warning", "-suppress-double-demote-warning", false),
            new Spec("--suppress-stack-size-warning", "-suppress-stack-size-warning", false),
            new Spec("--suppress-sparse-mma-advisory-info", "-suppress-sparse-mma-advisory-info", false),
            new Spec("--suppress-async-bulk-multicast-advisory-warning",
                    "-suppress-async-bulk-multicast-advisory-warning", false),
            new Spec("--warn-on-double-precision-use", "-warn-double-usage", false),
            new Spec("--warn-on-local-memory-usage", "-warn-lmem-usage", false),
            new Spec("--g-tensor-memory-access-check", "-g-tmem-access-check", false),
            new Spec("--gno-tensor-memory-access-check", "-gno-tmem-access-check", false),
            new Spec("--position-independent-code", "-pic", true),
            new Spec("--fmad", "-fmad", true));

    /** Options that would change the output; jptxas says by name that it does not support them yet. */
    static final List<Spec> REFUSED = List.of(
            new Spec("--compile-as-tools-patch", "-astoolspatch", false),
            new Spec("--compiler-annotations", "-annotate", false),
            new Spec("--def-load-cache", "-dlcm", true),
            new Spec("--def-store-cache", "-dscm", true),
            new Spec("--force-load-cache", "-flcm", true),
            new Spec("--force-store-cache", "-fscm", true),
            new Spec("--device-function-maxrregcount", "-func-maxrregcount", true),
            new Spec("--device-stack-protector", "-device-stack-protector", true),
            new Spec("--entry", "-e", true),
            new Spec("--extensible-whole-program", "-ewp", false),
            new Spec("--make-errors-visible-at-exit", "-make-errors-visible-at-exit", false),
            new Spec("--maxntid", "-maxntid", true),
            new Spec("--minnctapersm", "-minnctapersm", true),
            new Spec("--optimize-float-atomics", "-opt-fp-atomics", false),
            new Spec("--override-directive-values", "-override-directive-values", false),
            new Spec("--preserve-relocs", "-preserve-relocs", false),
            new Spec("--sanitize", "-sanitize", true),
            new Spec("--sp-bounds-check", "-sp-bounds-check", false),
            new Spec("--input-as-string", "-ias", true));
}
