package org.jptxas.simulator.exec;

import java.util.List;

/**
 * Runs one kernel launch on the CPU. Two implementations share this contract: the PTX interpreter (the definition of
 * what a kernel computes) and the SASS emulator (what a cubin computes). An executor is bound to one program (a PTX
 * module or a cubin) when created; {@link #execute} may be called many times, from one thread at a time per launch.
 *
 * <p>Executors never hang and never throw for kernel bugs: traps, out-of-bounds or misaligned accesses, barrier
 * deadlocks, endless loops (beyond {@link ExecutionLimits#maxWarpInstructions()}) and instructions they cannot run
 * end the launch with a {@link Fault}.
 */
public interface KernelExecutor {
    /** E.g. {@code "PTX interpreter"} or {@code "SASS emulator (sm_90)"}. */
    String name();

    /** The kernels ({@code .entry} functions) the program defines. */
    List<String> entries();

    /**
     * Runs {@code launch} to completion or to its first fault. Global memory in the launch is updated in place.
     *
     * @throws LaunchException when the launch cannot start (no such entry, parameters that do not match the kernel)
     */
    LaunchResult execute(Launch launch, ExecutionLimits limits) throws LaunchException;
}
