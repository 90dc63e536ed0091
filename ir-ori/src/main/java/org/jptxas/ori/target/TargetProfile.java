package org.jptxas.ori.target;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What the front end, the optimizer and the code generator need to know of a target besides its name: the driver's
 * constant-bank layout and the target's features. Built from a backend's target description; immutable.
 *
 * @param paramBase        where the kernel parameters start in constant bank 0
 * @param memoryDescriptor where the driver puts the 64-bit global-memory descriptor in bank 0
 * @param reservedShared   bytes of shared memory the system reserves below the kernel's own (placed above them)
 * @param trailingNops     the fewest {@code NOP}s after a function's closing self-branch before the padding
 * @param callRelocation   the relocation of a {@code CALL} to a symbol; empty: the symbol's own ({@code R_CUDA_ABS47_34})
 * @param constWindow      where bank 0 holds the generic address of the module's {@code .const} variables; null where
 *                         not known (generic addresses of them are refused by name)
 * @param paramWindow      where bank 0 holds a generic address into the kernel parameters' bank; null where not known
 * @param driver           where the driver puts the launch dimensions, the stack pointer and the other facts in bank 0
 */
public record TargetProfile(Target target, int paramBase, int memoryDescriptor, int reservedShared, int trailingNops,
        String callRelocation, Set<TargetFeature> features, BankWindow constWindow, BankWindow paramWindow,
        DriverConstants driver) {
    public TargetProfile {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(driver, "driver");
        Objects.requireNonNull(callRelocation, "callRelocation");
        features = features.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(features));
    }

    public boolean has(TargetFeature feature) {
        return features.contains(feature);
    }

    public String name() {
        return target.name();
    }
}
