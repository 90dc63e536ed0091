package org.jptxas.spi;

import java.util.List;
import java.util.Objects;

/**
 * The code-generation part of a target's entry in {@code backend.json} ({@code "codegen": {...}}; a target without
 * it is listed and refused by name). Table paths are resources of the backend's jar (relative) or of the shared
 * {@code tables} jar (absolute, {@code /org/jptxas/tables/...}).
 *
 * @param abi       the driver's constant-bank layout and the code layout rules
 * @param features  the target's {@link org.jptxas.ori.target.TargetFeature}s by name
 * @param sass      the SASS encoding forms: the family base and the target's overlay
 * @param modifiers the SASS modifier enums: base and overlay
 * @param latency   the latency table
 * @param matchers  the instruction-selection matcher sets, in priority-tie order
 */
public record CodegenSpec(SchedulingFlavor scheduling, Abi abi, List<String> features, Layered sass,
        Layered modifiers, String latency, List<String> matchers) {
    public CodegenSpec {
        Objects.requireNonNull(scheduling, "scheduling");
        Objects.requireNonNull(abi, "abi");
        features = List.copyOf(features);
        Objects.requireNonNull(sass, "sass");
        Objects.requireNonNull(modifiers, "modifiers");
        Objects.requireNonNull(latency, "latency");
        matchers = List.copyOf(matchers);
    }

    /**
     * The code generator's ABI facts (the parameter base and the reserved shared memory are the cubin flavour's):
     * where the driver puts the global-memory descriptor (hex, as ptxas's listings print it), the fewest NOPs after a
     * function's closing self-branch, and the relocation of a {@code CALL} to a symbol ({@code ""}: the symbol's
     * own); where bank 0 holds the generic address of the {@code .const} variables ({@code constWindow}) and one into
     * the parameters' bank ({@code paramWindow}, pointing at bank offset {@code paramWindowPointee}); hex, {@code ""}
     * where not known; and which layout of the driver's launch constants bank 0 has ({@code driver}:
     * {@code classic}, sm_75 ... sm_90; {@code blackwell}, sm_100 on; see
     * {@link org.jptxas.ori.target.DriverConstants}).
     */
    public record Abi(String memoryDescriptor, int trailingNops, String callRelocation, String constWindow,
                      String paramWindow, String paramWindowPointee, String driver) {
        public Abi {
            Objects.requireNonNull(memoryDescriptor, "memoryDescriptor");
            Objects.requireNonNull(callRelocation, "callRelocation");
            Objects.requireNonNull(constWindow, "constWindow");
            Objects.requireNonNull(paramWindow, "paramWindow");
            Objects.requireNonNull(paramWindowPointee, "paramWindowPointee");
            Objects.requireNonNull(driver, "driver");
        }
    }

    /** A table made of a shared base and a per-target overlay. */
    public record Layered(String base, String overlay) {
        public Layered {
            Objects.requireNonNull(base, "base");
            Objects.requireNonNull(overlay, "overlay");
        }
    }
}
