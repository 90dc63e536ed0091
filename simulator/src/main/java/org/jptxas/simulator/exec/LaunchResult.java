package org.jptxas.simulator.exec;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of one launch: completed, or the first fault; plus counters. Buffers hold the final memory either way
 * (useful to debug a fault).
 */
public record LaunchResult(String executor, Optional<Fault> fault, long warpInstructions, long threadInstructions,
                           List<String> notes) {
    public LaunchResult {
        notes = List.copyOf(notes);
    }

    public boolean completed() {
        return fault.isEmpty();
    }

    public static LaunchResult completed(String executor, long warpInstructions, long threadInstructions) {
        return new LaunchResult(executor, Optional.empty(), warpInstructions, threadInstructions, List.of());
    }

    public static LaunchResult faulted(String executor, Fault fault, long warpInstructions, long threadInstructions) {
        return new LaunchResult(executor, Optional.of(fault), warpInstructions, threadInstructions, List.of());
    }
}
